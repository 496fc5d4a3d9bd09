"""Which source lines are the user's: errors and warnings of the capture name those.

```python
is_user_file("/home/me/model.py")                 # True
is_user_file(torch.__file__)                      # False (torch's, skir's, generated code)
```
"""

from __future__ import annotations

import os

import torch

import skir

_LIBRARY_DIRS = tuple(os.path.dirname(os.path.abspath(m.__file__ or "")) + os.sep for m in (torch, skir))


def is_user_file(path: str) -> bool:
    """Whether a source file is the user's (not torch's, not skir's, not generated)."""
    return not path.startswith("<") and not os.path.abspath(path).startswith(_LIBRARY_DIRS)
