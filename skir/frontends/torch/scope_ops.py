"""`skir::scope_begin` / `skir::scope_end`: scopes opened and closed by function calls.

torch_npu's `super_kernel_scope_begin(name)` / `super_kernel_scope_end(name)` are calls, not a
`with` block, so they cannot be an annotation (TorchDynamo refuses a context entered by hand).
`skir.super_kernel_scope_begin` / `_end` call these two ops instead; they do nothing when run,
are kept by `torch.export` and TorchDynamo (marked side-effectful), and the graph capture opens
and closes the scope where it meets them:

```
skir.super_kernel_scope_begin("full_model")     call skir.scope_begin("full_model", "")
y = torch.relu(x)                                call aten.relu   (in scope full_model)
skir.super_kernel_scope_end("full_model")       call skir.scope_end("full_model")
```
"""

from __future__ import annotations

from typing import Any

import torch
from torch.fx.node import has_side_effect

import skir.marks

_LIBRARY = torch.library.Library("skir", "FRAGMENT")  # kept alive: the ops live as long as it
_LIBRARY.define("scope_begin(str? scope, str options='') -> ()")
_LIBRARY.define("scope_end(str? scope) -> ()")
_LIBRARY.impl("scope_begin", lambda scope, options="": None, "CompositeExplicitAutograd")
_LIBRARY.impl("scope_end", lambda scope: None, "CompositeExplicitAutograd")

BEGIN = torch.ops.skir.scope_begin
END = torch.ops.skir.scope_end
for _op in (BEGIN.default, END.default):
    has_side_effect(_op)


def is_scope_op(target: Any, which: Any) -> bool:
    """Whether an FX node's target is `which` (BEGIN or END), as an overload or its packet."""
    return target is which or getattr(target, "overloadpacket", None) is which


skir.marks.install_scope_calls(lambda scope, options: BEGIN(scope, options), lambda scope: END(scope))
