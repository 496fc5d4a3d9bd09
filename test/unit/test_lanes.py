"""Lanes (docs/design.md §3 "Lanes"): independent chains of a queue SuperKernel on disjoint cores,
each ordered by rounds guarded to its cores. What is formed against hand-derived lanes, the
proof per core range and what deleting or moving a sync does to it, the core ranges against
a brute-force reading, host emulation and the simulator's gain."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

import skir
from skir.analysis.placement.core_ranges import core_ranges
from skir.analysis.proof.sk_check import check_module
from skir.analysis.proof.sync_machine import SyncMachine
from skir.api import parse
from skir.dialects.hardware import CoreType
from skir.dialects.superkernel import BarrierOp, SetFlagOp, SubtaskOp, SuperKernelOp, WaitFlagOp

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "test" / "unit" / "models" / "two_chains.json"
needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")


def two_chains(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(MODEL.read_text())
    for name, value in changes.items():
        data["kernels"][name].update(value)
    return data


def the_sk(module: Any) -> SuperKernelOp:
    sks = [op for op in module.walk() if isinstance(op, SuperKernelOp)]
    assert len(sks) == 1
    return sks[0]


def by_seq(sk: SuperKernelOp) -> dict[int, SubtaskOp]:
    return {s.seq.data: s for s in sk.subtasks()}


def test_two_chains_run_as_two_lanes() -> None:
    result = skir.compile(two_chains(), options="placement=auto")
    sk = the_sk(result.module)
    subs = by_seq(sk)
    # by hand: chain q (seq 2, 3, 4: 8 AIVs) is lane 0 on AIVs [0, 8), chain k (seq 6, 7, 10:
    # 16 AIVs) lane 1 on [8, 24); the layer norms before and after stay on all 48 AIVs
    assert [subs[q].first_block for q in (2, 3, 4)] == [0, 0, 0]
    assert [subs[k].first_block for k in (6, 7, 10)] == [8, 8, 8]
    assert subs[0].first is None and subs[9].first is None
    flags = [op for op in sk.program() if isinstance(op, SetFlagOp | WaitFlagOp) and op.blocks is not None]
    guards = {(type(op).__name__, op.flag.data, op.guard().start, op.guard().stop)  # type: ignore[union-attr]
              for op in flags}
    # lane 0 takes flag 15, lane 1 flag 10 (from 15 down, none used by anything else);
    # two rounds each (after seq 2 and 3; after seq 6 and 7), the other cores arrive early
    assert guards == {
        ("SetFlagOp", 15, 8, 48), ("WaitFlagOp", 15, 8, 48),  # early arrivals and drains of lane 0's rounds
        ("SetFlagOp", 15, 0, 8), ("WaitFlagOp", 15, 0, 8),  # lane 0's rounds
        ("SetFlagOp", 10, 0, 8), ("WaitFlagOp", 10, 0, 8), ("SetFlagOp", 10, 24, 48), ("WaitFlagOp", 10, 24, 48),
        ("SetFlagOp", 10, 8, 24), ("WaitFlagOp", 10, 8, 24),
    }
    counts = {key: sum(1 for op in flags if (type(op).__name__, op.flag.data, op.guard().start) == key)
              for key in {(type(op).__name__, op.flag.data, op.guard().start) for op in flags}}
    assert all(n == 2 for n in counts.values()), counts  # each: one per round, two rounds a lane
    # the region's four barriers are gone; the barrier after the ln before it and after it stay
    assert sum(isinstance(op, BarrierOp) for op in sk.program()) == 2
    assert result.check().proof is not None and result.proof.ok, result.proof.violations
    # SK meta reads the lanes back from the program
    from skir.targets.sk_meta import sk_meta

    meta = sk_meta(result.module)["superkernels"][0]["lanes"]
    place = sk.positions()
    assert meta == [
        {"core": "aiv", "flag": 15, "first": 0, "cores": 8, "rounds": 2,
         "subtasks": [place[subs[q]] for q in (2, 3, 4)]},
        {"core": "aiv", "flag": 10, "first": 8, "cores": 16, "rounds": 2,
         "subtasks": [place[subs[k]] for k in (6, 7, 10)]},
    ]


def test_the_lanes_gain_in_the_simulator() -> None:
    from skir.sim import compare

    off = skir.compile(two_chains())
    on = skir.compile(two_chains(), options="placement=auto")
    gained = compare(off.original, off.module).runs["superkernel"].makespan - \
        compare(on.original, on.module).runs["superkernel"].makespan
    # by hand: the region's critical path was q1 + q2 + max(q3, k1) + k2 + k3 = 3 + 1 + 3 + 3 + 1
    # = 11 us of compute plus four barriers; with lanes it is lane q, 3 + 1 + 3 = 7 us plus two
    # rounds, arrivals and the k lane's placement: about 4 us less, plus the barriers saved
    assert 3.5 <= gained <= 6.0, gained


@pytest.mark.parametrize("changes", [
    {"k": {"sk_system_args": False}},  # the k kernels do not take SkSystemArgs: no lanes
    {"q": {"sync_flags": list(range(16))}},  # no free flag id (the q kernel uses them all)
])
def test_no_lanes_without_the_convention_or_a_flag(changes: dict[str, Any]) -> None:
    data = two_chains(**changes)
    if "sync_flags" in changes.get("q", {}):
        data["kernels"]["q"]["sync_flags"] = [f for f in range(16) if f not in (11, 12, 13, 14)]
    sk = the_sk(skir.compile(data, options="placement=auto").module)
    assert not any(isinstance(op, SetFlagOp) and op.blocks is not None for op in sk.program())


def test_no_lanes_where_they_would_not_pay() -> None:
    data = two_chains()
    for stream in data["streams"]:
        for task in stream["tasks"]:
            if task.get("kernel") in ("q", "k"):
                task["duration_us"] = 0.01
    # by hand (default costs): as it stands, 0.06 us of compute and four barriers (1.2 us); as
    # lanes, lane k alone takes 3 x (0.01 + 0.2 placement) + 2 rounds (0.5 us) and the early
    # arrivals and drains 4 x 0.25 us: 2.1 us against 1.26, so the region keeps its barriers
    sk = the_sk(skir.compile(data, options="placement=auto").module)
    assert not any(isinstance(op, SetFlagOp) and op.blocks is not None for op in sk.program())


def _rewritten() -> str:
    return str(skir.compile(two_chains(), options="placement=auto").module)


def _without(text: str, pattern: str) -> str:
    lines = text.splitlines()
    hits = [i for i, line in enumerate(lines) if re.search(pattern, line)]
    assert hits, pattern
    del lines[hits[0]]
    return "\n".join(lines)


@pytest.mark.parametrize(("pattern", "expect"), [
    (r"sk\.wait_flag flag 15 on aiv blocks 8 at 0$", "edge not enforced"),  # a round's wait
    (r"sk\.set_flag mode 0 flag 15 pipe mte3 on aiv blocks 8 at 0$", "deadlock"),  # a round's set
    (r"sk\.set_flag mode 0 flag 10 pipe mte3 on aiv blocks 24 at 24$", "deadlock"),  # an early arrival
    (r"sk\.wait_flag flag 10 on aiv blocks 8 at 0$", "leftover"),  # a drain
])
def test_deleting_a_lane_sync_fails_the_proof(pattern: str, expect: str) -> None:
    module = parse(_without(_rewritten(), pattern))
    report = check_module(module)
    assert not report.ok
    assert any(expect in v for v in report.violations), report.violations
    # the entry still has the deleted op: the placement check reads it and disagrees
    assert any(v.startswith("placement:") and "the program does not" in v for v in report.violations)


def test_a_moved_guard_in_the_entry_fails_the_placement_check() -> None:
    text = _rewritten()
    moved = text.replace("ascendc.if_block logical 48 from 8 {", "ascendc.if_block logical 48 from 9 {", 1)
    assert moved != text
    report = check_module(parse(moved))
    assert any("the entry lacks the" in v and "flag" in v for v in report.violations), report.violations


def test_a_deadlock_names_the_range_that_waits() -> None:
    text = """aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params(in) sk_system_args
  sk.kernel @m_sk0 aiv_only blocks 48 queue slots 2 {
    %0 = sk.subtask @a blocks 8 offset 1 from @s0 seq 0 on aiv
    sk.set_flag mode 0 flag 10 pipe mte3 on aiv blocks 8 at 0
    sk.wait_flag flag 10 on aiv blocks 8 at 0
  }
}"""
    sk = the_sk(parse(text))
    machine = SyncMachine.isolated(sk)
    blocked = machine.run()
    # AIVs [8, 48) never set, so the round never completes: [0, 8) waits for ever
    assert [(b.agent, b.what) for b in blocked] == [("m_sk0 aiv [0, 8)", "sk.wait_flag 2")]


def _brute_ranges(sk: SuperKernelOp) -> dict[CoreType, list[range]]:
    """Cores of a type that run the same flag ops and sub-task calls, by comparing each core's
    program, and pairing whole ranges across the types (a block's AIC and its AIVs together)."""
    cores, r = sk.cores(), max(1, sk.cores()[CoreType.AIV] // sk.blocks.data)
    place = sk.positions()

    def signature(core: CoreType, i: int) -> tuple[int, ...]:
        out = []
        for op in sk.program_for(core):
            if isinstance(op, SetFlagOp | WaitFlagOp) and op.guard() is not None:
                out.append(place[op] if i in op.guard() else -1)  # type: ignore[operator]
            elif isinstance(op, SubtaskOp):
                first, n = op.first_block, op.blocks.data
                if core is CoreType.AIV and op.cores.data.value != "aiv":
                    first, n = first * r, n * r
                out.append(place[op] if first <= i < first + n else -1)
        return tuple(out)

    def block_signature(b: int) -> tuple[object, ...]:
        return (signature(CoreType.AIC, b), *(signature(CoreType.AIV, b * r + j) for j in range(r)))

    out: dict[CoreType, list[range]] = {}
    for core in (CoreType.AIC, CoreType.AIV):
        n = cores[core]
        if not n:
            continue
        cut = [0]
        for i in range(1, n):
            if core is CoreType.AIC:
                differs = block_signature(i) != block_signature(i - 1)
            else:
                differs = signature(core, i) != signature(core, i - 1) or \
                    (cores[CoreType.AIC] and i % r == 0 and block_signature(i // r) != block_signature(i // r - 1))
            if differs:
                cut.append(i)
        out[core] = [range(a, b) for a, b in zip(cut, [*cut[1:], n])]
    return out


def test_core_ranges_are_no_coarser_than_a_brute_force_reading() -> None:
    rng = random.Random(7)
    for _ in range(40):
        first, n = rng.randrange(0, 40), rng.randrange(1, 8)
        sub_first = rng.randrange(0, 20)
        text = f"""aclgraph.model @m cores(aic = 24, aiv = 48) {{
  aclgraph.kernel @a aiv_only params(in) sk_system_args
  aclgraph.kernel @c mix_aic_1_2 params(in) sk_system_args
  sk.kernel @k mix_aic_1_2 blocks 24 queue slots 3 {{
    %0 = sk.subtask @c blocks 4 at {sub_first} offset 1 from @s0 seq 0 on mix
    sk.set_flag mode 0 flag 10 pipe mte3 on aiv blocks {n} at {first}
    sk.wait_flag flag 10 on aiv blocks {n} at {first}
  }}
}}"""
        sk = the_sk(parse(text))
        ranges, brute = core_ranges(sk), _brute_ranges(sk)
        for core, parts in ranges.items():
            # every range of the machine lies inside one range of equal programs
            for part in parts:
                assert any(part.start >= b.start and part.stop <= b.stop for b in brute[core]), (core, part, brute)
        r = 2
        for aiv in ranges[CoreType.AIV]:  # each AIV range lies in the blocks of one AIC range
            assert sum(1 for aic in ranges[CoreType.AIC]
                       if aic.start * r < aiv.stop and aiv.start < aic.stop * r) == 1, (ranges, aiv)


@needs_gxx
def test_lanes_run_in_emulation() -> None:
    result = skir.compile(two_chains(), options="placement=auto").emulate(cache=False)
    assert result.emulation and all(e.ok for e in result.emulation), \
        [(e.verdict, e.problems) for e in result.emulation]
    text = "\n".join(str(op) for op in result.module.walk() if op.name == "ascendc.source")
    assert "if_block logical 48 from 8" in text  # the early arrivals of lane 0 on AIVs 8-47


def test_the_branches_of_a_generated_fork_join_become_its_lanes() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("gen_model", ROOT / "tools" / "gen_model.py")
    assert spec is not None and spec.loader is not None
    gen_model = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen_model)
    result = skir.compile(gen_model.generate("branches", 100, seed=0, streams=4), options="placement=auto")
    sk = the_sk(result.module)
    # independent of the analysis: between two s0 kernels each fork round's branches are its
    # streams s1..s3, one chain each; the lanes must be exactly those, one range per stream
    rounds: list[list[SubtaskOp]] = [[]]
    for sub in sk.subtasks():
        if sub.stream.root_reference.data == "s0":
            rounds.append([])
        else:
            rounds[-1].append(sub)
    laned = 0
    for branch in (r for r in rounds if r):
        streams_at: dict[int, set[str]] = {}
        for sub in branch:
            streams_at.setdefault(sub.first_block, set()).add(sub.stream.root_reference.data)
        if len(streams_at) > 1:
            laned += 1
            assert all(len(s) == 1 for s in streams_at.values()), streams_at
            assert len(streams_at) == len({s.stream.root_reference.data for s in branch})
    assert laned >= len([r for r in rounds if r]) - 1
    assert result.check().proof is not None and result.proof.ok, result.proof.violations


def mixed_branches(seed: int) -> dict[str, Any]:
    """A fork of 2-3 branches, each a chain of 2-4 small cube or vector kernels taking
    SkSystemArgs (random blocks and durations), between two full-width vector kernels; a mix
    kernel now and then, which no lane takes (it ends the run around it)."""
    rng = random.Random(seed)
    kernels = {"ln": {"kernel_type": "aiv_only", "params": ["in", "out"]},
               "c": {"kernel_type": "aic_only", "params": ["in", "out"], "sk_system_args": True},
               "v": {"kernel_type": "aiv_only", "params": ["in", "out"], "sk_system_args": True},
               "m": {"kernel_type": "mix_aic_1_2", "params": ["in", "out"], "sk_system_args": True}}
    seq = iter(range(1000))
    s0: list[dict[str, Any]] = [{"type": "kernel", "kernel": "ln", "blocks": 48, "args": ["x", "h"],
                                 "duration_us": 2.0, "seq": next(seq)},
                                {"type": "event_record", "event": "fork", "seq": next(seq)}]
    streams = [{"name": "s0", "tasks": s0}]
    branches = rng.randint(2, 3)
    joins = []
    for b in range(1, branches + 1):
        tasks: list[dict[str, Any]] = [{"type": "event_wait", "event": "fork", "seq": next(seq)}]
        for j in range(rng.randint(2, 4)):
            name = rng.choice("cvcvcvcvm")
            blocks = rng.randint(1, 4) * (2 if name == "v" else 1)
            tasks.append({"type": "kernel", "kernel": name, "blocks": blocks, "args": [f"b{b}_{j}", f"b{b}_{j + 1}"],
                          "duration_us": round(rng.uniform(0.5, 4.0), 2), "seq": next(seq)})
        joins.append(f"join{b}")
        tasks.append({"type": "event_record", "event": f"join{b}", "seq": next(seq)})
        streams.append({"name": f"s{b}", "tasks": tasks})
    s0 += [{"type": "event_wait", "event": j, "seq": next(seq)} for j in joins]
    s0.append({"type": "kernel", "kernel": "ln", "blocks": 48, "args": ["y", "z"], "duration_us": 2.0,
               "seq": next(seq)})
    return {"format": "skir.aclgraph.capture", "version": 1, "model": f"mixed_{seed}", "cores": {"aic": 24, "aiv": 48},
            "kernels": kernels, "events": ["fork", *joins], "streams": streams}


def test_random_mixed_branches_are_proved() -> None:
    mixed = 0
    for seed in range(40):
        result = skir.compile(mixed_branches(seed), options="placement=auto")
        report = check_module(result.module)
        assert report.ok, (seed, report.violations)
        guarded = {op.core.data for op in result.module.walk() if isinstance(op, SetFlagOp) and op.blocks is not None}
        mixed += len(guarded) == 2
    assert mixed >= 5, mixed  # the generator is meant to give lanes with rounds on both types


@needs_gxx
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_mixed_branches_run_in_emulation(seed: int) -> None:
    result = skir.compile(mixed_branches(seed), options="placement=auto").emulate(cache=False)
    assert result.emulation and all(e.ok for e in result.emulation), \
        [(e.verdict, e.problems) for e in result.emulation]


def test_chains_mixing_core_types_run_as_lanes_by_blocks() -> None:
    data = json.loads((ROOT / "test" / "unit" / "models" / "mixed_chains.json").read_text())
    result = skir.compile(data, options="placement=auto")
    sk = the_sk(result.module)
    subs = by_seq(sk)
    # by hand: chain s0 (cube 4 blocks, vector 8 AIVs, cube 4 blocks) is lane 0 on blocks [0, 4);
    # chain s1 (cube 8 blocks, vector 16 AIVs, cube 8 blocks) lane 1 on blocks [4, 12): its
    # vector kernel on AIVs [8, 24), the AIVs of those blocks
    assert [subs[s].first_block for s in (2, 3, 4)] == [0, 0, 0]
    assert [subs[s].first_block for s in (6, 7, 10)] == [4, 8, 4]
    rounds = {(op.core.data.value, op.guard().start, op.guard().stop)  # type: ignore[union-attr]
              for op, after in zip(sk.program(), sk.program()[1:])
              if isinstance(op, SetFlagOp) and op.blocks is not None and isinstance(after, WaitFlagOp)
              and after.guard() == op.guard()}
    # each lane's rounds on its own cores of each type: AICs [0, 4) and [4, 12), AIVs [0, 8) and [8, 24)
    assert rounds <= {("aic", 0, 4), ("aic", 4, 12), ("aiv", 0, 8), ("aiv", 8, 24)}
    assert {("aic", 0, 4), ("aic", 4, 12)} <= rounds
    assert result.check().proof is not None and result.proof.ok, result.proof.violations
    # deleting one of lane 1's rounds on the AICs breaks an edge of its chain
    text = str(result.module)
    broken = _without(text, r"sk\.wait_flag flag \d+ on aic blocks 8 at 4$")
    report = check_module(parse(broken))
    assert any("edge not enforced" in v or "leftover" in v for v in report.violations), report.violations


@pytest.mark.parametrize(("guarded", "expect"), [
    (False, ["leftover: k aic flag 10 holds 1 credit(s) at the end"]),
    (True, ["leftover: k aic flag 10 holds 1 credit(s) at the end",
            "leftover: k aiv flag 9: a set some cores made and the others never did (a mode-0 round, or a block's "
            "mode-2 pairing, never completes)"]),
])
def test_a_set_nobody_completes_or_takes_is_a_leftover(guarded: bool, expect: list[str]) -> None:
    from skir.analysis.proof.sk_check import CheckReport, _check_leftovers

    # an AIV-only SuperKernel: a mode-2 set toward the AICs it does not launch, and (guarded) a
    # mode-0 set that AIVs 4-7 never join
    round_set = "    sk.set_flag mode 0 flag 9 pipe mte3 on aiv blocks 4 at 0\n" if guarded else ""
    text = f"""aclgraph.model @m cores(aic = 24, aiv = 48) {{
  aclgraph.kernel @a aiv_only params(in)
  sk.kernel @k mix_aiv_1_0 blocks 8 queue slots 2 {{
    %0 = sk.subtask @a blocks 8 offset 1 from @s0 seq 0 on aiv
    sk.set_flag mode 2 flag 10 pipe mte3 on aiv
{round_set}  }}
}}"""
    machine = SyncMachine.isolated(the_sk(parse(text)))
    assert machine.run() == []
    report = CheckReport()
    _check_leftovers(report, machine)
    assert report.violations == expect


def test_each_barrier_is_charged_its_core_types_cost() -> None:
    """A region's time charges an all-core barrier of the AICs `barrier_all_aic_us` and one of the
    AIVs `barrier_all_aiv_us` (docs/design.md §3 "Lanes"): the derivative of the region's time
    in each cost counts the barriers of that type, read off the program by hand."""
    from skir.analysis.placement.lanes import LaneCosts, plan_lanes
    from skir.options import SkOptions
    from skir.passes.common import superkernels
    from skir.sim.costs import default_costs
    from skir.sim.engine import durations_of

    data = json.loads((ROOT / "test" / "unit" / "models" / "mixed_chains.json").read_text())
    module = skir.compile(data, options="placement=off").module
    sk, kernels, _ = next(superkernels(module, SkOptions()))

    known = durations_of(module)
    sim = default_costs()

    def region(aic: float, aiv: float) -> Any:
        costs = LaneCosts(sim.placement_us, {CoreType.AIC: aic, CoreType.AIV: aiv}, sim.flag_set_us, sim.flag_wait_us)
        regions = plan_lanes(sk, kernels, lambda sub: known[(sub.stream.root_reference.data, sub.seq.data)], costs)
        assert len(regions) == 1
        return regions[0]

    eps = 1e-3
    base = region(0.3, 0.3)
    d_aic, d_aiv = region(0.3 + eps, 0.3), region(0.3, 0.3 + eps)
    assert (d_aic.start, d_aic.end, d_aiv.start, d_aiv.end) == (base.start, base.end, base.start, base.end)
    place = sk.positions()
    window = [op for op in sk.program()
              if place[base.start] <= place[op] <= place[base.end] and isinstance(op, BarrierOp)]
    n_aic = sum(1 for op in window if op.kind.data.value == "all_aic")
    n_aiv = sum(1 for op in window if op.kind.data.value == "all_aiv")
    assert n_aic and n_aiv
    assert round((d_aic.before_us - base.before_us) / eps) == n_aic
    assert round((d_aiv.before_us - base.before_us) / eps) == n_aiv
    # after the split only the closing barriers remain, one per type the region closes on
    assert round((d_aic.after_us - base.after_us) / eps) == base.close.count(CoreType.AIC)
    assert round((d_aiv.after_us - base.after_us) / eps) == base.close.count(CoreType.AIV)
