"""`HasParentNamed`: a parent-op trait that needs no import of the parent's class.

```python
traits = traits_def(HasParentNamed(("aclgraph.model",)))   # as HasParent(ModelOp)
```
The ops of one dialect live in several modules (one concept each); the module that defines a
container op imports the modules of the ops it holds, so those cannot import it back. Messages
are xDSL's own: `'aclgraph.kernel' expects parent op 'aclgraph.model'`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Operation
from xdsl.traits import OpTrait
from xdsl.utils.exceptions import VerifyException


@dataclass(frozen=True)
class HasParentNamed(OpTrait):
    """xDSL's `HasParent`, naming the parent ops instead of importing their classes, so that a
    module of ops can require a parent defined in a module that imports it (same messages)."""

    names: tuple[str, ...]

    def verify(self, op: Operation) -> None:
        parent = op.parent_op()
        if parent is None or parent.name in self.names:  # a detached op is not checked
            return
        if len(self.names) == 1:
            raise VerifyException(f"'{op.name}' expects parent op '{self.names[0]}'")
        raise VerifyException(f"'{op.name}' expects parent op to be one of {', '.join(repr(n) for n in self.names)}")
