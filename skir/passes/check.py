"""`sk-check`: a pass that changes nothing and fails unless the module is proved correct.

It runs `skir.analysis.proof.sk_check` on every model: no core or stream can block for ever, every
original happens-before edge still holds, no cross-core credit is left over or piles up
beyond 15, every cell skir added is 0 at the end, and every stream keeps its slots. A
violation fails the pass (exit 3), one line each.

```
sk-opt model.mlir -p 'superkernel-pipeline,sk-check{stats=true}'
```
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from skir.analysis.proof.sk_check import check_module
from skir.errors import CheckFailedError


@dataclass(frozen=True)
class CheckPass(ModulePass):
    """Prove the rewritten module keeps every order and cannot deadlock (changes nothing)."""

    name = "sk-check"

    stats: bool = False
    """Print what was proved (SuperKernels, sub-tasks, syncs per sub-task, edges) on stderr."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        report = check_module(op)
        if self.stats:
            per = report.syncs / report.subtasks if report.subtasks else 0.0
            print(
                f"sk-check: {report.superkernels} SuperKernels, {report.subtasks} sub-tasks, {report.syncs} syncs "
                f"({per:.2f} per sub-task), {report.edges} edges checked",
                file=sys.stderr,
            )
        if not report.ok:
            count = len(report.violations)
            raise CheckFailedError(
                f"sk-check found {count} violation{'s' if count != 1 else ''}: {report.violations[0]}",
                report.violations,
            )
