"""`sk-outline`: one `sk.kernel` per SuperKernel formed by `sk-form-scopes`, and the slot rewrite.

For group N (the tasks with `sk.group = N`) it creates `sk.kernel @<model>_sk<N>` (or, where
`select=gain` compiles again, the name its first member's `sk.select_name` carries, when no
earlier group took it; a group without one takes the next number above every carried name):
sub-tasks in seq order (a topological order where seq disagrees), each with the members
it directly depends on; type and blocks by the vendor table (or `debug-aic-num` /
`debug-aiv-num`); the argument table (slot 0 the FFTS base, then per sub-task its
params, its notify-lock slots, its wait-lock slots; then the workspace and profiling
slots); in-kernel `sk.notify` / `sk.wait_lock` / `sk.reset_lock` for boundary events,
back blocks and front waits. The analysis decides all of it (a `KernelPlan` per group, the slot
actions `skir.analysis.formation.boundary` plans); `skir.patterns.outline_group.OutlineGroup` builds
each group's `sk.kernel` and rewrites its slots, `skir.patterns.outline_slots.RewriteSlot` the
converted event tasks outside every SuperKernel: every stream keeps its slot count and order.

```mlir
aclgraph.stream @s0 slots 2 {
  aclgraph.launch seq 0 @a blocks 48 args(@x, @y) attributes {sk.group = 0 : i64}
  aclgraph.launch seq 1 @b blocks 8 args(@y, @z) attributes {sk.group = 0 : i64}
}
```
becomes
```mlir
aclgraph.stream @s0 slots 2 {
  aclgraph.launch_sk seq 0 @m_sk0
  aclgraph.disabled seq 1 was launch @b blocks 8 args(@y, @z)
}
sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 5 {
  %0 = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
  %1 = sk.subtask @b blocks 8 offset 3 from @s0 seq 1 on aiv after %0
}
```
"""

from __future__ import annotations

import re
import warnings
from collections import defaultdict
from dataclasses import dataclass
from itertools import pairwise

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr
from xdsl.utils.exceptions import PassFailedException

from skir.analysis.formation.boundary import RewritePlan, SkPlan, plan_rewrite
from skir.analysis.formation.fail_reasons import SELECT_NAME_ATTR
from skir.analysis.formation.scopes import scope_labels, task_options
from skir.analysis.formation.sk_program import program_steps
from skir.analysis.formation.superkernel_shape import Demand, ShapeMismatch, launch_shape
from skir.analysis.graph.happens_before import HappensBefore
from skir.analysis.graph.task_graph import TaskGraph
from skir.analysis.sync.progress_points import wants_progress
from skir.dialects.aclgraph import (
    LaunchOp,
    ModelOp,
    StreamOp,
    TaskOp,
)
from skir.dialects.aclgraph_decls import CellOp, KernelOp
from skir.dialects.aclgraph_enums import class_types, core_class
from skir.dialects.model_lookup import qualified_name, tree_names
from skir.dialects.superkernel import (
    SkForm,
    SuperKernelOp,
)
from skir.errors import SkirError, SkirWarning
from skir.options import SkOptions
from skir.passes.common import (
    FAIL_ATTR,
    GROUP_ATTR,
    OptionsPass,
    kernel_table,
    models,
)
from skir.patterns.outline_group import KernelPlan, LockStep, OutlineGroup, SubtaskStep
from skir.patterns.outline_slots import RewriteSlot, SlotPlan
from skir.xdsl_fast.sweep import rewrite_ops


def superkernel_name(model: ModelOp, index: int) -> str:
    """`<model>_sk<index>`; in a sub-model `<model>_<submodel>_sk<index>`."""
    return f"{qualified_name(model)}_sk{index}"


def superkernel_names(model: ModelOp, graph: TaskGraph, groups: list[tuple[int, list[int]]]) -> list[str]:
    """The name of each group ((index, members in seq order)): `<model>_sk<index>`; or, where the
    model's launches carry `sk.select_name`, the name its first member carrying one has, unless
    an earlier group took it, else `<model>_sk<k>`, k counting on from one above every number
    carried. A carried name of another form is a `PassFailedException` naming the launch."""
    pattern = re.compile(re.escape(qualified_name(model)) + r"_sk(\d{1,9})\Z")
    hints: dict[int, str] = {}
    for n, op in enumerate(graph.ops):
        hint = op.attributes.get(SELECT_NAME_ATTR)
        if hint is None:
            continue
        if not isinstance(hint, StringAttr) or not pattern.match(hint.data):
            raise PassFailedException(f"{SELECT_NAME_ATTR} on @{graph.streams[graph.stream_of[n]].sym_name.data} "
                                      f"seq {graph.seq[n]}: expected \"{qualified_name(model)}_sk<N>\"")
        hints[n] = hint.data
    if not hints:
        return [superkernel_name(model, index) for index, _ in groups]
    fresh = max(int(pattern.match(h).group(1)) for h in hints.values()) + 1  # type: ignore[union-attr]
    taken: set[str] = set()
    names = []
    for _, members in groups:
        name = next((hints[n] for n in members if n in hints), None)
        if name is None or name in taken:
            name, fresh = superkernel_name(model, fresh), fresh + 1
        taken.add(name)
        names.append(name)
    return names


