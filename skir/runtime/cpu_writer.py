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
    LaunchOp,
    LaunchSkOp,
    ModelOp,
    StreamOp,
    TaskOp,
    ValueWaitOp,
    ValueWriteOp,
    was_props,
)
from skir.dialects.aclgraph_decls import CellOp, KernelOp
from skir.dialects.aclgraph_enums import KernelType, WaitRule
from skir.dialects.hardware import vendor_kernel_type
from skir.dialects.model_lookup import all_submodels, the_model
from skir.dialects.superkernel import SuperKernelOp
from skir.dialects.vendor_provenance import vendor_info
from skir.errors import SkirError
from skir.runtime.acl import AppliedPlan
from skir.runtime.acl_types import TASK_KERNEL, TASK_TYPE_NAMES, TASK_VALUE_WAIT, TASK_VALUE_WRITE, AclTaskParams
from skir.runtime.cpu_model import WAIT_RULES, CpuModel, LoadedGraph
from skir.targets.runtime_identity import function_name, seq_ids
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
    model = graph.the_model()
    by_id = {rank: key for key, rank in seq_ids(model).items()}
    ops = {(s.sym_name.data, t.seq.data): (s, t) for s in model.body.block.ops if isinstance(s, StreamOp)
           for t in s.body.block.ops if isinstance(t, TaskOp)}
    out = []
    for index, stream in enumerate(cpu.streams(graph.model_ri)):
        for task in cpu.tasks(stream, at=f"stream {index}"):
            key = by_id[cpu.seq_id(task)]
            out.append((*ops[key], task))
    return out


def _models(module: ModuleOp) -> dict[str, ModelOp]:
    """The model and every sub-model of `module`, by name ("" the model)."""
    model = the_model(module)
    return {"": model, **{sub.sym_name.data: sub for sub in all_submodels(model)}}


def applied_module(cpu: CpuModel, graph: LoadedGraph, names: AppliedPlan, programs: ModuleOp | None) -> ModuleOp:
    """The loaded module with every slot as the runtime now runs it (see the module docstring);
    each sub-model's slots as its own instance runs them."""
    module = clone_tree(graph.module)
    models = _models(module)
    written = _models(programs) if programs is not None else {}
    for name, loaded in (("", graph), *graph.submodels.items()):
        launched = _rewrite(cpu, loaded, models[name], names)
        _declare(models[name], names.part_cells.get(name, []), written.get(name), launched)
    return module


def _rewrite(cpu: CpuModel, graph: LoadedGraph, model: ModelOp, names: AppliedPlan) -> set[str]:
    """Rewrite `model`'s slots (a copy of the loaded one) as `graph`'s instance runs them; returns
    the SuperKernels launched."""
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
    return launched


def _declare(model: ModelOp, cells: list[str], programs: ModelOp | None, launched: set[str]) -> None:
    """The cells the applier allocated (in the plan's order, as apply_plan declares them), and the
    programs of the SuperKernels the runtime launches."""
    first_stream = next((op for op in model.body.block.ops if isinstance(op, StreamOp)), None)
    for cell in cells:
        if first_stream is None:
            model.body.block.add_op(CellOp(cell))
        else:
            model.body.block.insert_op_before(CellOp(cell), first_stream)
    if programs is not None:
        for op in programs.body.block.ops:
            if isinstance(op, SuperKernelOp) and op.sym_name.data in launched:
                model.body.block.add_op(op.clone())


_NODE_TYPES = {"event_record": "NOTIFY", "event_wait": "WAIT", "event_reset": "RESET", "value_write": "MEMORY_WRITE",
               "value_wait": "MEMORY_WAIT", "kernel": "KERNEL", "default": "DEFAULT"}


