"""Random models through the whole pipeline, checked by an independent checker.

The checker knows nothing of how skir forms SuperKernels: from the original and the
rewritten module alone it checks that each stream keeps its slots, that every kernel
task is fused exactly once or carries exactly one fail reason, that each SuperKernel is
launched from the slot of its first member, and that every happens-before edge of the
original model still holds in the rewritten one (a SuperKernel standing for all its
members). A few models also run in host emulation.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import skir
from skir.analysis.happens_before import HappensBefore
from skir.analysis.task_graph import TaskGraph
from skir.api import the_model
from skir.dialects.aclgraph import DisabledOp, LaunchOp, LaunchSkOp, StreamOp
from skir.dialects.superkernel import SuperKernelOp
from skir.passes.common import FAIL_ATTR
from skir.testing import random_model

REASONS = {
    "in_unfusible_scope", "not_in_scope", "dynamic_task", "op_unsupported", "exceed_core_max", "external_depend",
    "default_node", "isolated_event", "non_convex", "stream_fusion_off", "syncall_block_mismatch", "deadlock",
    "resource_insufficient", "single_task",
}


def option_strings() -> st.SearchStrategy[str]:
    keys = st.fixed_dictionaries(
        {},
        optional={
            "split-mode": st.sampled_from(["1", "2", "4", "7"]),
            "func-align": st.sampled_from(["0", "256", "512"]),
            "early-start": st.sampled_from(["0", "1"]),
        },
    )
    return keys.map(lambda d: ":".join(f"{k}={v}" for k, v in d.items()))


def check_rewrite(original, rewritten) -> None:  # type: ignore[no-untyped-def]
    before, after = the_model(original), the_model(rewritten)
    streams_before = {s.sym_name.data: s for s in before.body.block.ops if isinstance(s, StreamOp)}
    streams_after = {s.sym_name.data: s for s in after.body.block.ops if isinstance(s, StreamOp)}
    assert streams_before.keys() == streams_after.keys()
    for name, stream in streams_before.items():
        seqs = [op.seq.data for op in stream.body.block.ops]
        assert [op.seq.data for op in streams_after[name].body.block.ops] == seqs, name
    fused: dict[int, str] = {}
    for sk in after.body.block.ops:
        if isinstance(sk, SuperKernelOp):
            for sub in sk.subtasks():
                assert sub.seq.data not in fused, f"seq {sub.seq.data} fused twice"
                fused[sub.seq.data] = sk.sym_name.data
    after_ops = {op.seq.data: op for s in streams_after.values() for op in s.body.block.ops}
    for stream in streams_before.values():
        for op in stream.body.block.ops:
            if not isinstance(op, LaunchOp):
                assert type(after_ops[op.seq.data]) is type(op)
                continue
            new = after_ops[op.seq.data]
            if op.seq.data in fused:
                assert isinstance(new, LaunchSkOp | DisabledOp)
                assert FAIL_ATTR not in new.attributes
            else:
                assert isinstance(new, LaunchOp)
                assert new.attributes[FAIL_ATTR].data in REASONS  # type: ignore[attr-defined]
    members: dict[str, list[int]] = {}
    for seq, name in fused.items():
        members.setdefault(name, []).append(seq)
    for name, seqs in members.items():
        host = after_ops[min(seqs)]
        assert isinstance(host, LaunchSkOp) and host.sk.root_reference.data == name
        for seq in seqs:
            if seq != min(seqs):
                assert isinstance(after_ops[seq], DisabledOp)
    # every original hb edge holds, a SuperKernel standing for its members
    g0, g1 = TaskGraph(before), TaskGraph(after)
    hb0, hb1 = HappensBefore(g0), HappensBefore(g1)
    node1 = {seq: n for n, seq in enumerate(g1.seq)}
    rep = {seq: node1[min(members[fused[seq]])] if seq in fused else node1[seq] for seq in g0.seq}
    disabled_after = {seq for seq, op in after_ops.items() if isinstance(op, DisabledOp)}
    for a in range(len(g0)):
        for b in range(len(g0)):
            sa, sb = g0.seq[a], g0.seq[b]
            if not hb0.before(a, b) or sa in disabled_after - fused.keys() or sb in disabled_after - fused.keys():
                continue
            ra, rb = rep[sa], rep[sb]
            if ra != rb:
                assert hb1.before(ra, rb), f"{g0.name(a)} -> {g0.name(b)} lost"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), options=option_strings())
def test_random_models_through_the_pipeline(seed: int, options: str) -> None:
    data = random_model(random.Random(seed), max_streams=4, max_tasks=40)
    result = skir.compile(data, options=options)
    assert result.original is not None
    check_rewrite(result.original, result.module)


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), options=option_strings())
def test_random_models_emulate_clean(tmp_path: Path, seed: int, options: str) -> None:
    data = random_model(random.Random(seed), max_streams=3, max_tasks=24)
    result = skir.compile(data, options=options, emulate=True)
    for emu in result.emulation:
        assert emu.ok, (emu.verdict, emu.problems)
