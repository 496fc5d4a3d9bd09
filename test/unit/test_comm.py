"""Communication kernels (docs/design.md §3, "Communication kernels"): the capture JSON and IR
forms, the model's own hazards as warnings, and formation with `fuse-comm`: fused across the
collectives where co-residency and order hold, cut where they do not. Every compile is proved
(sk-check), and the hazards are checked against an order computed from the JSON alone."""

from __future__ import annotations

import copy
import itertools
import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import skir
from skir.frontends.capture import dumps
from skir.testing import random_model
from skir.testing.capture_order import ordered_after
from skir.testing.option_space import expected_refusal
from skir.testing.rewrite_oracle import check_rewrite
from skir.tools import sk_compile


def kernel(seq: int, name: str, blocks: int, args: list[str], comm: dict[str, Any] | None = None) -> dict[str, Any]:
    task: dict[str, Any] = {"seq": seq, "type": "kernel", "kernel": name, "blocks": blocks, "args": args,
                            "duration_us": 5.0}
    if comm is not None:
        task["comm"] = comm
    return task


KERNELS = {"mm": {"kernel_type": "aic_only", "params": ["in", "out"]},
           "ar": {"kernel_type": "aiv_only", "params": ["inout"]},
           "big": {"kernel_type": "aiv_only", "params": ["in", "out"], "sk_capable": False}}


def model(streams: list[list[dict[str, Any]]], events: list[str] | None = None) -> dict[str, Any]:
    return {"format": "skir.aclgraph.capture", "version": 1, "model": "tp", "cores": {"aic": 24, "aiv": 48},
            "kernels": KERNELS, "events": events or [],
            "streams": [{"name": f"s{i}", "tasks": tasks} for i, tasks in enumerate(streams)]}


AR = {"group": "tp0", "op": "all_reduce"}
# a tensor-parallel layer on one stream: row-parallel matmul, all-reduce, matmul, all-reduce
TP_LAYER = model([[kernel(0, "mm", 24, ["x", "y"]), kernel(1, "ar", 16, ["y"], {**AR, "bytes": 4096}),
                   kernel(2, "mm", 24, ["y", "x"]), kernel(3, "ar", 16, ["x"], AR)]])


def test_the_json_and_the_ir_keep_a_communication_kernel() -> None:
    module = skir.load_model(copy.deepcopy(TP_LAYER))
    text = str(module)
    assert "comm group tp0 op all_reduce bytes 4096" in text and "comm group tp0 op all_reduce\n" in text
    again = json.loads(dumps(module))
    tasks = again["streams"][0]["tasks"]
    assert tasks[1]["comm"] == {"group": "tp0", "op": "all_reduce", "bytes": 4096} and tasks[3]["comm"] == AR