class _Outliner:
    def __init__(self, model: ModelOp, options: SkOptions):
        self.model, self.options = model, options
        self.graph = TaskGraph(model)
        self.hb = HappensBefore(self.graph)
        self.kernels = kernel_table(model)
        self.scopes = scope_labels(self.graph)

    def run(self) -> list[SuperKernelOp]:
        g = self.graph
        groups: dict[int, list[int]] = defaultdict(list)
        for n, op in enumerate(g.ops):
            attr = op.attributes.get(GROUP_ATTR)
            if isinstance(attr, IntegerAttr):
                groups[attr.value.data].append(n)
        if not groups:
            return []
        indices = sorted(groups)
        sks = []
        for index in indices:
            nodes = groups[index]
            members = sorted((n for n in nodes if isinstance(g.ops[n], LaunchOp)), key=g.seq.__getitem__)
            ranges: dict[int, tuple[int, int]] = {}
            for n in nodes:
                s = g.stream_of[n]
                lo, hi = ranges.get(s, (n, n))
                ranges[s] = (min(lo, n), max(hi, n))
            if len(members) < 2:
                raise PassFailedException(f"group {index} has {len(members)} kernel task(s); rerun sk-form-scopes")
            sks.append((members, ranges))
        names = tree_names(self.model)  # a new cell is unique across the model and its sub-models
        sk_names = superkernel_names(self.model, g, [(i, m) for i, (m, _) in zip(indices, sks, strict=True)])
        plan = plan_rewrite(g, self.hb, sks, names, sk_names)
        if plan.failures:
            index, why = next(iter(plan.failures.items()))
            raise PassFailedException(f"{sk_names[index]}: {why}; rerun sk-form-scopes with the same options")
        kernel_plans = [self._kernel_plan(p, sk_names[p.index]) for p in plan.superkernels]
        self._rewrite(plan, sk_names, kernel_plans)
        return [k.built for k in kernel_plans if k.built is not None]

    # ---- the sk.kernel ----------------------------------------------------------------

    def _kernel_plan(self, p: SkPlan, name: str) -> KernelPlan:
        """The group's launch shape, form, argument table and program steps."""
        g = self.graph
        options = task_options(g, self.scopes, self.options, p.members[0])
        launches = {m: g.ops[m] for m in p.members}
        demand = Demand()
        for m in p.members:
            kernel = self._kernel(m)
            demand = demand.add(kernel.type, launches[m].blocks.data,  # type: ignore[attr-defined]
                                exact=kernel.needs_exact_blocks)
        try:
            shape = launch_shape(demand, options, (self.model.aic_cores.data, self.model.aiv_cores.data))
        except SkirError as err:
            raise PassFailedException(f"{name}: {err}") from None
        if isinstance(shape, ShapeMismatch):
            raise PassFailedException(f"{name}: no launch shape ({shape.detail}); rerun sk-form-scopes with the "
                                      "same options")
        order, steps = program_steps(g, self.hb, self._kernel, p)
        chain = all(self.hb.before(a, b) for a, b in pairwise(order))
        slots = self._lock_slots(p, order)
        program: list[SubtaskStep | LockStep] = []
        # deps name steps by their index; a lock wait names sub-tasks that come after it
        sub_id = {step.member: index for index, step in enumerate(steps) if step.kind == "subtask"}
        for step in steps:
            if step.kind == "subtask":
                m = step.member
                kernel = self._kernel(m)
                # a block_dim_scale_up batch kernel runs on every core of its type (docs/design.md §3)
                blocks = shape.cores_of(kernel.type) if kernel.scales_up else launches[m].blocks.data  # type: ignore
                program.append(SubtaskStep(kernel.sym_name.data, blocks, slots[m][0],
                                           g.streams[g.stream_of[m]].sym_name.data, g.seq[m],
                                           tuple(sub_id[d] for d in step.deps), class_types(core_class(kernel.type))))
            else:
                assert step.core is not None
                program.append(LockStep(step.kind, step.cell, slots[step.cell][1], step.core,
                                        tuple(sub_id[d] for d in step.deps)))
        offset = slots["__end__"][0]
        offset += int(wants_progress(options)) + options.feed_sync_all + 2 * options.profiling
        launch = next(n for n, (action, _, _) in p.slots.items() if action == "launch")
        group_slots = [g.ops[launch], *(g.ops[n] for n in p.slots if n != launch)]
        return KernelPlan(name, shape.kernel_type, shape.blocks, SkForm.CHAIN if chain else SkForm.QUEUE, offset,
                          options, program, tuple(self.scopes.label[p.members[0]] or ()), group_slots)

    def _kernel(self, m: int) -> KernelOp:
        op = self.graph.ops[m]
        assert isinstance(op, LaunchOp)
        return self.kernels[op.kernel.root_reference.data]

    def _lock_slots(self, p: SkPlan, order: list[int]) -> dict:  # type: ignore[type-arg]
        """Member -> (first param slot,) and cell -> (owner, lock slot); "__end__" -> (first free slot,)."""
        owner_out: dict[int, list[str]] = defaultdict(list)
        owner_in: dict[int, list[str]] = defaultdict(list)
        seen: set[str] = set()
        for lk in p.locks:
            if lk.cell in seen:
                continue
            seen.add(lk.cell)
            if lk.kind == "notify":
                owner_out[lk.after if lk.after is not None else order[0]].append(lk.cell)
            elif lk.kind == "wait":
                owner_in[lk.before if lk.before is not None else order[-1]].append(lk.cell)
            else:
                owner_in[lk.owner if lk.owner is not None else order[-1]].append(lk.cell)
        slots: dict = {}  # type: ignore[type-arg]
        slot = 1
        for m in order:
            slots[m] = (slot,)
            slot += self._kernel(m).num_params
            for cell in owner_out[m] + owner_in[m]:
                slots[cell] = (m, slot)
                slot += 1
        slots["__end__"] = (slot,)
        return slots

    # ---- the slots --------------------------------------------------------------------

    def _rewrite(self, plan: RewritePlan, sk_names: list[str], kernel_plans: list[KernelPlan]) -> None:
        """Each group's sk.kernel and slots by `OutlineGroup`, in group order, then the converted
        tasks outside every SuperKernel by `RewriteSlot`."""
        g = self.graph
        actions: dict[TaskOp, tuple[str, str | None, int, str | None]] = {}
        for p in plan.superkernels:
            for n, (action, cell, value) in p.slots.items():
                actions[g.ops[n]] = (action, cell, value, sk_names[p.index])
        outside: dict[TaskOp, tuple[str, str | None, int, str | None]] = {
            g.ops[n]: (action, cell, value, None) for n, (action, cell, value) in plan.outside.items()}
        slots = SlotPlan(actions)
        launches = [k.slots[0] for k in kernel_plans]
        rest = [op for stream in g.streams for op in stream.body.block.ops if op in outside]
        rewrite_ops(launches, [OutlineGroup(dict(zip(launches, kernel_plans)), slots)])
        rewrite_ops(rest, [RewriteSlot(SlotPlan(outside))])
        for p in plan.superkernels:  # a slot a range keeps (a group prefix, a cascade's join) is no member
            for lo, hi in p.ranges.values():
                for n in range(lo, hi + 1):
                    if n not in p.slots:
                        g.ops[n].attributes.pop(GROUP_ATTR, None)
        if plan.cells:
            first_stream = next(op for op in self.model.body.block.ops if isinstance(op, StreamOp))
            for cell in plan.cells:
                self.model.body.block.insert_op_before(CellOp(cell), first_stream)


