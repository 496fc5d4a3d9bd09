"""The model as it was before `sk-outline`, rebuilt from a rewritten module alone.

Every slot a rewrite changed keeps its task in `was` (`aclgraph.disabled`, and the launches
and value tasks `sk-outline` put in member and event slots). Restoring every slot (and dropping
the `sk.kernel` ops) gives back the captured model, whose happens-before relation is what
a rewrite must preserve.
"""

from __future__ import annotations

from xdsl.ir import Block, Operation, Region

from skir.dialects.aclgraph import ModelOp, StreamOp, TaskOp


def original_task(op: TaskOp) -> TaskOp:
    """The task a slot held before the rewrite (a fresh op), or a clone of it if it was kept."""
    was = op.was_task()
    return was if was is not None else op.clone()


def original_model(model: ModelOp) -> ModelOp:
    """A copy of `model` with every rewritten slot restored and no `sk.kernel` ops."""
    body = Block()
    for op in model.body.block.ops:
        if isinstance(op, StreamOp):
            tasks: list[Operation] = [original_task(task) for task in op.body.block.ops]  # type: ignore[arg-type]
            body.add_op(StreamOp(op.sym_name.data, Region(Block(tasks)), op.slots.data if op.slots else None))
        elif op.name != "sk.kernel":
            body.add_op(op.clone())
    soc = model.soc.data if model.soc is not None else None
    return ModelOp(model.sym_name.data, model.aic_cores.data, model.aiv_cores.data, Region(body), soc)
