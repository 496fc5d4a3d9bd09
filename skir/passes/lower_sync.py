"""`sk-lower-sync`: turn the dependencies inside each SuperKernel into barriers.

A chain SuperKernel (members totally ordered) runs one program order on both core
types. Between consecutive sub-tasks it places a barrier chosen by the class pair
(DESIGN §3): aiv -> aiv an all-AIV barrier (mode-0 flag 14), aic -> aic an all-AIC
barrier (flag 11), any other pair `SyncAll<false>` on every core. Ids are renumbered
to the new program order.

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
from xdsl.ir import Block
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import CoreClass, core_class
from skir.dialects.superkernel import BarrierKind, BarrierOp, SkForm, SkProgramOp, SubtaskOp, SuperKernelOp
from skir.dialects.syntax import int_attr
from skir.passes.common import kernel_table, models, pass_options


def barrier_kind(prev: CoreClass, cur: CoreClass) -> BarrierKind:
    """The barrier a chain SuperKernel needs between sub-tasks of classes `prev` and `cur`."""
    if prev is CoreClass.AIV and cur is CoreClass.AIV:
        return BarrierKind.ALL_AIV
    if prev is CoreClass.AIC and cur is CoreClass.AIC:
        return BarrierKind.ALL_AIC
    return BarrierKind.SYNC_ALL


def lower_chain(sk: SuperKernelOp, kernels: dict[str, KernelOp]) -> None:
    """Rebuild the two programs of a chain SuperKernel with class-pair barriers."""
    subtasks = sk.subtasks()
    if any(isinstance(op, SkProgramOp) and not isinstance(op, SubtaskOp) for op in sk.program()):
        raise PassFailedException(f"sk.kernel @{sk.sym_name.data} is already lowered")
    program: list[tuple[SkProgramOp, CoreClass]] = []
    new_id: dict[int, int] = {}
    prev: CoreClass | None = None
    for sub in subtasks:
        cls = core_class(kernels[sub.kernel.root_reference.data].type)
        if prev is not None:
            kind = barrier_kind(prev, cls)
            program.append((BarrierOp(len(program), kind), _BARRIER_CLASS[kind]))
        new_id[sub.ident] = len(program)
        program.append((sub, cls))
        prev = cls
    aic, aiv = Block(), Block()
    for index, (op, cls) in enumerate(program):
        if isinstance(op, SubtaskOp):
            op.detach()
            op.properties["id"] = int_attr(index)
            if op.deps is not None:
                op.properties["deps"] = ArrayAttr(int_attr(new_id[d]) for d in op.dep_ids)
        targets = [b for b, want in ((aic, CoreClass.AIC), (aiv, CoreClass.AIV)) if cls in (want, CoreClass.MIX)]
        for i, block in enumerate(targets):
            block.add_op(op if i == 0 else op.clone())
    for region, block in ((sk.aic, aic), (sk.aiv, aiv)):
        for old in list(region.block.ops):
            region.block.erase_op(old)
        for op in list(block.ops):
            op.detach()
            region.block.add_op(op)


_BARRIER_CLASS = {
    BarrierKind.ALL_AIV: CoreClass.AIV,
    BarrierKind.ALL_AIC: CoreClass.AIC,
    BarrierKind.SYNC_ALL: CoreClass.MIX,
}


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
                    if sk.form.data is not SkForm.CHAIN:
                        raise PassFailedException(
                            f"sk.kernel @{sk.sym_name.data}: queue SuperKernels are not lowered yet"
                        )
                    lower_chain(sk, kernels)
