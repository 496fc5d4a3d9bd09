"""`OperandFreeIsolated`: xDSL's `IsolatedFromAbove` with a linear check for regions whose
operands are results of ops nested in them.

```python
traits = traits_def(OperandFreeIsolated(), ...)   # as IsolatedFromAbove()
```
skir's ops name what they use by symbol; the only SSA values are the `!sk.token`s of a
SuperKernel's program, each used after its definition in the same block. So a model is
isolated from above by construction. xDSL's check asks every nested op for its traits and walks
with nested generators (0.07 s over the 140k ops of a lowered 10k-event model, for every
verification); this one walks once, remembering the nested ops that have results, and hands the
op to xDSL's own check (same messages) as soon as an operand is anything but the result of an
op met before it in the walk.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Operation, OpResult
from xdsl.traits import IsolatedFromAbove

from skir.xdsl_fast.walk import nested_ops


@dataclass(frozen=True)
class OperandFreeIsolated(IsolatedFromAbove):
    """`IsolatedFromAbove`, checked in one cheap sweep while every operand is defined earlier inside."""

    def verify(self, op: Operation) -> None:
        defined: set[Operation] = set()
        for child in nested_ops(op):
            for value in child._operands:  # pyright: ignore[reportPrivateUsage]
                if type(value) is not OpResult or value.owner not in defined:
                    super().verify(op)
                    return
            if child.results:
                defined.add(child)
