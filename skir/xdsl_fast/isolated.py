"""`OperandFreeIsolated`: xDSL's `IsolatedFromAbove` with a linear check for regions whose ops
take no operands.

```python
traits = traits_def(OperandFreeIsolated(), ...)   # as IsolatedFromAbove()
```
skir's ops name what they use by symbol, never by SSA value, so a model is isolated from
above by construction. xDSL's check asks every nested op for its traits and walks with nested
generators (0.07 s over the 140k ops of a lowered 10k-event model, for every verification);
this one reads each nested op's operand tuple (0.015 s there) and hands the op to xDSL's own
check (same messages) as soon as one nested op has an operand.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Operation
from xdsl.traits import IsolatedFromAbove

from skir.xdsl_fast.walk import nested_ops


@dataclass(frozen=True)
class OperandFreeIsolated(IsolatedFromAbove):
    """`IsolatedFromAbove`, checked in one cheap sweep while no nested op has an operand."""

    def verify(self, op: Operation) -> None:
        if any(child._operands for child in nested_ops(op)):  # pyright: ignore[reportPrivateUsage]
            super().verify(op)
