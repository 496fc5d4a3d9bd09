"""`sk-place-blocks`: run hb-unordered sub-tasks side by side on disjoint core ranges.

With `placement=auto` (skir's key; default `off`, the vendor's behaviour: every sub-task on
cores `[0, n)`), for each queue SuperKernel `skir.analysis.placement.placement.plan_placement` finds the
runs of sub-tasks nothing separates in their core types' programs, pairwise unordered, whose
kernels take `sk::SkSystemArgs`, and places them on disjoint ranges where its cost model
(the simulator's durations and `placement_us`) predicts the busiest core gains;
`skir.patterns.placement.PlaceSubtask` records each range as the sub-task's `at`. It is the
last pass of the synchronisation pipeline, after `sk-prune-sync`: groups change no
synchronisation, lanes replace their regions' barriers by rounds, which pruning does not model
(`sk-prune-sync` refuses a program holding them; docs/design.md §3 "Placement"). The lanes'
cost model charges each all-core barrier at its core type's cost (`CoreFacts.barrier_cost`).

Before the groups, `skir.analysis.placement.lanes.plan_lanes` finds the regions whose independent chains
run as lanes on disjoint cores (docs/design.md §3 "Lanes"): the program is rebuilt
(`ReplaceProgram`) with each lane's sub-tasks at its first core, each barrier of the region
replaced by a round per lane (a mode-0 set and wait guarded to the lane's cores), the other
cores' early arrivals before the region and their drains after it:

```mlir
%q1 = sk.subtask @q blocks 8 offset 2 from @s0 seq 1 on aiv after %ln
%k1 = sk.subtask @k blocks 16 offset 4 from @s1 seq 3 on aiv after %ln
sk.barrier all_aiv
%q2 = sk.subtask @q blocks 8 offset 3 from @s0 seq 2 on aiv after %q1
%k2 = sk.subtask @k blocks 16 offset 5 from @s1 seq 4 on aiv after %k1
```
becomes (q on AIVs 0-7 with flag 15, k on 8-23 with flag 10)
```mlir
sk.set_flag mode 0 flag 15 pipe mte3 on aiv blocks 40 at 8
sk.set_flag mode 0 flag 10 pipe mte3 on aiv blocks 8 at 0
sk.set_flag mode 0 flag 10 pipe mte3 on aiv blocks 24 at 24
%q1 = sk.subtask @q blocks 8 offset 2 from @s0 seq 1 on aiv after %ln
%k1 = sk.subtask @k blocks 16 at 8 offset 4 from @s1 seq 3 on aiv after %ln
sk.set_flag mode 0 flag 15 pipe mte3 on aiv blocks 8 at 0
sk.wait_flag flag 15 on aiv blocks 8 at 0
sk.set_flag mode 0 flag 10 pipe mte3 on aiv blocks 16 at 8
sk.wait_flag flag 10 on aiv blocks 16 at 8
%q2 = sk.subtask @q blocks 8 offset 3 from @s0 seq 2 on aiv after %q1
%k2 = sk.subtask @k blocks 16 at 8 offset 5 from @s1 seq 4 on aiv after %k1
sk.wait_flag flag 15 on aiv blocks 40 at 8
sk.wait_flag flag 10 on aiv blocks 8 at 0
sk.wait_flag flag 10 on aiv blocks 24 at 24
sk.barrier all_aiv
```

```mlir
sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 queue slots 7 {
  %0 = sk.subtask @rope_q blocks 40 offset 1 from @s0 seq 3 on aiv
  %1 = sk.subtask @rope_k blocks 8 offset 4 from @s1 seq 4 on aiv
  sk.barrier all_aiv
  %2 = sk.subtask @attn blocks 48 offset 5 from @s0 seq 6 on aiv after %0, %1
}
```
becomes (rope_k on AIVs 40-47, beside rope_q on 0-39)
```mlir
  %1 = sk.subtask @rope_k blocks 8 at 40 offset 4 from @s1 seq 4 on aiv
```
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation

from skir.analysis.placement.lanes import LaneCosts, Region, lane_ops, plan_lanes
from skir.analysis.placement.placement import plan_placement
from skir.dialects.hardware import CORE_FACTS, CoreType
from skir.dialects.superkernel import SkProgramOp, SubtaskOp, SuperKernelOp
from skir.dialects.syntax import int_attr
from skir.passes.common import OptionsPass, reject_depends, superkernels
from skir.passes.program_edit import rebuild
from skir.patterns.placement import PlaceSubtask
from skir.xdsl_fast.sweep import rewrite_ops


def form_lanes(sk: SuperKernelOp, regions: list[Region]) -> tuple[SuperKernelOp, set[tuple[str, int]]]:
    """Rebuild `sk`'s program with its regions split into lanes (`skir.analysis.placement.lanes`): each
    lane's sub-tasks at its first core, the early arrivals before each region, the rounds in
    place of its barriers, the drains after it. Returns the new kernel and the (stream, seq) of
    every sub-task in a lane."""
    arrive_at: dict[SkProgramOp, list[SkProgramOp]] = {}
    drain_at: dict[SkProgramOp, list[SkProgramOp]] = {}
    rounds: dict[SkProgramOp, list[SkProgramOp]] = {}
    first: dict[SubtaskOp, int] = {}
    for region in regions:
        arrive, replaced, drain = lane_ops(region)
        arrive_at[region.start], drain_at[region.end] = arrive, drain
        rounds.update(replaced)
        first.update(region.placed)
    out: list[SkProgramOp] = []
    updates: dict[Operation, dict[str, Attribute]] = {}
    lanes: set[tuple[str, int]] = set()
    members = {sub for region in regions for lane in region.lanes for sub in lane.subtasks}
    for op in sk.program():
        out += arrive_at.get(op, [])
        if op in rounds:
            out += rounds[op]
            continue
        out.append(op)
        if isinstance(op, SubtaskOp) and op in members:
            lanes.add((op.stream.root_reference.data, op.seq.data))
            if op in first:
                updates[op] = {"first": int_attr(first[op])}
        out += drain_at.get(op, [])
    return rebuild(sk, list(out), updates=updates), lanes


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

            barrier_us = {core: float(getattr(costs, CORE_FACTS[core].barrier_cost)) for core in CoreType}
            lane_costs = LaneCosts(costs.placement_us, barrier_us, costs.flag_set_us, costs.flag_wait_us)
            regions = plan_lanes(sk, kernels, duration, lane_costs)
            in_lanes: set[tuple[str, int]] = set()
            if regions:
                sk, in_lanes = form_lanes(sk, regions)
            first = {sub: f for group in plan_placement(sk, kernels, duration, costs.placement_us, in_lanes)
                     for sub, f in zip(group.subtasks, group.first)}
            if first:
                rewrite_ops([s for s in sk.subtasks() if s in first], [PlaceSubtask(first)])
