"""sk-check's rules for communication kernels inside SuperKernels (docs/design.md §3,
"Communication kernels"), judged on the rewritten model apart from formation:

- **co-residency**: for a SuperKernel holding a communication sub-task, its cores plus the
  largest demand of any kernel or SuperKernel launch that happens-before leaves unordered with
  its launch fit the device, per core type (every node is looked at: a brute force, where
  formation searches windows per stream);
- **order**: two communication sub-tasks of one group are ordered by the SuperKernel's own
  dependencies (`after %t`, which the rest of sk-check proves its syncs keep), so every run,
  and every rank, runs them in one order.
"""

from __future__ import annotations

from skir.analysis.graph.data_deps import launches_by_seq
from skir.analysis.graph.happens_before import HappensBefore
from skir.analysis.graph.task_graph import TaskGraph
from skir.dialects.aclgraph import LaunchOp, LaunchSkOp, ModelOp
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import core_demand
from skir.dialects.superkernel import SuperKernelOp


def comm_violations(model: ModelOp, graph: TaskGraph, sks: dict[str, SuperKernelOp]) -> list[str]:
    """One line per broken rule (none when no SuperKernel holds a communication sub-task)."""
    launches = launches_by_seq(graph.streams)
    held: dict[str, list[tuple[int, str]]] = {}
    for name, sk in sks.items():
        place = sk.positions()
        for sub in sk.subtasks():
            launch = launches.get(sub.seq.data)
            if launch is not None and launch.comm is not None:
                held.setdefault(name, []).append((place[sub], launch.comm[0]))
    if not held:
        return []
    out = []
    for name, comms in held.items():
        place = sks[name].positions()
        deps = {place[s]: {place[d] for d in s.dep_subtasks()} for s in sks[name].subtasks()}
        for i, (a, group) in enumerate(comms):
            for b, other in comms[i + 1:]:
                if group == other and not (_reaches(deps, b, a) or _reaches(deps, a, b)):
                    out.append(f"{name}: comm_order: sub-tasks {a} and {b} of group {group} are not ordered by the "
                               "SuperKernel's dependencies; ranks could run them in different orders")
    hb = HappensBefore(graph)
    kernels = {op.sym_name.data: op for op in model.body.block.ops if isinstance(op, KernelOp)}
    cores = (model.aic_cores.data, model.aiv_cores.data)
    hosts = {op.sk.root_reference.data: n for n, op in enumerate(graph.ops) if isinstance(op, LaunchSkOp)}
    for name in held:
        host = hosts.get(name)
        if host is None:
            continue
        mine = core_demand(sks[name].type, sks[name].blocks.data)
        for n, op in enumerate(graph.ops):
            if n == host or hb.ordered(n, host):
                continue
            if isinstance(op, LaunchOp):
                beside = core_demand(kernels[op.kernel.root_reference.data].type, op.blocks.data)
            elif isinstance(op, LaunchSkOp):
                sk = sks[op.sk.root_reference.data]
                beside = core_demand(sk.type, sk.blocks.data)
            else:
                continue
            if mine[0] + beside[0] > cores[0] or mine[1] + beside[1] > cores[1]:
                where = f"@{graph.streams[graph.stream_of[n]].sym_name.data} seq {graph.seq[n]}"
                out.append(f"{name}: comm_coresidency: it holds a communication sub-task and {mine[0]}:{mine[1]} "
                           f"cores, and {where} ({beside[0]}:{beside[1]}) may run beside it: more than the device's "
                           f"{cores[0]}:{cores[1]}")
                break
    return out


def _reaches(deps: dict[int, set[int]], start: int, target: int) -> bool:
    """Whether sub-task `start` depends, directly or not, on `target`."""
    seen, stack = set(), [start]
    while stack:
        node = stack.pop()
        for d in deps.get(node, ()):
            if d == target:
                return True
            if d not in seen:
                seen.add(d)
                stack.append(d)
    return False
