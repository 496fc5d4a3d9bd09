"""skir: an ahead-of-time SuperKernel compiler for Ascend NPUs, built on xDSL.

```python
import skir
result = skir.compile("model.json", options="split-mode=2", out_dir="out")
```
"""

from skir.api import CompileResult, compile, load_model, make_context, parse
from skir.errors import CheckFailedError, MissingToolError, SkirError

__all__ = [
    "CheckFailedError",
    "CompileResult",
    "MissingToolError",
    "SkirError",
    "compile",
    "load_model",
    "make_context",
    "parse",
]
