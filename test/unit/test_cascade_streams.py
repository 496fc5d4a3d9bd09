"""Cascade capture streams: the `stream_active` task (docs/design.md §3 "Happens-before", §3
formation, §8, §11).

One user stream split over two capture streams, s0: [k0, k1, stream_active @s1] and s1:
[k2, k3], is one stream for formation: the compile forms one SuperKernel over k0..k3, which
sk-check proves and the simulator runs. The hb edge is checked against a hand-derived relation
and against a brute-force reachability written here from the rule alone.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from itertools import product
from pathlib import Path

import pytest

import skir
from skir.analysis.graph.happens_before import HappensBefore
from skir.analysis.graph.task_graph import TaskGraph
from skir.analysis.proof.sync_machine import SyncMachine
from skir.api import load_model
from skir.dialects.aclgraph import ModelOp, StreamActiveOp, StreamOp
from skir.errors import SkirError
from skir.frontends import capture

K = {"kernel_type": "aiv_only", "params": ["inout"]}


def model(streams: list[tuple[str, list[dict]]], kernels: dict | None = None) -> dict:
    return {"format": "skir.aclgraph.capture", "version": 1, "model": "casc", "cores": {"aic": 24, "aiv": 48},
            "kernels": kernels or {"k": K}, "buffers": {"x": 64},
            "streams": [{"name": name, "tasks": tasks} for name, tasks in streams]}


def kern(seq: int, blocks: int = 8) -> dict:
    return {"seq": seq, "type": "kernel", "kernel": "k", "blocks": blocks, "args": ["x"]}


def active(seq: int, stream: str) -> dict:
    return {"seq": seq, "type": "stream_active", "stream": stream}


CASCADE = model([("s0", [kern(0), kern(1), active(2, "s1")]), ("s1", [kern(3), kern(4)])])


def the_model(module: object) -> ModelOp:
    return next(op for op in module.ops if isinstance(op, ModelOp))  # type: ignore[attr-defined]


# ---- the hb edge --------------------------------------------------------------------------


def brute_force_hb(data: dict) -> set[tuple[int, int]]:
    """(a, b) seq pairs with a before b, from the rules written again: program order, and a
    stream_active task before every task of the stream it names (no events in these models)."""
    edges: set[tuple[int, int]] = set()
    tasks = {s["name"]: [t["seq"] for t in s["tasks"]] for s in data["streams"]}
    for s in data["streams"]:
        seqs = tasks[s["name"]]
        edges.update((a, b) for i, a in enumerate(seqs) for b in seqs[i + 1:])
        for t in s["tasks"]:
            if t["type"] == "stream_active":
                edges.update((t["seq"], b) for b in tasks[t["stream"]])
    nodes = sorted({n for s in tasks.values() for n in s})
    for k, i, j in product(nodes, nodes, nodes):  # Floyd-Warshall closure, k outermost
        if (i, k) in edges and (k, j) in edges:
            edges.add((i, j))
    return edges


def hb_pairs(data: dict) -> set[tuple[int, int]]:
    graph = TaskGraph(capture.from_dict(data))
    hb = HappensBefore(graph)
    return {(graph.seq[a], graph.seq[b]) for a in range(len(graph)) for b in range(len(graph)) if hb.before(a, b)}


def test_the_activation_orders_the_activated_stream_hand_derived() -> None:
    # k0 -> k1 -> A -> k2 -> k3: a total order of the five tasks
    expected = {(a, b) for a in range(5) for b in range(5) if a < b}
    assert hb_pairs(CASCADE) == expected


@pytest.mark.parametrize("data", [
    CASCADE,
    model([("s0", [kern(0), active(1, "s1"), kern(2)]), ("s1", [kern(3), active(4, "s2")]),
           ("s2", [kern(5)]), ("s3", [kern(6)])]),
    model([("s0", [active(0, "s2"), kern(1), active(2, "s1")]), ("s1", [kern(3)]), ("s2", [kern(4), kern(5)])]),
    model([("s0", [kern(0)]), ("s1", []), ("s2", [active(1, "s1"), kern(2)])]),
])
def test_the_edge_agrees_with_brute_force(data: dict) -> None:
    assert hb_pairs(data) == brute_force_hb(data)


def test_a_stream_nothing_activates_runs_from_the_start() -> None:
    data = model([("s0", [kern(0), active(1, "s1")]), ("s1", [kern(2)]), ("s2", [kern(3)])])
    graph = TaskGraph(capture.from_dict(data))
    assert graph.activator == {1: 1} and graph.activates == {1: 1}
    hb = HappensBefore(graph)
    s2 = graph.start[2]
    assert not any(hb.ordered(n, s2) for n in range(len(graph)) if n != s2)


# ---- bad input: one located line, exit 1 ---------------------------------------------------


BAD = [
    ("self", model([("s0", [kern(0), active(1, "s0")])]),
     "streams[0].tasks[1].stream: stream_active activates its own stream 's0'"),
    ("twice", model([("s0", [active(0, "s1")]), ("s1", [kern(1)]), ("s2", [active(2, "s1")])]),
     "streams[2].tasks[0]: @casc/@s2/seq 2: stream @s1 is already activated by @casc/@s0/seq 0"),
    ("cycle", model([("s0", [kern(0), active(1, "s1")]), ("s1", [kern(2), active(3, "s0")])]),
     "stream_active closes a happens-before cycle"),
    ("unknown", model([("s0", [active(0, "s7")])]), "streams[0].tasks[0].stream: unknown stream 's7'"),
    ("not_a_stream", model([("s0", [active(0, "k")])]), "'k' is a kernel (kernels.k), not a stream"),
]


@pytest.mark.parametrize(("name", "data", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_activations_are_one_located_line(name: str, data: dict, message: str, tmp_path: Path) -> None:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data))
    proc = subprocess.run([sys.executable, "-m", "skir.tools.sk_compile", str(path), "-o", str(tmp_path / "out")],
                          capture_output=True, text=True)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr


MLIR_CYCLE = """aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @k aiv_only params(in)
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @k blocks 1
    aclgraph.stream_active seq 1 @s1
  }
  aclgraph.stream @s1 {
    aclgraph.stream_active seq 2 @s2
  }
  aclgraph.stream @s2 {
    aclgraph.stream_active seq 3 @s0
  }
}
"""


def test_a_cycle_of_three_activations_names_the_activation() -> None:
    with pytest.raises(SkirError, match=r":5:5: @m/@s0/seq 1: stream_active closes a happens-before cycle: "
                                        r"@m/@s0/seq 0 -> @m/@s0/seq 1 -> @m/@s1/seq 2 -> @m/@s2/seq 3 -> "
                                        r"@m/@s0/seq 0;"):
        load_model(MLIR_CYCLE)


# ---- formation, the rewrite and its proof ----------------------------------------------------


def members(result: skir.CompileResult) -> list[set[tuple[str, int]]]:
    return [{(m.stream, m.seq) for m in sk.members} for sk in result.superkernels]


def test_a_cascade_fuses_as_one_stream(tmp_path: Path) -> None:
    result = skir.compile(CASCADE).simulate().write(tmp_path / "out")
    assert members(result) == [{("s0", 0), ("s0", 1), ("s1", 3), ("s1", 4)}]
    text = (tmp_path / "out" / "model.rewritten.mlir").read_text()
    assert "aclgraph.stream_active seq 2 @s1" in text  # kept, after the launch on s0
    assert text.index("aclgraph.launch_sk seq 0") < text.index("aclgraph.stream_active seq 2")
    plan = json.loads((tmp_path / "out" / "plan.json").read_text())
    actions = {(a["stream"], a["seq"]): a["action"] for a in plan["slots"]}
    assert actions == {("s0", 0): "set_kernel", ("s0", 1): "disable", ("s0", 2): "keep",
                       ("s1", 3): "disable", ("s1", 4): "disable"}
    assert (tmp_path / "out" / "timeline.json").is_file()


def test_the_activated_stream_waits_on_the_abstract_machine() -> None:
    module = skir.compile(CASCADE).module
    mdl = the_model(module)
    graph = TaskGraph(mdl)
    machine = SyncMachine(graph, {op.sym_name.data: op for op in mdl.body.block.ops
                                  if op.name == "sk.kernel"})  # type: ignore[attr-defined]
    assert machine.run() == []
    s1 = graph.start[1]
    active_node = graph.activator[1]
    # the activated stream started with the activate task's knowledge
    assert machine.task_start[s1][0] >= graph.pos[active_node] + 1


def test_the_machine_blocks_a_stream_its_activation_never_reaches() -> None:
    text = """aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @k aiv_only params(in)
  aclgraph.cell @c
  aclgraph.stream @s0 {
    aclgraph.value_wait seq 0 @c eq 1 external
    aclgraph.stream_active seq 1 @s1
  }
  aclgraph.stream @s1 {
    aclgraph.launch seq 2 @k blocks 1
  }
}
"""
    graph = TaskGraph(the_model(load_model(text)))
    graph.cells["c"].satisfying = [0]  # pretend a write of the model satisfies it: the wait then blocks
    blocked = SyncMachine(graph, {}).run()
    assert [b.what for b in blocked] == ["value_wait @c eq 1 (cell is 0)", "activation by @m/@s0/seq 1"]


def test_a_stream_active_in_the_middle_of_a_stream_is_a_breaker() -> None:
    data = model([("s0", [kern(0), active(1, "s1"), kern(2)]), ("s1", [kern(3), kern(4)])])
    result = skir.compile(data)
    groups = members(result)
    # k0 alone on its side of the breaker; k2 and s1's kernels are unordered but fuse as a queue
    assert {("s0", 0)} not in groups and all(("s0", 0) not in g for g in groups)
    reasons = {(u.stream, u.seq): u.reason for u in result.fail_reasons}
    assert reasons[("s0", 0)] == "default_node"


def test_a_stream_active_is_no_fence_for_other_streams() -> None:
    # s2 runs beside the cascade; its kernels fuse with s0's over the activate task's seq
    data = model([("s0", [kern(0), active(2, "s1")]), ("s1", [kern(3)]), ("s2", [kern(1), kern(4)])])
    result = skir.compile(data)
    assert any({("s0", 0), ("s2", 1)} <= g for g in members(result))


def test_a_cascade_behind_other_work_on_the_activated_stream_is_not_convex() -> None:
    # an unfused kernel before k2 on s1 lies on the path k1 -> A -> x -> k2
    kernels = {"k": K, "u": {**K, "sk_capable": False}}
    data = model([("s0", [kern(0), kern(1), active(2, "s1")]),
                  ("s1", [{"seq": 3, "type": "kernel", "kernel": "u", "blocks": 8, "args": ["x"]}, kern(4), kern(5)])],
                 kernels)
    result = skir.compile(data)
    for g in members(result):
        assert not ({("s0", 0), ("s0", 1)} & g and {("s1", 4), ("s1", 5)} & g)


def test_export_round_trip() -> None:
    module = capture.from_dict(CASCADE)
    again = capture.from_dict(capture.dump(module))
    assert str(again) == str(module)
    ops = [op for s in the_model(module).body.block.ops if isinstance(s, StreamOp) for op in s.body.block.ops]
    assert [op.target for op in ops if isinstance(op, StreamActiveOp)] == ["s1"]


def test_the_capture_schema_knows_the_task() -> None:
    from skir.schemas import validate

    validate("capture", CASCADE)
    broken = json.loads(json.dumps(CASCADE))
    del broken["streams"][0]["tasks"][2]["stream"]
    with pytest.raises(Exception, match="stream"):
        validate("capture", broken)


def test_capture_without_seq_numbers_an_activated_stream_after_its_activation() -> None:
    data = model([("s0", [kern(0), active(0, "s1")]), ("s1", [kern(0), kern(0)])])
    for s in data["streams"]:
        for t in s["tasks"]:
            del t["seq"]
    # s1 first in the file: its tasks still come after the activation
    data["streams"].reverse()
    graph = TaskGraph(capture.from_dict(data))
    seqs = {(graph.streams[graph.stream_of[n]].sym_name.data, graph.pos[n]): graph.seq[n] for n in range(len(graph))}
    assert seqs == {("s0", 0): 0, ("s0", 1): 1, ("s1", 0): 2, ("s1", 1): 3}


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_a_cascade_compiles_checks_and_emulates(tmp_path: Path) -> None:
    result = skir.compile(CASCADE).write(tmp_path / "out", emulate=True)
    assert len(result.superkernels) == 1 and all(e.ok for e in result.emulation)


# ---- the simulator -----------------------------------------------------------------------------


def test_the_simulator_starts_the_activated_stream_after_its_activation() -> None:
    from skir.sim.costs import default_costs
    from skir.sim.engine import Engine

    data = model([("s0", [kern(0), active(1, "s1")]), ("s1", [kern(2)]), ("s2", [kern(3)])])
    mdl = the_model(capture.from_dict(data))
    sim = Engine(mdl, "aclgraph", default_costs(), {}).run()
    span = {(s.stream, s.seq): s for s in sim.tasks}
    assert span[("s1", 2)].start >= span[("s0", 1)].end
    assert span[("s0", 1)].start >= span[("s0", 0)].end
    assert span[("s2", 3)].start < span[("s0", 0)].end  # a stream nothing activates starts at once


# ---- the vendor's dumps ------------------------------------------------------------------------


def _node(seq: int, si: int, ti: int, sid: int, kind: str, last: bool, first: bool) -> dict:
    info: dict = {"taskId": seq, "streamId": sid, "taskType": kind, "taskTypeInt": 1 if kind == "KERNEL" else 0}
    if kind == "KERNEL":
        info["kernelParams"] = {"funcName": "static_kernel_Add_7f3a", "numBlocks": 8, "kernelType": "AIV_ONLY",
                                "kernelTypeInt": 2, "taskRatio": [0, 1], "cap": "0x0", "argsSize": 24,
                                "isHostArgs": False, "resolvedNum": 4, "taskGrp": "0x0"}
    return {"nodeId": seq, "streamIdxInGraph": si, "nodeIdxInStream": ti, "nodeType": kind, "scopeName": None,
            "isScopeNode": False, "isScopeBegin": False, "isScopeEnd": False, "isScopePlaceholder": False,
            "preNodeId": "none" if first else seq - 1, "nextNodeId": "none" if last else seq + 1, "taskInfo": [info]}


def _trace(name: str, sid: int, tid: int, ts: int, kind: str, extra: str = "") -> str:
    return (f'{{"name":"{name}","pid":"4711 aclGraph","tid":"stream{sid}","ts":{ts},"dur":9.5,"ph":"X",'
            f'"args":{{"Model Id":7,"Stream Id":{sid},"Task Id":{tid},"Task Type":"{kind}"{extra}}}}}')


def cascade_dump(folder: Path, active_id: int = 9) -> Path:
    """A hand-written dump of one user stream the runtime split over runtime streams 5 and 9:
    the SK graph shows the join as a DEFAULT task, the runtime trace as STREAM_ACTIVE with the
    id of the stream it activates (the formats as the vendor's documentation describes them)."""
    folder.mkdir()
    s0 = [_node(0, 0, 0, 5, "KERNEL", False, True), _node(1, 0, 1, 5, "KERNEL", False, False),
          _node(2, 0, 2, 5, "DEFAULT", True, False)]
    s1 = [_node(3, 1, 0, 9, "KERNEL", False, True), _node(4, 1, 1, 9, "KERNEL", True, False)]
    graph = {"version": "1.0", "description": "SuperKernel Raw Task Information from modelRI", "modelId": "7_1",
             "deviceId": 0, "options": {}, "totalStreams": 2, "totalNodes": 5,
             "streams": [{"streamIdxInGraph": 0, "nodeCount": 3, "nodes": s0},
                         {"streamIdxInGraph": 1, "nodeCount": 2, "nodes": s1}]}
    (folder / "sk_graph_origin.json").write_text(json.dumps(graph, indent=2))
    kernel = ',"Numblocks":8,"Schem Mode":0'
    rows = [_trace("static_kernel_Add_7f3a", 5, 0, 0, "KERNEL_AIVEC", kernel),
            _trace("static_kernel_Add_7f3a", 5, 1, 10, "KERNEL_AIVEC", kernel),
            _trace("STREAM_ACTIVE", 5, 2, 20, "STREAM_ACTIVE", f',"Active Stream Id":{active_id}'),
            _trace("static_kernel_Add_7f3a", 9, 0, 30, "KERNEL_AIVEC", kernel),
            _trace("static_kernel_Add_7f3a", 9, 1, 40, "KERNEL_AIVEC", kernel)]
    (folder / "sk_mdl_origin.json").write_text("[" + ",\n".join(rows) + ",\n]")  # the writer's trailing comma
    return folder


def test_the_vendor_stream_active_names_the_activated_stream(tmp_path: Path) -> None:
    module = load_model(cascade_dump(tmp_path / "dump"))
    data = capture.dump(module)
    assert data["streams"][0]["tasks"][2] == {"seq": 2, "type": "stream_active", "stream": "s1"}
    folder = cascade_dump(tmp_path / "again")
    result = skir.compile(folder)
    assert members(result) == [{("s0", 0), ("s0", 1), ("s1", 3), ("s1", 4)}]
    # the runtime trace alone (no seq ids: capture replayed, the activated stream after its activation)
    alone = skir.compile(folder / "sk_mdl_origin.json")
    assert members(alone) == [{("s0", 0), ("s0", 1), ("s1", 3), ("s1", 4)}]


def test_a_vendor_stream_active_of_an_unknown_stream_stays_opaque(tmp_path: Path) -> None:
    module = load_model(cascade_dump(tmp_path / "dump", active_id=77))
    data = capture.dump(module)
    assert data["streams"][0]["tasks"][2] == {"seq": 2, "type": "default", "kind": "other"}
