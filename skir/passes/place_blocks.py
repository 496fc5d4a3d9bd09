"""`sk-place-blocks`: run hb-unordered sub-tasks side by side on disjoint core ranges.

With `placement=auto` (skir's key; default `off`, the vendor's behaviour: every sub-task on
cores `[0, n)`), for each queue SuperKernel `skir.analysis.placement.plan_placement` finds the
runs of sub-tasks nothing separates in their core types' programs, pairwise unordered, whose
kernels take `sk::SkSystemArgs`, and places them on disjoint ranges where its cost model
(the simulator's durations and `placement_us`) predicts the busiest core gains;
`skir.patterns.placement.PlaceSubtask` records each range as the sub-task's `at`. It runs
after `sk-prune-sync` and changes no synchronisation (docs/design.md §3 "Placement").

```mlir
sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 queue slots 7 {
  sk.subtask id 0 @rope_q blocks 40 offset 1 from @s0 seq 3 on aiv
  sk.subtask id 1 @rope_k blocks 8 offset 4 from @s1 seq 4 on aiv
  sk.barrier id 2 all_aiv
  sk.subtask id 3 @attn blocks 48 offset 5 from @s0 seq 6 on aiv after [0, 1]
}
```
becomes (rope_k on AIVs 40-47, beside rope_q on 0-39)
```mlir
  sk.subtask id 1 @rope_k blocks 8 at 40 offset 4 from @s1 seq 4 on aiv
```
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from skir.analysis.placement import plan_placement
from skir.dialects.superkernel import SubtaskOp
from skir.passes.common import OptionsPass, reject_depends, superkernels
from skir.patterns.placement import PlaceSubtask
from skir.xdsl_fast.sweep import rewrite_ops


@dataclass(frozen=True)
class PlaceBlocksPass(OptionsPass):
    """Place hb-unordered sub-tasks on disjoint core ranges where the cost model predicts a gain (placement=auto)."""

    name = "sk-place-blocks"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        durations: dict[tuple[str, int], float] | None = None
        for sk, kernels, options in superkernels(op, self.sk_options()):
            if options.placement != "auto":
                continue
            from skir.sim.costs import default_costs  # the simulator loads only when something may be placed
            from skir.sim.engine import durations_of

            costs = default_costs()
            reject_depends(sk, self.name)
            if durations is None:
                durations = durations_of(op)
            known = durations

            def duration(sub: SubtaskOp) -> float:
                key = (sub.stream.root_reference.data, sub.seq.data)
                return known.get(key, costs.default_duration_us)

            first = {ident: f for group in plan_placement(sk, kernels, duration, costs.placement_us)
                     for ident, f in zip(group.ids, group.first)}
            if first:
                rewrite_ops([s for s in sk.subtasks() if s.ident in first], [PlaceSubtask(first)])
