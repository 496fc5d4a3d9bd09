"""What a model reader (a front end that turns a file format into a model) offers the API.

The API reads models through the readers `skir.registry.get_all_readers()` names, never by
importing a front end: front ends sit above the API (the torch front end compiles through it).

```python
from skir.registry import get_all_readers
readers = [get() for get in get_all_readers().values()]
reader = next(r for r in readers if r.claims(data))      # the vendor's dumps, else capture JSON
module = reader.from_data(data, "model.json", None)
```
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from xdsl.dialects.builtin import ModuleOp

Cores = tuple[int, int] | None
"""(AIC, AIV) core counts for a format that carries none, or None."""


@dataclass(frozen=True)
class ModelReader:
    """One format: `claims(data)` whether a parsed JSON value is of it; `from_data(data, source,
    cores)` the verified model (`source` names the input in diagnostics); `takes_cores` whether
    the format lacks core counts, so that `cores` may be given; `from_folder(path, cores)` a model
    from a dump folder, for a format written as one; `parse_text(text, source)` the JSON value of
    a file's text, for a format whose files are not plain JSON."""

    name: str
    claims: Callable[[Any], bool]
    from_data: Callable[[Any, str, Cores], ModuleOp]
    takes_cores: bool = False
    from_folder: Callable[[str | os.PathLike[str], Cores], ModuleOp] | None = None
    parse_text: Callable[[str, str], Any] | None = None


__all__ = ["Cores", "ModelReader"]
