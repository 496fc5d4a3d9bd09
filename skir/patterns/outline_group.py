"""`OutlineGroup`: one SuperKernel group of `sk-outline` as a RewritePattern.

`sk-outline`'s analysis decides each group's SuperKernel (`KernelPlan`: its name, launch shape,
form, argument table and program steps — sub-tasks with their param offsets and direct deps,
in-kernel lock accesses with their slots) and the rewrite of every slot (`SlotPlan`). The
pattern matches the slot that launches the group: it builds the `sk.kernel` at the end of the
model and rewrites the group's slots (`launch_sk`, `disabled`, value writes and waits) with
`rewrite_slot`:

```mlir
aclgraph.stream @s0 slots 3 {
  aclgraph.launch seq 0 @v blocks 8 attributes {sk.group = 0 : i64}
  aclgraph.record seq 1 @e attributes {sk.group = 0 : i64}
  aclgraph.launch seq 2 @v blocks 4 attributes {sk.group = 0 : i64}
}
```
with the plan {@m_sk0: mix_aiv_1_0 blocks 8 chain slots 4, steps [sub-task @v offset 1, notify
@e_cell slot 2 on aiv, sub-task @v offset 3 after step 0]; slots: seq 0 launch, seqs 1 and 2
disable} becomes
```mlir
aclgraph.stream @s0 slots 3 {
  aclgraph.launch_sk seq 0 @m_sk0 was launch @v blocks 8
  aclgraph.disabled seq 1 was record @e
  aclgraph.disabled seq 2 was launch @v blocks 4
}
sk.kernel @m_sk0 mix_aiv_1_0 blocks 8 chain slots 4 {
  %0 = sk.subtask @v blocks 8 offset 1 from @s0 seq 0 on aiv
  sk.notify @e_cell slot 2 on aiv
  %1 = sk.subtask @v blocks 4 offset 3 from @s0 seq 2 on aiv after %0
}
```
(the in-kernel notify stands for the disabled record: the SuperKernel writes `@e_cell` itself).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from xdsl.dialects.builtin import ArrayAttr, StringAttr
from xdsl.ir import Block, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from skir.dialects.aclgraph import ModelOp, TaskOp
from skir.dialects.aclgraph_enums import KernelType, types_class
from skir.dialects.formation_attrs import LABEL_ATTR
from skir.dialects.superkernel import (
    CoreType,
    LockOp,
    NotifyOp,
    ResetLockOp,
    SkForm,
    SubtaskOp,
    SuperKernelOp,
    WaitLockOp,
)
from skir.options import SkOptions
from skir.patterns.outline_slots import SlotPlan, rewrite_slot


@dataclass(frozen=True)
class SubtaskStep:
    """A sub-task of the program: its kernel, blocks, first param slot, source task and deps
    (indexes of earlier steps), on the core types of its kernel's class."""

    kernel: str
    blocks: int
    offset: int
    stream: str
    seq: int
    deps: tuple[int, ...]
    cores: tuple[CoreType, ...]


@dataclass(frozen=True)
class LockStep:
    """An in-kernel `notify`, `wait` or `reset` of `cell` through arg slot `slot`, on `core`."""

    kind: str
    cell: str
    slot: int
    core: CoreType
    deps: tuple[int, ...] = ()
    """The sub-task steps a notify follows, or a wait holds back, when they do not follow one another."""


_LOCK_OPS = {"notify": NotifyOp, "wait": WaitLockOp, "reset": ResetLockOp}


@dataclass
class KernelPlan:
    """What the analysis decided for one group's `sk.kernel` (program steps in order)."""

    name: str
    kernel_type: KernelType
    blocks: int
    form: SkForm
    arg_slots: int
    options: SkOptions
    steps: list[SubtaskStep | LockStep]
    label: tuple[str, ...]
    slots: list[TaskOp]
    """The group's slots, launch slot first, rewritten with it."""
    built: SuperKernelOp | None = field(default=None, init=False)


def build_superkernel(plan: KernelPlan) -> SuperKernelOp:
    """The `sk.kernel` of a plan: each step an op, in plan order; a sub-task names the tokens of
    the sub-tasks it depends on and of the lock waits that hold it back."""
    body = Block()
    tokens: dict[int, SSAValue] = {}
    held: dict[int, list[SSAValue]] = defaultdict(list)  # sub-task step -> the waits that name it
    for index, step in enumerate(plan.steps):
        op: SubtaskOp | LockOp
        if isinstance(step, SubtaskStep):
            deps = [tokens[d] for d in step.deps] + held.pop(index, [])
            op = SubtaskOp(step.kernel, step.blocks, step.offset, step.stream, step.seq, types_class(step.cores), deps)
        elif step.kind == "wait":
            op = WaitLockOp(step.cell, step.slot, step.core)
            for later in step.deps:
                held[later].append(op.results[0])
        else:
            op = _LOCK_OPS[step.kind](step.cell, step.slot, step.core, [tokens[d] for d in step.deps])
        if op.results:
            tokens[index] = op.results[0]
        body.add_op(op)
    sk = SuperKernelOp(plan.name, plan.kernel_type, plan.blocks, plan.form, plan.arg_slots, plan.options,
                       Region(body))
    if plan.label:
        sk.attributes[LABEL_ATTR] = ArrayAttr(StringAttr(name) for name in plan.label)
    return sk


@dataclass
class OutlineGroup(RewritePattern):
    """The launch slot of a planned group → its `sk.kernel` (at the end of the model) and the
    rewrite of the group's slots."""

    plans: dict[TaskOp, KernelPlan]
    """Launch slot -> the plan of its group."""
    slot_plan: SlotPlan

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TaskOp, rewriter: PatternRewriter) -> None:
        plan = self.plans.get(op)
        if plan is None or plan.built is not None:
            return
        model = op.parent_op()
        model = model.parent_op() if model is not None else None
        assert isinstance(model, ModelOp)
        plan.built = build_superkernel(plan)
        rewriter.insert(plan.built, InsertPoint.at_end(model.body.block))
        for slot in plan.slots:
            rewrite_slot(slot, self.slot_plan.actions[slot], rewriter)
