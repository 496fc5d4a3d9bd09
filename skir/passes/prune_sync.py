"""`sk-prune-sync`: drop every synchronisation the others already imply.

Runs after `sk-lower-sync` on every SuperKernel (`skir.analysis.sync.sync_prune` has the rules and
decides; `skir.patterns.sync_pruning.EraseImpliedSync` erases):
a queue SuperKernel keeps the least set of flag pairs that dominates every cross-core
dependency and the least set of barriers that separates every same-type one; a chain
SuperKernel loses the barriers a later, at least as wide barrier of the same gap repeats.
With `stats=true` it prints the syncs per sub-task before and after on stderr.

```mlir
%0 = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
sk.barrier all_aiv
sk.notify @c slot 3 on aiv
sk.barrier all_aiv
%1 = sk.subtask @b blocks 8 offset 4 from @s0 seq 1 on aiv after %0
```
becomes
```mlir
%0 = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
sk.barrier all_aiv
sk.notify @c slot 3 on aiv
%1 = sk.subtask @b blocks 8 offset 4 from @s0 seq 1 on aiv after %0
```
(the barrier after the notify repeats the one before it: nothing ran in between).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import PassFailedException

from skir.analysis.sync.sync_prune import PruneResult, UnsyncedQueue, count_syncs, implied_syncs
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.superkernel import SetFlagOp, SuperKernelOp, WaitFlagOp
from skir.passes.common import OptionsPass, kernel_table, models, reject_depends
from skir.patterns.sync_pruning import EraseImpliedSync
from skir.xdsl_fast.sweep import rewrite_ops


def erase_implied(sk: SuperKernelOp, kernels: dict[str, KernelOp]) -> None:
    """Erase the syncs of `sk` the others imply (`EraseImpliedSync`). A program holding lane
    rounds is refused: the rules model all-core barriers and mode-2 pairs, not flag ops guarded
    to a range of cores (docs/design.md §3 "Lanes")."""
    if any(type(op) in (SetFlagOp, WaitFlagOp) and op.guard() is not None
           for op in sk.body.block.ops):
        raise PassFailedException(
            f"sk.kernel @{sk.sym_name.data}: holds lane rounds (flag ops guarded to a core range, from "
            "sk-place-blocks); sk-prune-sync runs before sk-place-blocks")
    try:
        implied = implied_syncs(sk, kernels)
    except UnsyncedQueue as err:
        raise PassFailedException(f"sk.kernel @{sk.sym_name.data}: {err}; run sk-place-sync and sk-lower-sync "
                                  "first") from None
    if implied:
        ops = [op for op in sk.body.block.ops if op in implied]
        rewrite_ops(ops, [EraseImpliedSync(implied)])


def prune_superkernel(sk: SuperKernelOp, kernels: dict[str, KernelOp]) -> PruneResult:
    """`erase_implied`, counting the syncs before and after."""
    before, subtasks = count_syncs(sk)
    erase_implied(sk, kernels)
    return PruneResult(before, count_syncs(sk)[0], subtasks)


def prune_module(op: ModuleOp, counted: bool = True) -> list[PruneResult]:
    """Prune every SuperKernel of the module; one result per SuperKernel (none unless `counted`)."""
    results = []
    for model in models(op):
        kernels = kernel_table(model)
        for sk in model.body.block.ops:
            if isinstance(sk, SuperKernelOp):
                reject_depends(sk, "sk-prune-sync")
                if counted:
                    results.append(prune_superkernel(sk, kernels))
                else:
                    erase_implied(sk, kernels)
    return results


@dataclass(frozen=True)
class PruneSyncPass(OptionsPass):
    """Erase the barriers and flag pairs that the remaining synchronisation implies."""

    name = "sk-prune-sync"

    stats: bool = False
    """Print the syncs per sub-task before and after pruning on stderr."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        results = prune_module(op, counted=self.stats)
        if self.stats:
            subtasks = sum(r.subtasks for r in results) or 1
            before, after = sum(r.before for r in results), sum(r.after for r in results)
            print(
                f"sk-prune-sync: {len(results)} SuperKernels, {before / subtasks:.2f} -> {after / subtasks:.2f} "
                f"syncs per sub-task ({before} -> {after})",
                file=sys.stderr,
            )
