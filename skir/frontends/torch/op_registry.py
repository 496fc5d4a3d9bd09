"""User-registered ops: how a custom (or NPU) op becomes a kernel task.

```python
from skir.frontends.torch import register_op

register_op("mylib::fused_gate", kernel_type="aiv_only")                 # blocks and cost estimated
register_op(torch.ops.mylib.attn, kernel_type="mix_aic_1_2", blocks=24, cost=12.5)
register_op("my_norm", kernel_type="aiv_only", cost=lambda inputs, outputs: 2.0)
```

An op is named by its plain name (`fused_gate`), a `namespace::name` string or the op itself
(`torch.ops.mylib.attn` or one of its overloads). `kernel_type` is one of the dav-c220 kernel
types; `blocks` an int (or a function of the input and output `TensorInfo` lists), default the
front end's estimate for the kernel type; `cost` the task's duration in µs (or such a function),
default the roofline estimate. A registration overrides the built-in op table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from skir.dialects.aclgraph_enums import KernelType
from skir.errors import SkirError

_KERNEL_TYPES = tuple(k.value for k in KernelType)


@dataclass(frozen=True)
class RegisteredOp:
    name: str
    kernel_type: str
    blocks: int | Callable[[list[Any], list[Any]], int] | None = None
    cost: float | Callable[[list[Any], list[Any]], float] | None = None

    @property
    def cube(self) -> bool:
        return self.kernel_type != "aiv_only" and self.kernel_type != "mix_aiv_1_0"


_REGISTRY: dict[str, RegisteredOp] = {}


def _plain_name(name_or_op: Any) -> str:
    packet = getattr(name_or_op, "overloadpacket", None)
    if packet is not None:
        name_or_op = packet
    if not isinstance(name_or_op, str):
        qualified = getattr(name_or_op, "_qualified_op_name", None) or getattr(name_or_op, "__name__", None)
        if not isinstance(qualified, str):
            raise SkirError(f"register_op: expected an op name or a torch op, got {type(name_or_op).__name__}")
        name_or_op = qualified
    return name_or_op.split("::")[-1].split(".")[-1]


def register_op(name_or_op: Any, *, kernel_type: str, blocks: int | Callable[..., int] | None = None,
                cost: float | Callable[..., float] | None = None) -> RegisteredOp:
    """Map an op to a kernel task (see the module docstring); returns the registration."""
    if kernel_type not in _KERNEL_TYPES:
        raise SkirError(f"register_op: kernel_type {kernel_type!r} is not one of {', '.join(_KERNEL_TYPES)}")
    if blocks is not None and not callable(blocks) and (type(blocks) is not int or blocks < 1):
        raise SkirError(f"register_op: blocks must be a positive int or a function, got {blocks!r}")
    if cost is not None and not callable(cost) and (type(cost) not in (int, float) or not cost >= 0):
        raise SkirError(f"register_op: cost must be a non-negative number of µs or a function, got {cost!r}")
    name = _plain_name(name_or_op)
    if not name:
        raise SkirError("register_op: the op name must not be empty")
    entry = RegisteredOp(name, kernel_type, blocks, cost)
    _REGISTRY[name] = entry
    return entry


def registered(name: str) -> RegisteredOp | None:
    """The registration of op `name` (its plain name), if any."""
    return _REGISTRY.get(name)


def unregister_op(name_or_op: Any) -> None:
    _REGISTRY.pop(_plain_name(name_or_op), None)
