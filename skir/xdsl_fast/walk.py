"""`nested_ops`: the ops nested in an op, in the order `op.walk()` gives, at a fraction of its
cost.

```python
for child in nested_ops(source):   # as: for child in source.walk(): if child is not source
    ...
```
xDSL's `walk` stacks three generators a level (op, region, block), about 4 us an op on a
lowered model; this is one generator with a stack of block iterators.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain

from xdsl.ir import Operation


def nested_ops(op: Operation) -> Iterator[Operation]:
    """Every op nested in `op` (not `op` itself), in pre-order."""
    stack = [_ops_of(op)]
    while stack:
        for child in stack[-1]:
            yield child
            if child.regions:
                stack.append(_ops_of(child))
                break
        else:
            stack.pop()


def _ops_of(op: Operation) -> Iterator[Operation]:
    return chain.from_iterable(block.ops for region in op.regions for block in region.blocks)
