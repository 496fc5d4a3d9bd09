"""What a model read from the vendor's dumps records about where it came from (docs/design.md §11).

```mlir
aclgraph.model @model_48_1 cores(aic = 24, aiv = 48) attributes {skir.vendor = {layout = "graph",
    cores_given = false, notes = ["..."], model_id = "48_1", options = "stream-fusion=1"}} {
  aclgraph.kernel @MatMulV2 aic_only params 0 not_sk_capable attributes {skir.vendor_name = "MatMulV2",
      skir.no_bind_map}
```
The importer (`skir.frontends.vendor`) writes these attributes; the summary, SK meta, the
option merge and the fail reasons read them, through this module, without the importer.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, StringAttr

from skir.dialects.aclgraph import ModelOp
from skir.dialects.options_attr import SkOptionsAttr

VENDOR_ATTR = "skir.vendor"
"""On the model: layout, model id, whether the cores were given, the notes, the options, and the
runtime's `streamId` of each stream (`stream_ids`, -1 where the dump gives none)."""
NAME_ATTR = "skir.vendor_name"
"""On a kernel: the dump's `funcName`."""
NO_BIND_MAP_ATTR = "skir.no_bind_map"
"""On a kernel whose `resolvedNum` is 0: not sk_capable, with fail detail `no_bind_map`."""
ARGS_UNKNOWN_ATTR = "skir.vendor_args_unknown"
"""On a kernel whose argument size the dumps do not give: it has no param slots, so an entry
calling it cannot pass its arguments, and `--build` refuses its SuperKernel."""


def vendor_info(model: ModelOp) -> dict[str, Any] | None:
    """The `skir.vendor` record of a model as plain values (None: not from a dump)."""
    attr = model.attributes.get(VENDOR_ATTR)
    if not isinstance(attr, DictionaryAttr):
        return None
    out: dict[str, Any] = {}
    for key, value in attr.data.items():
        if isinstance(value, StringAttr):
            out[key] = value.data
        elif isinstance(value, ArrayAttr):
            out[key] = [v.data if isinstance(v, StringAttr) else v.value.data for v in value.data
                        if isinstance(v, StringAttr | IntegerAttr)]
        elif isinstance(value, IntegerAttr):
            out[key] = bool(value.value.data)
        elif isinstance(value, SkOptionsAttr):
            out[key] = value.data
    return out