def vendor_updated(cpu: CpuModel, graph: LoadedGraph, names: AppliedPlan) -> dict[str, Any]:
    """The runtime's committed state as the vendor's `sk_graph_updated.json` (the graph layout:
    `streams[i].nodes[j]`, each around one `taskInfo`): the tasks it still runs, disabled slots
    gone, survivors keeping their sequence ids; a SuperKernel launch a `KERNEL` node with
    `skinfos` (its scope id the SuperKernel's place in the plan, its first and last member
    kernels' function names) and the vendor's name; a value task with its device address."""
    model = the_model(graph.module)
    kernels = {op.sym_name.data: op for op in model.body.block.ops if isinstance(op, KernelOp)}
    kind_of = {function_name(k): vendor_kernel_type(k.type) for k in kernels.values()}
    entries = {handle: name for name, handle in names.functions.items()}
    plan_sks = {sk["name"]: (i, sk) for i, sk in enumerate(names.plan["superkernels"])}
    first_last = _first_last(names.plan, kernels, model)
    streams: list[dict[str, Any]] = []
    by_stream: dict[int, list[dict[str, Any]]] = {}
    stream_names = [s.sym_name.data for s in model.body.block.ops if isinstance(s, StreamOp)]
    for stream_op, original, task in _slots(cpu, graph):
        now, disabled = cpu.state(task, 1)
        if disabled:
            continue
        index = stream_names.index(stream_op.sym_name.data)
        seq = cpu.seq_id(task)
        kind = TASK_TYPE_NAMES[now.type]
        info: dict[str, Any] = {"taskId": seq, "taskType": {"event_record": "NOTIFY", "event_wait": "WAIT",
                                                            "event_reset": "RESET"}.get(kind, kind.upper()),
                                "taskTypeInt": now.type}
        node: dict[str, Any] = {"nodeId": seq, "streamIdxInGraph": index, "nodeType": _NODE_TYPES[kind]}
        if now.type == TASK_KERNEL:
            k = now.u.kernel
            sk = names.launches.get((stream_op.sym_name.data, original.seq.data)) if k.funcHandle in entries else None
            if sk is not None:
                place, entry = plan_sks[sk]
                first, last = first_last[sk]
                func, kernel_type = f"sk_{place}__start_{first}_end_{last}", vendor_kernel_type(
                    KernelType(entry["kernel_type"]))
                node["skinfos"] = {"scopeId": place, "scopeName": None, "startKernelFuncName": first,
                                   "endKernelFuncName": last}
            else:
                func = graph.functions.get(k.funcHandle, "unknown")
                kernel_type = kind_of.get(func, "AIV_ONLY")
            info["kernelParams"] = {"funcName": func, "numBlocks": k.numBlocks, "kernelType": kernel_type,
                                    "argsSize": k.argsSize, "isHostArgs": bool(k.isHostArgs),
                                    "taskGrp": f"{now.taskGrp or 0:#x}"}
        elif now.type in (TASK_VALUE_WRITE, TASK_VALUE_WAIT):
            if now.type == TASK_VALUE_WRITE:
                info["valueWriteParams"] = {"devAddr": f"{now.u.value_write.devAddr or 0:#x}",
                                            "value": f"{now.u.value_write.value:#x}"}
            else:
                info["valueWaitParams"] = {"devAddr": f"{now.u.value_wait.devAddr or 0:#x}",
                                           "value": f"{now.u.value_wait.value:#x}", "flag": now.u.value_wait.flag}
        elif kind.startswith("event_"):
            info["eventParams"] = {"eventId": f"{now.u.event_record.event or 0:#x}", "eventTaskFlag": 0}
        node["taskInfo"] = [info]
        by_stream.setdefault(index, []).append(node)
    for index in range(len(stream_names)):
        nodes = by_stream.get(index, [])
        for j, node in enumerate(nodes):
            node["nodeIdxInStream"] = j
        streams.append({"streamIdxInGraph": index, "nodeCount": len(nodes), "nodes": nodes})
    info = vendor_info(model) or {}
    return {"version": "1.0", "description": "SuperKernel updated graph, written by skir's CPU runtime model",
            "modelId": info.get("model_id", model.sym_name.data), "totalStreams": len(streams),
            "totalNodes": sum(s["nodeCount"] for s in streams), "streams": streams}


def _first_last(plan: dict[str, Any], kernels: dict[str, KernelOp], model: ModelOp) -> dict[str, tuple[str, str]]:
    """Per SuperKernel of the plan, the function names of its first and last member kernel
    (by seq: the members are the kernel slots its arguments come from)."""
    launches = {(s.sym_name.data, t.seq.data): t for s in model.body.block.ops if isinstance(s, StreamOp)
                for t in s.body.block.ops if isinstance(t, LaunchOp)}
    out = {}
    for sk in plan["superkernels"]:
        members = sorted({(a["seq"], a["stream"]) for a in sk["args"] if a["source"] == "task"}
                         | {(sk["host"]["seq"], sk["host"]["stream"])})
        names = [function_name(kernels[launches[(st, seq)].kernel.root_reference.data]) for seq, st in members
                 if (st, seq) in launches]
        out[sk["name"]] = (names[0], names[-1]) if names else ("none", "none")
    return out
