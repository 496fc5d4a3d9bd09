"""`clone_tree`: `Operation.clone()` for IR without SSA values, in a fraction of the time.

```python
original = clone_tree(module)   # as module.clone()
```
skir's IR names everything by symbol: no op has operands, results or successors and no block
has arguments, so a copy needs none of the value and block maps xDSL's `clone` keeps (about
19 us an op; this one costs one `create` an op). Properties, attributes (both immutable, so
shared) and locations are kept. Any op or block with SSA values makes it fall back to
xDSL's `clone` for the whole tree.
"""

from __future__ import annotations

from typing import TypeVar

from xdsl.ir import Block, Operation, Region

from skir.xdsl_fast.build import new_op

_Op = TypeVar("_Op", bound=Operation)


class _HasValues(Exception):
    pass


def clone_tree(op: _Op) -> _Op:
    """A deep copy of `op` and everything nested in it."""
    try:
        return _copy(op)
    except _HasValues:
        return op.clone()


def _copy(op: _Op) -> _Op:
    if op._operands or op.results or op._successors:  # pyright: ignore[reportPrivateUsage]
        raise _HasValues
    regions = []
    for region in op.regions:
        copy = Region()
        for block in region.blocks:
            if block._args:  # pyright: ignore[reportPrivateUsage]
                raise _HasValues
            copy.add_block(Block([_copy(child) for child in block.ops]))
        regions.append(copy)
    return new_op(type(op), op.properties, regions, op.attributes, op.location)
