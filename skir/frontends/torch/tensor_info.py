"""What the capture knows of a tensor: shape, dtype and strides, read off an FX node.

```python
info = node_info(node)        # TensorInfo(shape=(8, 64), dtype=torch.float32, stride=(64, 1))
info.nbytes, info.contiguous  # 2048, True
```
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import torch
from torch import fx


@dataclass(frozen=True)
class TensorInfo:
    """What the capture needs to know of a tensor."""

    shape: tuple[int, ...]
    dtype: torch.dtype
    stride: tuple[int, ...] | None = None
    """Its strides in elements, when the graph says (None: taken as contiguous)."""

    @property
    def numel(self) -> int:
        return math.prod(self.shape)

    @property
    def nbytes(self) -> int:
        return self.numel * self.dtype.itemsize

    @property
    def contiguous(self) -> bool:
        if self.stride is None:
            return True
        expected = 1
        for size, step in zip(reversed(self.shape), reversed(self.stride), strict=True):
            if size != 1 and step != expected:
                return False
            expected *= size
        return True


class UnknownSize(Exception):
    """A size no example input fixes: an unbacked SymInt (what `nonzero`, `.item()` or
    `.tolist()` give) without a hint. The capture says so rather than guess."""

    def __init__(self, size: Any) -> None:
        super().__init__(str(size))
        self.size = size


def _dim(d: Any) -> int:
    """A size as an int; a symbolic one by its hint; `UnknownSize` when it has none."""
    try:
        return int(d)
    except Exception:  # a SymInt with no value: the size a data-dependent op gives
        hint = getattr(getattr(d, "node", None), "hint", None)
        if isinstance(hint, int):
            return int(hint)
        raise UnknownSize(d) from None


def _strides(value: Any) -> tuple[int, ...] | None:
    stride = getattr(value, "stride", None)
    try:
        steps = stride() if callable(stride) else stride
        return tuple(_dim(d) for d in steps) if steps is not None else None
    except Exception:  # strides that depend on the data: taken as contiguous
        return None


def _info(value: Any) -> TensorInfo | tuple[Any, ...] | None:
    """TensorInfo of a tensor (or ShapeProp metadata), a tuple of them for a tuple, else None."""
    if isinstance(value, torch.Tensor) or (hasattr(value, "shape") and isinstance(getattr(value, "dtype", None),
                                                                                  torch.dtype)):
        return TensorInfo(tuple(_dim(d) for d in value.shape), value.dtype, _strides(value))
    if isinstance(value, (tuple, list)):
        return tuple(_info(v) for v in value)
    return None


def node_info(node: fx.Node) -> TensorInfo | tuple[Any, ...] | None:
    """Tensor metadata of a node: ShapeProp's `tensor_meta`, or TorchDynamo's example value."""
    for key in ("tensor_meta", "example_value", "val"):
        if key in node.meta:
            return _info(node.meta[key])
    return None
