"""skir: an ahead-of-time SuperKernel compiler for Ascend NPUs, built on xDSL.

```python
import skir
result = skir.compile("model.json", options="split-mode=2", out_dir="out")
```

`skir.super_kernel_scope(name, options)` and `skir.stream(name)` mark scopes and streams in a
PyTorch model for the torch front end (`skir.frontends.torch`, needs `skir[torch]`).
"""

import skir.analysis.model_check  # noqa: F401  (installs the model verifier's whole-model rules)
from skir.api import CompileResult, compile, load_model, make_context, parse
from skir.errors import CheckFailedError, MissingToolError, SkirError
from skir.marks import stream, super_kernel, super_kernel_scope, super_kernel_scope_begin, super_kernel_scope_end
from skir.ranks import check_ranks

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
