"""No import side effect: `import skir` and `import skir.registry` load no pass, analysis or
dialect, and every entry that verifies a model installs the whole-model rules itself (docs/design.md
§4). Each check runs in a fresh interpreter, so no import order of this test session can hide a
missing install."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

# seq 0 twice: a whole-model rule (seq unique in the model), not a per-op one
BAD = """aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @k aiv_only params(inout)
  aclgraph.buffer @x
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @k blocks 8 args(@x)
  }
  aclgraph.stream @s1 {
    aclgraph.launch seq 0 @k blocks 8 args(@x)
  }
}
"""
RULE = "seq 0 is also used by @m/@s0/seq 0; seq must be unique"


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_importing_loads_nothing_heavy() -> None:
    code = ("import sys, skir, skir.registry\n"
            "heavy = sorted(m for m in sys.modules if m.startswith(('skir.passes', 'skir.analysis', "
            "'skir.dialects', 'skir.api', 'skir.targets', 'xdsl.dialects', 'xdsl.universe')))\n"
            "print(heavy)")
    done = _python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_public_names_load_on_first_use() -> None:
    done = _python("import skir\nprint(skir.compile.__module__, skir.SkirError.__module__, "
                   "all(hasattr(skir, n) for n in skir.__all__), set(skir.__all__) <= set(dir(skir)))")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["skir.api", "skir.errors", "True", "True"]
    missing = _python("import skir\nskir.no_such_name")
    assert "module 'skir' has no attribute 'no_such_name'" in missing.stderr


@pytest.mark.parametrize("entry", [
    "import skir; skir.parse(BAD)",
    "import skir; skir.compile(BAD)",
    "from xdsl.parser import Parser; from skir.registry import make_context; "
    "from skir.parsing import verify_located; verify_located(Parser(make_context(), BAD).parse_module())",
])
def test_every_python_entry_applies_the_whole_model_rules(entry: str) -> None:
    done = _python(f"BAD = {BAD!r}\n{entry}")
    assert done.returncode != 0
    assert RULE in done.stderr


def test_the_tools_apply_the_whole_model_rules(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mlir"
    bad.write_text(BAD)
    tools = Path(sys.executable).parent
    for tool in ("sk-opt", "sk-compile"):
        args = [str(tools / tool), str(bad)] + (["-o", str(tmp_path / "out")] if tool == "sk-compile" else [])
        done = subprocess.run(args, capture_output=True, text=True, timeout=120, env=dict(os.environ))
        assert done.returncode == 1, (tool, done.stderr)
        assert RULE in done.stderr, (tool, done.stderr)


def test_version_needs_no_tool_module() -> None:
    tools = Path(sys.executable).parent
    for tool in ("sk-opt", "sk-compile", "sk-check-ranks"):
        done = subprocess.run([str(tools / tool), "--version"], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and done.stdout.startswith(f"{tool} (skir "), (tool, done.stderr)
    launch = _python("import sys\nimport skir.tools.launch\n"
                     "print(sorted(m for m in sys.modules if m.startswith(('xdsl.dialects', 'xdsl.xdsl_opt_main', "
                     "'skir.tools.sk_', 'skir.dialects'))))")
    assert launch.returncode == 0, launch.stderr
    assert launch.stdout.strip() == "[]"  # the launcher loads no dialect and no tool
