"""User-registered ops: how a custom (or NPU) op becomes a kernel task.

```python
from skir.frontends.torch import register_op

register_op("mylib::fused_gate", kernel_type="aiv_only")                 # blocks and cost estimated
register_op(torch.ops.mylib.attn, kernel_type="mix_aic_1_2", blocks=24, cost=12.5)
register_op("my_norm", kernel_type="aiv_only", cost=lambda inputs, outputs: 2.0)
```

An op is named by a `namespace::name` string or the op itself (`torch.ops.mylib.attn`, one of
its overloads, or a `torch.library.custom_op` function): the registration is that op's alone
(registering `mylib::softmax` leaves `torch.softmax` as it is). A plain name (`fused_gate`)
registers every op of that name that has no registration of its own, whatever its namespace.
`kernel_type` is one of the dav-c220 kernel types; `blocks` an int (or a function of the input
and output `TensorInfo` lists), default the front end's estimate for the kernel type; `cost`
the task's duration in µs (or such a function), default the roofline estimate. A registration
overrides the built-in op table. The tensors an op writes come from its schema (`Tensor(a!)`,
`custom_op(..., mutates_args=...)`): their params are `inout`, and an op may return nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from skir.dialects.aclgraph_enums import CoreClass, KernelType, core_class
from skir.errors import SkirError
from skir.frontends.torch.op_table import qualified_name

_KERNEL_TYPES = tuple(k.value for k in KernelType)


@dataclass(frozen=True)
class RegisteredOp:
    name: str
    kernel_type: str
    blocks: int | Callable[[list[Any], list[Any]], int] | None = None
    cost: float | Callable[[list[Any], list[Any]], float] | None = None

    @property
    def cube(self) -> bool:
        return core_class(KernelType(self.kernel_type)) is not CoreClass.AIV


_REGISTRY: dict[str, RegisteredOp] = {}


def _key(name_or_op: Any) -> str:
    """`ns::name` of an op or a qualified string (its overload dropped), or a plain name."""
    key: str
    if isinstance(name_or_op, str):
        key = name_or_op
    else:
        qualified = qualified_name(name_or_op)
        if qualified is None:
            raise SkirError(f"register_op: expected an op name or a torch op, got {type(name_or_op).__name__}")
        key = qualified
    if "::" in key:
        namespace, _, name = key.partition("::")
        return f"{namespace}::{name.split('.')[0]}" if namespace and name.split(".")[0] else ""
    return key


def register_op(name_or_op: Any, *, kernel_type: str, blocks: int | Callable[..., int] | None = None,
                cost: float | Callable[..., float] | None = None) -> RegisteredOp:
    """Map an op to a kernel task (see the module docstring); returns the registration."""
    if kernel_type not in _KERNEL_TYPES:
        raise SkirError(f"register_op: kernel_type {kernel_type!r} is not one of {', '.join(_KERNEL_TYPES)}")
    if blocks is not None and not callable(blocks) and (type(blocks) is not int or blocks < 1):
        raise SkirError(f"register_op: blocks must be a positive int or a function, got {blocks!r}")
    if cost is not None and not callable(cost) and (type(cost) not in (int, float) or not cost >= 0):
        raise SkirError(f"register_op: cost must be a non-negative number of µs or a function, got {cost!r}")
    key = _key(name_or_op)
    if not key:
        raise SkirError("register_op: the op name must not be empty")
    entry = RegisteredOp(key, kernel_type, blocks, cost)
    _REGISTRY[key] = entry
    return entry


def registered(qualified: str | None, name: str) -> RegisteredOp | None:
    """The registration of the op `qualified` (`ns::name`), else of its plain `name`, if any."""
    return (_REGISTRY.get(qualified) if qualified is not None else None) or _REGISTRY.get(name)


def unregister_op(name_or_op: Any) -> None:
    _REGISTRY.pop(_key(name_or_op), None)
