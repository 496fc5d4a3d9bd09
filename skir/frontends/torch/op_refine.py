"""What an op really does, given its arguments and the shapes of its tensors.

The op table classes an op by name; some ops do device work only sometimes:

```
x.transpose(0, 1).contiguous()        a copy (vector task): the input is not contiguous
y.contiguous()                        no task when y already is
k[:, :, None].expand(...).reshape()   a copy: an expanded tensor cannot be viewed that way
x.to(torch.float32)                   no task when x is float32 already (also type_as, float, ...)
F.dropout(x, 0.1, training=False)     no task (eval mode), as nn.Dropout in eval
w[idx]                                a gather (vector task), not a view: idx is a tensor
torch.where(cond)                     nonzero (an aicpu task whose size depends on the data),
                                      not the elementwise where
x.T, getattr(x, "mT")                 a view of x (a later reader depends on x)
```
"""

from __future__ import annotations

import operator
from typing import Any

import torch
from torch import fx

from skir.frontends.torch.op_table import OpClass
from skir.frontends.torch.tensor_info import TensorInfo

_CASTS = {"to", "type", "type_as", "_to_copy", "float", "half", "bfloat16", "int", "long", "bool", "double"}
_RELAYOUTS = {"reshape", "flatten"}
VIEW_ATTRS = {"T", "mT", "H", "mH", "real", "imag"}
"""Tensor attributes that are views (read through `getattr` in an FX graph)."""


def attribute_view(node: fx.Node) -> str | None:
    """`T` for `getattr(x, "T")`: the view an attribute read makes, or None."""
    if node.target is getattr and len(node.args) >= 2 and node.args[1] in VIEW_ATTRS:
        return str(node.args[1])
    return None


def refine(node: fx.Node, name: str, cls: OpClass, inputs: list[Any], out: Any,
           module: Any = None) -> tuple[str, OpClass]:
    """(name, class) of `node` once its arguments and tensor shapes are known. `inputs` are the
    TensorInfo of its tensor arguments (in order), `out` its result's, `module` the called
    module of a `call_module` node."""
    first = inputs[0] if inputs and isinstance(inputs[0], TensorInfo) else None
    if name == "where" and len(node.args) + len(node.kwargs) == 1:  # torch.where(cond) is nonzero
        return "nonzero", OpClass.UNSUPPORTED
    if name == "dropout" and _dropout_is_identity(node, module):
        return name, OpClass.VIEW
    if name in _CASTS and first is not None and isinstance(out, TensorInfo) and out.dtype == first.dtype \
            and out.shape == first.shape:
        return name, OpClass.VIEW
    if name == "contiguous" and first is not None:
        return name, OpClass.VIEW if first.contiguous else OpClass.VECTOR
    if name in _RELAYOUTS and first is not None and isinstance(out, TensorInfo):
        return name, OpClass.VIEW if _viewable(first, out.shape) else OpClass.VECTOR
    if node.target is operator.getitem and _tensor_index(node.args[1] if len(node.args) > 1 else None):
        return "index", OpClass.VECTOR
    return name, cls


def _dropout_is_identity(node: fx.Node, module: Any) -> bool:
    if module is not None:
        return not module.training or getattr(module, "p", 1) == 0
    args = list(node.args)
    p = node.kwargs.get("p", args[1] if len(args) > 1 else 0.5)
    train = node.kwargs.get("training", node.kwargs.get("train", args[2] if len(args) > 2 else True))
    return bool(train is False or p == 0)


def _viewable(src: Any, shape: tuple[int, ...]) -> bool:
    """Whether a tensor laid out as `src` can be viewed with `shape` (no copy)."""
    if src.contiguous:
        return True
    if src.stride is None:
        return True
    probe = torch.empty_strided(src.shape, src.stride, device="meta")
    try:
        probe.view(shape)
    except RuntimeError:
        return False
    return True


def _tensor_index(index: Any) -> bool:
    items = index if isinstance(index, (tuple, list)) else (index,)
    for item in items:
        if isinstance(item, fx.Node):
            value = item.meta.get("val", item.meta.get("example_value", item.meta.get("tensor_meta")))
            if value is not None and hasattr(value, "shape") and hasattr(value, "dtype"):
                return True
    return False
