"""What the CPU runtime model holds after a plan was applied, written back as a model.

`applied_module(cpu, graph, names, programs)` reads every task of the model runtime instance
(`aclmdlRIGetStreams`, `aclmdlRIGetTasksByStream`, and the model's committed state: what runs) and
rewrites the loaded module's slots accordingly, in the form of `OUT/model.rewritten.mlir`: a task
the runtime disabled is `aclgraph.disabled ... was <the captured task>`; a kernel task now
launching a SuperKernel entry is `aclgraph.launch_sk`; an event slot turned into a value task is
`aclgraph.value_write` / `aclgraph.value_wait` on the cell at that device address; every other
task is the captured one. `names` (what the applier allocated and launched) names the cells and
SuperKernels; `programs` (OUT's rewritten module) gives the `sk.kernel` programs the entries run,
so that sk-check can prove the written model against the original.

`vendor_updated(cpu, graph, names)` is the same state as the vendor's `sk_graph_updated.json`
(`skir.frontends.vendor` reads it): one node per task the runtime still runs, disabled slots gone.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.rewriter import Rewriter

from skir.dialects.aclgraph import (
    DisabledOp,
    LaunchSkOp,
    ModelOp,
    StreamOp,
    TaskOp,
    ValueWaitOp,
    ValueWriteOp,
    was_props,
)
from skir.dialects.aclgraph_decls import CellOp
from skir.dialects.aclgraph_enums import WaitRule
from skir.dialects.model_lookup import the_model
from skir.dialects.superkernel import SuperKernelOp
from skir.errors import SkirError
from skir.runtime.acl import AppliedPlan
from skir.runtime.acl_types import TASK_KERNEL, TASK_TYPE_NAMES, TASK_VALUE_WAIT, TASK_VALUE_WRITE, AclTaskParams
from skir.runtime.cpu_model import WAIT_RULES, CpuModel, LoadedGraph
from skir.targets.runtime_identity import seq_ids
from skir.xdsl_fast.clone import clone_tree


def _same(a: AclTaskParams, b: AclTaskParams) -> bool:
    """Whether two parameter sets are one task's (type and what that type reads)."""
    if a.type != b.type:
        return False
    if a.type == TASK_KERNEL:
        x, y = a.u.kernel, b.u.kernel
        return (x.funcHandle, x.args, x.argsSize, x.numBlocks) == (y.funcHandle, y.args, y.argsSize, y.numBlocks)
    return bytes(a.u.rsv2) == bytes(b.u.rsv2)


def _slots(cpu: CpuModel, graph: LoadedGraph) -> list[tuple[StreamOp, TaskOp, int]]:
    """(stream op, its captured task op, the runtime's task) of every slot, by runtime identity."""
    model = the_model(graph.module)
    by_id = {rank: key for key, rank in seq_ids(model).items()}
    ops = {(s.sym_name.data, t.seq.data): (s, t) for s in model.body.block.ops if isinstance(s, StreamOp)
           for t in s.body.block.ops if isinstance(t, TaskOp)}
    out = []
    for index, stream in enumerate(cpu.streams(graph.model_ri)):
        for task in cpu.tasks(stream, at=f"stream {index}"):
            key = by_id[cpu.seq_id(task)]
            out.append((*ops[key], task))
    return out


