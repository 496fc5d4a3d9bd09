"""skir: an ahead-of-time SuperKernel compiler for Ascend NPUs, built on xDSL.

```python
import skir
result = skir.compile("model.json", options="split-mode=2").check().write("out")
```

`skir.super_kernel_scope(name, options)` and `skir.stream(name)` mark scopes and streams in a
PyTorch model for the torch front end (`skir.frontends.torch`, needs `skir[torch]`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from skir.api import CompileResult, compile, load_model, make_context, parse
    from skir.errors import CheckFailedError, MissingToolError, SkirError
    from skir.marks import (
        stream,
        super_kernel,
        super_kernel_scope,
        super_kernel_scope_begin,
        super_kernel_scope_end,
    )
    from skir.ranks import check_ranks

_WHERE = {
    "CompileResult": "skir.api", "compile": "skir.api", "load_model": "skir.api", "make_context": "skir.api",
    "parse": "skir.api",
    "CheckFailedError": "skir.errors", "MissingToolError": "skir.errors", "SkirError": "skir.errors",
    "stream": "skir.marks", "super_kernel": "skir.marks", "super_kernel_scope": "skir.marks",
    "super_kernel_scope_begin": "skir.marks", "super_kernel_scope_end": "skir.marks",
    "check_ranks": "skir.ranks",
}
"""Public name -> the module that defines it, imported on first use (PEP 562): `import skir` costs
nothing until a name is read, so `sk-opt` and `import skir.registry` stay light."""


__version__: str
"""The installed version of skir (read from the package metadata on first use)."""


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from importlib import metadata

        try:
            return metadata.version("skir")
        except metadata.PackageNotFoundError:  # a source tree on the path, not installed
            return "unknown"
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'skir' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later reads skip this function
    return value


def __dir__() -> list[str]:
    """The public names (`__all__`), `__version__` and the module's own dunders: not the names this
    file imports for itself, nor the submodules loaded so far."""
    return sorted({*__all__, "__version__", *(n for n in globals() if n.startswith("__") and n.endswith("__"))})


__all__ = [
    "CheckFailedError",
    "CompileResult",
    "MissingToolError",
    "SkirError",
    "check_ranks",
    "compile",
    "load_model",
    "make_context",
    "parse",
    "stream",
    "super_kernel",
    "super_kernel_scope",
    "super_kernel_scope_begin",
    "super_kernel_scope_end",
]