def outline_model(model: ModelOp, options: SkOptions) -> list[SuperKernelOp]:
    """Outline every group of `model`; returns the new `sk.kernel` ops in group order."""
    return _Outliner(model, options).run()


def _undecided(module: ModuleOp) -> bool:
    """Whether the module has kernel tasks and formation decided none of them (no `sk.group`,
    no `sk.fail`, no `sk.kernel` yet): `sk-outline` run without `sk-form-scopes`."""
    launches = [op for model in models(module) for stream in model.body.block.ops if isinstance(stream, StreamOp)
                for op in stream.body.block.ops if isinstance(op, LaunchOp)]
    return bool(launches) and not any(GROUP_ATTR in op.attributes or FAIL_ATTR in op.attributes for op in launches)


@dataclass(frozen=True)
class OutlinePass(OptionsPass):
    """Create one `sk.kernel` per formed SuperKernel and rewrite the member slots."""

    name = "sk-outline"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        options = self.sk_options()
        if _undecided(op):  # sk-form-scopes never ran: said, not a silent no-op
            warnings.warn("sk-outline: no kernel task carries sk.group or sk.fail, so sk-form-scopes has not "
                          "run on this module and nothing was formed to outline; run "
                          "'-p sk-form-scopes,sk-outline'", SkirWarning, stacklevel=2)
        for model in models(op):
            outline_model(model, options)