def applied_module(cpu: CpuModel, graph: LoadedGraph, names: AppliedPlan, programs: ModuleOp | None) -> ModuleOp:
    """The loaded module with every slot as the runtime now runs it (see the module docstring)."""
    module = clone_tree(graph.module)
    model = the_model(module)
    cells = {addr: name for name, addr in names.cells.items()} | graph.cells
    entries = {handle: name for name, handle in names.functions.items()}
    tasks = {(s.sym_name.data, t.seq.data): t for s in model.body.block.ops if isinstance(s, StreamOp)
             for t in s.body.block.ops if isinstance(t, TaskOp)}
    launched: set[str] = set()
    for stream, original, task in _slots(cpu, graph):
        now, disabled = cpu.state(task, 1)
        captured, _ = cpu.state(task, 2)
        key = (stream.sym_name.data, original.seq.data)
        where = f"@{key[0]} seq {key[1]}"
        slot = tasks[key]
        if disabled:
            new: TaskOp = DisabledOp(slot)
        elif _same(now, captured):
            continue
        elif now.type == TASK_KERNEL:
            entry = entries.get(now.u.kernel.funcHandle)
            sk = names.launches.get(key)
            if entry is None or sk is None:
                raise SkirError(f"{where}: the runtime launches a function the plan did not load")
            new = LaunchSkOp(key[1], sk)
            launched.add(sk)
        elif now.type in (TASK_VALUE_WRITE, TASK_VALUE_WAIT):
            value = now.u.value_write if now.type == TASK_VALUE_WRITE else now.u.value_wait
            cell = cells.get(value.devAddr or 0)
            if cell is None:
                raise SkirError(f"{where}: the runtime's value task names device address {value.devAddr:#x}, no cell")
            new = (ValueWriteOp(key[1], cell, now.u.value_write.value) if now.type == TASK_VALUE_WRITE else
                   ValueWaitOp(key[1], cell, WaitRule(WAIT_RULES[now.u.value_wait.flag]), now.u.value_wait.value))
        else:
            raise SkirError(f"{where}: the runtime holds a {TASK_TYPE_NAMES[now.type]} task no plan action makes")
        if not isinstance(new, DisabledOp):
            new.properties.update(was_props(slot))
        Rewriter.replace_op(slot, new)
    _declare(model, list(names.cells), programs, launched)  # in the plan's order, as apply_plan declares them
    return module


def _declare(model: ModelOp, cells: list[str], programs: ModuleOp | None, launched: set[str]) -> None:
    """The cells the applier allocated, and the programs of the SuperKernels the runtime launches."""
    first_stream = next((op for op in model.body.block.ops if isinstance(op, StreamOp)), None)
    for cell in cells:
        if first_stream is None:
            model.body.block.add_op(CellOp(cell))
        else:
            model.body.block.insert_op_before(CellOp(cell), first_stream)
    if programs is not None:
        for op in the_model(programs).body.block.ops:
            if isinstance(op, SuperKernelOp) and op.sym_name.data in launched:
                model.body.block.add_op(op.clone())


def vendor_updated(cpu: CpuModel, graph: LoadedGraph, names: AppliedPlan) -> dict[str, Any]:
    """The runtime's state as the vendor's `sk_graph_updated.json`: the tasks it still runs."""
    model = the_model(graph.module)
    entries = {handle: name for name, handle in names.functions.items()}
    streams: list[dict[str, Any]] = []
    for index, stream in enumerate(cpu.streams(graph.model_ri)):
        nodes: list[dict[str, Any]] = []
        for task in cpu.tasks(stream, at=f"stream {index}"):
            now, disabled = cpu.state(task, 1)
            if disabled:
                continue
            seq = cpu.seq_id(task)
            info: dict[str, Any] = {"taskId": seq, "taskType": TASK_TYPE_NAMES[now.type].upper(),
                                    "taskTypeInt": now.type}
            node: dict[str, Any] = {"nodeId": seq, "streamIdxInGraph": index, "nodeIdxInStream": len(nodes),
                                    "taskInfo": [info]}
            if now.type == TASK_KERNEL:
                k = now.u.kernel
                name = entries.get(k.funcHandle) or graph.functions.get(k.funcHandle) or "unknown"
                info["kernelParams"] = {"funcName": name, "numBlocks": k.numBlocks, "argsSize": k.argsSize,
                                        "isHostArgs": bool(k.isHostArgs), "taskGrp": f"{now.taskGrp or 0:#x}"}
            elif now.type in (TASK_VALUE_WRITE, TASK_VALUE_WAIT):
                value = now.u.value_write if now.type == TASK_VALUE_WRITE else now.u.value_wait
                info["valueParams"] = {"devAddr": f"{value.devAddr or 0:#x}", "value": f"{value.value:#x}"}
            nodes.append(node)
        streams.append({"streamIdxInGraph": index, "nodeCount": len(nodes), "nodes": nodes})
    return {"version": "1.0", "description": "SuperKernel updated graph, written by skir's CPU runtime model",
            "modelId": model.sym_name.data, "totalStreams": len(streams),
            "totalNodes": sum(s["nodeCount"] for s in streams), "streams": streams}
