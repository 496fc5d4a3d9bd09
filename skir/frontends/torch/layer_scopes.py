"""Per-layer SuperKernel scopes for a decoder stack, with the parts around the layers scoped too.

Scoping only the decoder layers leaves what runs before and after them (embedding, rotary
set-up, masks, final norm, lm_head) outside every scope, so none of it fuses. `scope_layers`
wraps each layer's forward in scope `layer<i>` and the whole model's forward in scope
`outside`: an op before the first layer or after the last is in `outside` only, so the
pre-layer part and the post-layer part each become SuperKernels of their own, and a layer's
ops, in both, are cut from its neighbours by their different labels.

```python
from skir.frontends.torch import capture, scope_layers
names = scope_layers(model)               # the largest nn.ModuleList, e.g. model.model.layers
module = capture(model, input_ids)        # layer0 .. layerN-1 and "outside" as scopes
```
"""

from __future__ import annotations

from typing import Any

import torch

from skir.errors import SkirError
from skir.marks import super_kernel_scope

_ORIGINAL = "_skir_unscoped_forward"


def _wrap(module: torch.nn.Module, scope: str) -> None:
    inner = module.__dict__.get(_ORIGINAL) or module.forward
    module.__dict__[_ORIGINAL] = inner

    def forward(*args: Any, **kwargs: Any) -> Any:
        with super_kernel_scope(scope):
            return inner(*args, **kwargs)

    module.forward = forward


def _largest_module_list(model: torch.nn.Module) -> torch.nn.ModuleList | None:
    lists = [m for m in model.modules() if isinstance(m, torch.nn.ModuleList) and len(m) > 0]
    return max(lists, key=len, default=None)


def scope_layers(model: torch.nn.Module, layers: torch.nn.ModuleList | None = None, *, prefix: str = "layer",
                 outside: str = "outside") -> list[str]:
    """Scope each layer of `layers` (default: the model's largest `nn.ModuleList`) as
    `<prefix><i>` and the rest of `model` as `outside`; returns the scope names. Calling it
    again re-scopes (it never nests a second wrapper)."""
    found = layers if layers is not None else _largest_module_list(model)
    if found is None or len(found) == 0:
        raise SkirError(f"scope_layers: {type(model).__name__} has no nn.ModuleList of layers; pass layers=")
    names = [f"{prefix}{i}" for i in range(len(found))]
    if outside in names:
        raise SkirError(f"scope_layers: the outside scope {outside!r} is also a layer's name")
    for layer, name in zip(found, names, strict=True):
        _wrap(layer, name)
    _wrap(model, outside)
    return [outside, *names]
