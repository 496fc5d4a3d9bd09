"""JSON Schemas (draft 2020-12) of every JSON format skir reads or writes (docs/design.md §5).

| schema | file |
| --- | --- |
| `capture` | capture JSON, the model format (§8) |
| `plan` | `OUT/plan.json`, the rewrite plan for a runtime |
| `sk_meta` | `OUT/sk_meta.json` |
| `descriptor` | `OUT/<sk>/<sk>.json`, a SuperKernel's kernel descriptor |
| `vendor_compare` | `OUT/vendor_compare.json` |
| `profile` | skir's measured-durations file (`--profile`, format `skir.profile`) |
| `costs` | a simulator costs file (`--costs`, and `OUT/costs.calibrated.json`) |
| `manifest` | `OUT/skir_manifest.json` |
| `provenance` | the `provenance` object of every JSON product |

The files ship in the package (`skir/schemas/<name>.schema.json`), so a C++ or Python
runtime can validate what it reads without skir:

```python
from skir.schemas import schema_path, validate
validate("plan", json.loads(Path("out/plan.json").read_text()))   # needs the jsonschema package
```
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
NAMES = ("capture", "plan", "sk_meta", "descriptor", "vendor_compare", "profile", "costs", "manifest", "provenance")


def schema_path(name: str) -> Path:
    """The file of schema `name`."""
    if name not in NAMES:
        raise KeyError(f"no schema {name!r} (one of {', '.join(NAMES)})")
    return HERE / f"{name}.schema.json"


@cache
def load(name: str) -> dict[str, Any]:
    """Schema `name` as a JSON object."""
    return json.loads(schema_path(name).read_text())  # type: ignore[no-any-return]


def validate(name: str, data: Any) -> None:
    """Raise `jsonschema.ValidationError` when `data` does not follow schema `name` (the other
    schemas it refers to, by their `urn:skir:schema:*` ids, resolve to the shipped files)."""
    import jsonschema
    from referencing import Registry, Resource

    registry = Registry().with_resources(
        (load(n)["$id"], Resource.from_contents(load(n))) for n in NAMES if schema_path(n).exists())
    jsonschema.Draft202012Validator(load(name), registry=registry).validate(data)
