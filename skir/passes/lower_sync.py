"""`sk-lower-sync`: turn the dependencies inside each SuperKernel into synchronisation.

The sub-tasks run in one program order on both core types (their id order from
`sk-outline`, a topological order of happens-before). Between consecutive sub-tasks a
barrier is chosen by the class pair (DESIGN §3): aiv -> aiv an all-AIV barrier (mode-0
flag 14), aic -> aic an all-AIC barrier (flag 11), any other pair `SyncAll<false>` on every
core. GM-lock accesses get the barriers DESIGN §3 (f)-(g) asks for: an in-kernel notify
follows a full barrier of the producer's class; an in-kernel wait is followed by a barrier
of the consumer's class. Ids are renumbered to the new program order.

A `queue` SuperKernel (stream fusion: members not totally ordered) is lowered the same way
over its topological order, which keeps every dependency but not the overlap of its streams.

```mlir
aiv {
  sk.subtask id 0 @a blocks 48 offset 1 from @s0 seq 0
  sk.subtask id 1 @b blocks 8 offset 3 from @s0 seq 1 after [0]
}
```
becomes
```mlir
aiv {
  sk.subtask id 0 @a blocks 48 offset 1 from @s0 seq 0
  sk.barrier id 1 all_aiv
  sk.subtask id 2 @b blocks 8 offset 3 from @s0 seq 1 after [0]
}
```
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import CoreClass, core_class
from skir.dialects.superkernel import (
    BarrierKind,
    BarrierOp,
    CoreType,
    LockOp,
    NotifyOp,
    SubtaskOp,
    SuperKernelOp,
    WaitLockOp,
)
from skir.dialects.syntax import int_attr
from skir.passes.common import kernel_table, models, pass_options

_BARRIER_CLASS = {
    BarrierKind.ALL_AIV: CoreClass.AIV,
    BarrierKind.ALL_AIC: CoreClass.AIC,
    BarrierKind.SYNC_ALL: CoreClass.MIX,
}
_CLASS_BARRIER = {
    CoreClass.AIV: BarrierKind.ALL_AIV,
    CoreClass.AIC: BarrierKind.ALL_AIC,
    CoreClass.MIX: BarrierKind.SYNC_ALL,
}


def barrier_kind(prev: CoreClass, cur: CoreClass) -> BarrierKind:
    """The barrier a chain SuperKernel needs between sub-tasks of classes `prev` and `cur`."""
    if prev is CoreClass.AIV and cur is CoreClass.AIV:
        return BarrierKind.ALL_AIV
    if prev is CoreClass.AIC and cur is CoreClass.AIC:
        return BarrierKind.ALL_AIC
    return BarrierKind.SYNC_ALL


def _cores(cls: CoreClass) -> tuple[CoreType, ...]:
    if cls is CoreClass.MIX:
        return CoreType.AIC, CoreType.AIV
    return (CoreType.AIC,) if cls is CoreClass.AIC else (CoreType.AIV,)


class _Lowering:
    def __init__(self, sk: SuperKernelOp, kernels: dict[str, KernelOp]):
        self.sk, self.kernels = sk, kernels
        self.program: list[tuple[Operation, tuple[CoreType, ...]]] = []

    def cls(self, sub: SubtaskOp) -> CoreClass:
        return core_class(self.kernels[sub.kernel.root_reference.data].type)

    def barrier(self, kind: BarrierKind) -> None:
        self.program.append((BarrierOp(0, kind), _cores(_BARRIER_CLASS[kind])))

    def add(self, op: Operation, cores: tuple[CoreType, ...]) -> None:
        op.detach()
        self.program.append((op, cores))

    def run(self) -> None:
        ops = self.sk.program()
        if any(isinstance(op, BarrierOp) for op in ops):
            raise PassFailedException(f"sk.kernel @{self.sk.sym_name.data} is already lowered")
        prev: SubtaskOp | None = None
        pending_notify: list[LockOp] = []
        pending_wait: list[LockOp] = []
        resets: list[LockOp] = []
        for op in ops:
            if isinstance(op, NotifyOp):
                pending_notify.append(op)
            elif isinstance(op, WaitLockOp):
                pending_wait.append(op)
            elif isinstance(op, LockOp):
                resets.append(op)
            else:
                assert isinstance(op, SubtaskOp)
                self.between(prev, op, pending_notify, pending_wait)
                pending_notify, pending_wait = [], []
                self.add(op, _cores(self.cls(op)))
                prev = op
        self.between(prev, None, pending_notify, pending_wait)
        for op in resets:
            self.add(op, (op.core.data,))
        self.install()

    def between(self, prev: SubtaskOp | None, cur: SubtaskOp | None, notifies: list[LockOp],
                waits: list[LockOp]) -> None:
        if notifies:
            if prev is not None:
                self.barrier(_CLASS_BARRIER[self.cls(prev)])
            for op in notifies:
                self.add(op, (op.core.data,))
        if prev is not None and cur is not None:
            self.barrier(barrier_kind(self.cls(prev), self.cls(cur)))
        if waits:
            for op in waits:
                self.add(op, (op.core.data,))
            if cur is not None:
                self.barrier(_CLASS_BARRIER[self.cls(cur)])

    def install(self) -> None:
        """Renumber ids in program order and put each op in the program(s) of its core types."""
        new_id: dict[int, int] = {}
        for index, (op, _) in enumerate(self.program):
            if isinstance(op, SubtaskOp):
                new_id[op.ident] = index
        for region in (self.sk.aic, self.sk.aiv):
            for old in list(region.block.ops):
                region.block.erase_op(old)
        for index, (op, cores) in enumerate(self.program):
            op.properties["id"] = int_attr(index)
            if isinstance(op, SubtaskOp) and op.deps is not None:
                op.properties["deps"] = ArrayAttr(int_attr(new_id[d]) for d in op.dep_ids)
            for i, core in enumerate(cores):
                block = self.sk.aic.block if core is CoreType.AIC else self.sk.aiv.block
                block.add_op(op if i == 0 else op.clone())


def lower_superkernel(sk: SuperKernelOp, kernels: dict[str, KernelOp]) -> None:
    """Insert the barriers of one SuperKernel (see the module docstring)."""
    _Lowering(sk, kernels).run()


@dataclass(frozen=True)
class LowerSyncPass(ModulePass):
    """Insert the synchronisation that keeps every dependency inside each SuperKernel."""

    name = "sk-lower-sync"

    options: str = ""
    """SuperKernel options (vendor syntax)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pass_options(self.options)
        for model in models(op):
            kernels = kernel_table(model)
            for sk in model.body.block.ops:
                if isinstance(sk, SuperKernelOp):
                    lower_superkernel(sk, kernels)