@pytest.mark.parametrize(("comm", "message"), [
    ({"group": "tp 0", "op": "all_reduce"}, "comm.group: 'tp 0' is not a C identifier"),
    ({"group": "tp0", "op": "broadcast"}, "comm.op: expected a collective (one of all_reduce,"),
    ({"group": "tp0"}, "comm.op: required key is missing"),
    ({"group": "tp0", "op": "all_reduce", "bytes": -1}, "comm.bytes:"),
])
def test_bad_communication_kernels_are_located_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      comm: dict[str, Any], message: str) -> None:
    data = copy.deepcopy(TP_LAYER)
    data["streams"][0]["tasks"][3]["comm"] = comm
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    assert sk_compile.main([str(path), "-o", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"bad.json: streams[0].tasks[3].{message}" in err, err
    assert not (tmp_path / "out").exists()


def test_comm_on_a_task_that_is_no_kernel_is_refused(tmp_path: Path) -> None:
    data = model([[{"seq": 0, "type": "placeholder", "comm": AR}]])
    with pytest.raises(skir.SkirError, match=r"streams\[0\]\.tasks\[0\]\.comm: unknown key for a placeholder task"):
        skir.compile(data)


def test_fuse_comm_fuses_across_the_collectives_and_fuse_comm_0_does_not() -> None:
    fused = skir.compile(copy.deepcopy(TP_LAYER)).check()
    assert fused.proof.ok and [len(sk.members) for sk in fused.superkernels] == [4]
    apart = skir.compile(copy.deepcopy(TP_LAYER), options="fuse-comm=0").check()
    assert apart.proof.ok and not apart.superkernels  # the collectives cut the layer into single kernels
    assert {(u.seq, u.reason) for u in apart.fail_reasons} >= {(1, "comm_kernel"), (3, "comm_kernel")}


def _beside(big_blocks: int) -> dict[str, Any]:
    """The TP layer on s0 beside a vector kernel of `big_blocks` on s1 that may run at the same
    time (no event orders them; it cannot fuse, so it stays a launch of its own)."""
    data = copy.deepcopy(TP_LAYER)
    data["streams"].append({"name": "s1", "tasks": [kernel(4, "big", big_blocks, ["u", "v"])]})
    return data


def test_co_residency_cuts_where_the_device_cannot_hold_both() -> None:
    # by hand: the layer's SuperKernel is mix 1:1 of 24 blocks (24 cube + 24 vector cores); a
    # 32-block vector kernel beside it leaves it 16 of 48 vector cores: not resident
    fits = skir.compile(_beside(24)).check()  # 24 + 24 = 48: resident
    assert fits.proof.ok and [len(sk.members) for sk in fits.superkernels] == [4]
    cut = skir.compile(_beside(32)).check()
    assert cut.proof.ok
    assert not any(any(m.seq in (1, 3) for m in sk.members) for sk in cut.superkernels)
    assert "comm_coresidency" in {c.reason for c in cut.cuts} | {u.reason for u in cut.fail_reasons}
    # the oracle, from the JSON alone: the big kernel is unordered with every task of the layer
    hb = ordered_after(_beside(32))
    assert not any((4, s) in hb or (s, 4) in hb for s in range(4))


def test_an_ordered_neighbour_does_not_cut() -> None:
    """The same big kernel after the layer, ordered by an event: nothing runs beside it."""
    data = _beside(32)
    data["events"] = ["done"]
    data["streams"][0]["tasks"].append({"seq": 5, "type": "event_record", "event": "done"})
    data["streams"][1]["tasks"] = [{"seq": 6, "type": "event_wait", "event": "done"},
                                   kernel(7, "big", 32, ["u", "v"]),
                                   {"seq": 8, "type": "event_reset", "event": "done"}]
    result = skir.compile(data).check()
    assert result.proof.ok and [len(sk.members) for sk in result.superkernels] == [4]


def test_two_unordered_collectives_of_one_group_are_warned_and_never_fused_together(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = model([[kernel(0, "ar", 32, ["x"], {"group": "tp0", "op": "all_gather"})],
                  [kernel(1, "ar", 24, ["y"], {"group": "tp0", "op": "dispatch"})]])
    path = tmp_path / "hz.json"
    path.write_text(json.dumps(data))
    assert sk_compile.main([str(path), "-o", str(tmp_path / "out"), "--check"]) == 0
    out = capsys.readouterr().out
    assert "warning: comm_unordered: @s0 seq 0 and @s1 seq 1 of group tp0 are not ordered" in out
    assert "warning: comm_coresidency: @s0 seq 0 and @s1 seq 1 may run at the same time" in out  # 32 + 24 > 48
    meta = json.loads((tmp_path / "out" / "sk_meta.json").read_text())
    assert [w["warning"] for w in meta["warnings"]] == ["comm_unordered", "comm_coresidency"]
    assert not meta["superkernels"]
    assert {u["reason"] for u in meta["unfused"]} == {"comm_order"}
    from skir.schemas import validate

    validate("sk_meta", meta)


def test_the_vendor_import_knows_aiv_collectives_by_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    from skir.frontends.vendor.to_capture import comm_op_of

    assert [comm_op_of(f) for f in ("aiv_all_reduce_bfloat16_t", "aiv_all_gather_float16_t",
                                    "aiv_reduce_scatter_x", "aiv_all_to_all_y", "MoeDistributeDispatchV2_1a",
                                    "MoeDistributeCombineV2", "dispatch_ffn_combine_2", "MatMulV2")] == [
        "all_reduce", "all_gather", "reduce_scatter", "all_to_all", "dispatch", "combine", "other", None]
    dump = tmp_path / "dump"
    shutil.copytree(Path(__file__).parent / "vendor_dumps" / "one_stream", dump)
    origin = dump / "sk_graph_origin.json"
    origin.write_text(origin.read_text().replace('"static_kernel_Add_5e7d"', '"aiv_all_reduce_bfloat16_t"'))
    assert sk_compile.main([str(dump), "-o", str(tmp_path / "out"), "--check"]) == 0
    out = capsys.readouterr().out
    assert "unknown: communicator unknown for 2 communication kernel task(s): all put in one group, vendor_comm" in out
    text = (tmp_path / "out" / "model.rewritten.mlir").read_text()
    assert "comm group vendor_comm op all_reduce" in text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), options=st.sampled_from(["", "fuse-comm=0", "stream-fusion=0",
                                                                 "early-start=1", "sync-mode=data"]))
def test_random_models_with_communication_kernels(seed: int, options: str) -> None:
    """Random multi-stream models with communication kernels through the pipeline: proved, and,
    by an order computed from the JSON alone, no SuperKernel holds two collectives of one group
    that the input leaves unordered; with fuse-comm=0 none holds any."""
    data = random_model(random.Random(seed), max_streams=3, max_tasks=30, with_comm=True)
    try:
        result = skir.compile(copy.deepcopy(data), options=options).check()
    except skir.SkirError as err:
        if not expected_refusal(options, err):
            raise
        return
    assert result.proof.ok, result.proof.violations
    assert result.original is not None
    check_rewrite(result.original, result.module)  # the independent check of the rewrite
    seqs = json.loads(dumps(result.original))  # the input with its seqs (capture order replayed where absent)
    hb = ordered_after(seqs)
    comm = {(s["name"], t["seq"]): t["comm"]["group"] for s in seqs["streams"] for t in s["tasks"] if "comm" in t}
    for sk in result.superkernels:
        held = [(m.seq, comm[(m.stream, m.seq)]) for m in sk.members if (m.stream, m.seq) in comm]
        assert not held or options != "fuse-comm=0"
        for (a, ga), (b, gb) in itertools.combinations(held, 2):
            assert ga != gb or (a, b) in hb or (b, a) in hb, (sk.name, a, b)


# ---- every rank agrees ------------------------------------------------------------------------------


MIXED = model([[kernel(0, "mm", 24, ["x", "y"]), kernel(1, "ar", 16, ["y"], AR),
                kernel(2, "mm", 24, ["y", "x"]), kernel(3, "ar", 16, ["x"], {"group": "tp0", "op": "all_gather"}),
                kernel(4, "mm", 24, ["x", "y"]), kernel(5, "ar", 8, ["y"], {"group": "ep", "op": "dispatch"})]])


@pytest.mark.parametrize("options", ["fuse-comm=0", "stream-fusion=0", "select=gain", "early-start=1"])
def test_ranks_compiled_differently_agree(tmp_path: Path, capsys: pytest.CaptureFixture[str], options: str) -> None:
    from skir.analysis.comm.rank_order import collective_sequences
    from skir.tools import sk_check_ranks

    path = tmp_path / "tp.json"
    path.write_text(json.dumps(MIXED))
    assert sk_compile.main([str(path), "-o", str(tmp_path / "r0"), "-q"]) == 0
    assert sk_compile.main([str(path), "-o", str(tmp_path / "r1"), "-q", "--options", options]) == 0
    assert sk_check_ranks.main([str(tmp_path / "r0"), str(tmp_path / "r1")]) == 0
    assert "2 ranks run the same collectives in the same order (ep 1, tp0 2)" in capsys.readouterr().out
    # by hand: the input's order, whatever fused
    rewritten = skir.load_model(tmp_path / "r0" / "model.rewritten.mlir")
    assert {g: [op for op, _ in s] for g, s in collective_sequences(rewritten).items()} == {
        "tp0": ["all_reduce", "all_gather"], "ep": ["dispatch"]}


def test_a_planted_reordering_is_found(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from skir.tools import sk_check_ranks

    swapped = copy.deepcopy(MIXED)
    tasks = swapped["streams"][0]["tasks"]
    tasks[1]["comm"], tasks[3]["comm"] = tasks[3]["comm"], tasks[1]["comm"]  # this rank gathers first
    for name, data in (("r0", MIXED), ("r1", swapped)):
        skir.compile(copy.deepcopy(data)).write(tmp_path / name)
    assert sk_check_ranks.main([str(tmp_path / "r0"), str(tmp_path / "r1")]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the ranks differ: rank 1" in err and "group tp0, position 0: all_gather" in err
    report = skir.check_ranks([tmp_path / "r0", tmp_path / "r1"])
    assert not report.ok and "position 0" in (report.difference or "")
    assert sk_check_ranks.main([str(tmp_path / "r0"), str(tmp_path / "missing")]) == 1
    assert sk_check_ranks.main([str(tmp_path / "r0")]) == 1  # one rank is no comparison


def test_the_simulator_charges_a_collective_its_latency_and_bytes() -> None:
    from skir.sim import compare
    from skir.sim.costs import default_costs
    from skir.sim.engine import comm_durations

    data = copy.deepcopy(TP_LAYER)
    data["buffers"] = {"x": 65536, "y": 8192}
    module = skir.load_model(data)
    costs = default_costs()
    # by hand: latency + bytes / bandwidth; seq 1 says 4096 bytes, seq 3 writes x (65536 bytes)
    assert comm_durations(module, costs) == pytest.approx({
        ("s0", 1): costs.comm_latency_us + 4096 / (costs.comm_gbps * 1e3),
        ("s0", 3): costs.comm_latency_us + 65536 / (costs.comm_gbps * 1e3)})
    run = compare(module, module, costs, ("aclgraph",)).runs["aclgraph"]
    spans = {t.seq: t.end - t.start for t in run.tasks if t.kind == "kernel"}
    # the two all-reduces are the same kernel (the same cache miss): they differ by their bytes alone
    assert spans[3] - spans[1] == pytest.approx((65536 - 4096) / (costs.comm_gbps * 1e3))


# ---- sk-check proves co-residency and order on the rewritten model -----------------------------------------


def _rewritten_text() -> str:
    return str(skir.compile(copy.deepcopy(TP_LAYER)).module)


def _violations(text: str) -> list[str]:
    from skir.analysis.proof.sk_check import check_module

    return check_module(skir.parse(text)).violations


def test_sk_check_proves_a_fused_layer_and_finds_a_neighbour_it_cannot_hold() -> None:
    text = _rewritten_text()
    assert _violations(text) == []
    buffers = "    aclgraph.buffer @y\n    aclgraph.buffer @u\n    aclgraph.buffer @v\n"
    stream = "    aclgraph.stream @s1 {\n      aclgraph.launch seq 9 @big blocks 32 args(@u, @v)\n    }\n"
    beside = text.replace("    aclgraph.buffer @y\n", buffers).replace("    sk.kernel @tp_sk0",
                                                                       stream + "    sk.kernel @tp_sk0", 1)
    found = _violations(beside)
    # by hand: the SuperKernel holds 24:24 cores, the kernel beside it 0:32, the device 24:48
    assert found == ["tp_sk0: comm_coresidency: it holds a communication sub-task and 24:24 cores, and @s1 seq 9 "
                     "(0:32) may run beside it: more than the device's 24:48"]


def test_sk_check_finds_collectives_of_one_group_the_superkernel_leaves_unordered() -> None:
    text = _rewritten_text()
    unordered = text.replace("from @s0 seq 2 on aic after %1", "from @s0 seq 2 on aic").replace(
        "from @s0 seq 3 on aiv after %2", "from @s0 seq 3 on aiv")
    assert unordered.count(" after %") == text.count(" after %") - 2
    assert any("comm_order: sub-tasks 4 and 8 of group tp0 are not ordered" in v for v in _violations(unordered))
    # the sync that keeps them ordered: without it the proof of the dependencies fails
    without_sync = text.replace("      sk.barrier sync_all\n", "")
    assert without_sync != text
    assert _violations(without_sync)


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_emulation_holds_a_collectives_blocks_at_a_rendezvous(tmp_path: Path) -> None:
    """A communication sub-kernel spins on its peers: in host emulation its stub waits until all
    its blocks are inside. The fused layer emulates clean; planted, an all-reduce of 32 blocks in
    a SuperKernel with 24 vector cores (a hazard formation never forms) deadlocks, naming it."""
    from skir.hostsim.runner import emulate
    from skir.targets.emulation import emulation_specs

    result = skir.compile(copy.deepcopy(TP_LAYER)).emulate()
    assert all(e.ok for e in result.emulation)
    assert result.original is not None
    text = str(result.module).replace("sk.subtask @ar blocks 16 offset 6", "sk.subtask @ar blocks 32 offset 6").replace(
        'ascendc.guarded_call "ar_middle" offset 6 copies 4 on aiv logical 16',
        'ascendc.guarded_call "ar_middle" offset 6 copies 4 on aiv logical 32')
    (spec,) = emulation_specs(skir.parse(text), result.original)
    emu = emulate(spec, tmp_path, cache=False)
    assert not emu.ok and emu.verdict.startswith("deadlock: ")
    assert "the rendezvous of communication sub-kernel ar_middle@6: all its 32 blocks must be resident" in emu.verdict


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
# a communication launch and a plain one of a kernel without parameters share one args offset:
# the stubs tell them apart by core and call count, as the log check does
@example(seed=221)
def test_random_models_with_communication_kernels_emulate_clean(seed: int) -> None:
    data = random_model(random.Random(seed), max_streams=3, max_tasks=24, with_comm=True)
    try:
        result = skir.compile(data).check().emulate()
    except skir.SkirError as err:
        if not expected_refusal("", err):
            raise
        return
    for emu in result.emulation:
        assert emu.ok, (emu.verdict, emu.problems)


def test_ranks_with_different_profiles_agree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """select=gain judged on each rank's own measurements may fuse differently: the order holds."""
    from skir.tools import sk_check_ranks

    path = tmp_path / "tp.json"
    path.write_text(json.dumps(MIXED))
    for rank, us in ((0, 1.0), (1, 80.0)):
        profile = tmp_path / f"p{rank}.json"
        profile.write_text(json.dumps({"format": "skir.profile", "version": 1, "model": "tp",
                                       "kernels": {"mm": [us, us, us], "ar": [us, us, us]}}))
        assert sk_compile.main([str(path), "-o", str(tmp_path / f"r{rank}"), "-q", "--options", "select=gain",
                                "--profile", str(profile)]) == 0
    assert sk_check_ranks.main([str(tmp_path / "r0"), str(tmp_path / "r1")]) == 0
