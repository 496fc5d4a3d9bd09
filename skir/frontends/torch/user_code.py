"""Which source lines are the user's: errors and warnings of the capture name those.

```python
is_user_file("/home/me/model.py")                 # True
is_user_file(torch.__file__)                      # False (torch's, skir's, generated code)
warn_at_user_line("op 'x' has no kernel mapping")  # model.py:12: UserWarning: op 'x' ...
where(node)                                       # "model.py:12", or "node add_1" when unknown
```
"""

from __future__ import annotations

import os
import sys
import warnings

import torch
from torch import fx

import skir

_LIBRARY_DIRS = tuple(os.path.dirname(os.path.abspath(m.__file__ or "")) + os.sep for m in (torch, skir))


def is_user_file(path: str) -> bool:
    """Whether a source file is the user's (not torch's, not skir's, not generated)."""
    return not path.startswith("<") and not os.path.abspath(path).startswith(_LIBRARY_DIRS)


def warn_at_user_line(message: str, category: type[Warning] = UserWarning) -> None:
    """Warn with the header naming the innermost frame of the user's code on the stack (the line
    that called the model or `torch.compile`'s result), not a line of skir or torch; with no
    user frame on the stack, the warning names the caller as `warnings.warn` would."""
    frame = sys._getframe(1)
    caller = frame
    while frame is not None and not is_user_file(frame.f_code.co_filename):
        frame = frame.f_back  # type: ignore[assignment]
    frame = frame or caller
    registry = frame.f_globals.setdefault("__warningregistry__", {})
    warnings.warn_explicit(message, category, frame.f_code.co_filename, frame.f_lineno,
                           module=frame.f_globals.get("__name__"), registry=registry,
                           module_globals=frame.f_globals)


def where(node: fx.Node) -> str:
    """`file:line` of the user code that made `node`, or its name when unknown."""
    trace = node.meta.get("stack_trace") or getattr(node, "stack_trace", None) or ""
    for line in reversed(trace.splitlines()):
        parts = line.strip().split('"')
        if parts[0] == "File " and len(parts) >= 3 and is_user_file(parts[1]):
            return f"{parts[1]}:{parts[2].split(',')[1].strip().removeprefix('line ')}"
    return f"node {node.name}"
