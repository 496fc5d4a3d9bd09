"""Run `sk-compile` or `sk-opt` in-process, as a test does with pytest's `capsys`:

```python
code, out, err_lines = run_tool("sk-opt", ["examples/chain.mlir", "-p", "sk-outline"], capsys)
```
"""

from __future__ import annotations

from typing import Any


def run_tool(tool: str, argv: list[str], capsys: Any) -> tuple[int, str, list[str]]:
    """The exit code, standard output and the non-blank lines of standard error of one run."""
    from skir.tools import sk_compile, sk_opt

    code = (sk_compile.main if tool == "sk-compile" else sk_opt.main)(argv)
    out, err = capsys.readouterr()
    return code, out, [ln for ln in err.splitlines() if ln.strip()]


__all__ = ["run_tool"]
