"""`sk-lower-sync`: replace every `sk.depend_<rule>` op by the sync ops of its rule.

`sk-place-sync` decides and places the depends; this pass applies
`skir.patterns.sync_lowering`, one pattern per rule selected by op type, to every depend of
every SuperKernel — as an xDSL conversion pass does, on whatever placed them: hand-written IR
is lowered the same way. `patterns=` names a subset (the depends of the others stay, to show one
rule's work in a test; later passes reject them).

```mlir
%0 = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
sk.depend_barrier aiv -> aiv on aiv
%1 = sk.subtask @b blocks 8 offset 3 from @s0 seq 1 on aiv after %0
```
becomes
```mlir
%0 = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
sk.barrier all_aiv
%1 = sk.subtask @b blocks 8 offset 3 from @s0 seq 1 on aiv after %0
```
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import RewritePattern

from skir.dialects.superkernel import DependOp, SuperKernelOp
from skir.passes.common import models, pattern_names
from skir.patterns.sync_lowering import SYNC_PATTERN_KINDS, sync_lowering_patterns
from skir.xdsl_fast.sweep import rewrite_ops

PATTERN_NAMES = tuple(kind.__name__ for kind in SYNC_PATTERN_KINDS)


def apply_sync_patterns(sk: SuperKernelOp, patterns: list[RewritePattern]) -> list[Operation]:
    """Replace the depends of one SuperKernel by `patterns` (one sweep of its program); the
    depends none of them applied to."""
    depends: list[Operation] = [op for op in sk.body.block.ops if isinstance(op, DependOp)]
    return rewrite_ops(depends, patterns) if patterns and depends else depends


@dataclass(frozen=True)
class LowerSyncPass(ModulePass):
    """Replace every `sk.depend_<rule>` op by the sync ops of its rule."""

    name = "sk-lower-sync"
    PATTERN_NAMES: ClassVar[tuple[str, ...]] = PATTERN_NAMES

    patterns: str = "all"
    """The sync patterns to apply, by class name, comma-separated (`LowerClassBarrier,...`), or
    `none`. The depends of the patterns left out stay; later passes reject them."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        only = pattern_names(self.patterns, self.PATTERN_NAMES, self.name)
        patterns = [p for p in sync_lowering_patterns() if only is None or type(p).__name__ in only]
        for model in models(op):
            for sk in list(model.body.block.ops):
                if isinstance(sk, SuperKernelOp):
                    apply_sync_patterns(sk, patterns)
