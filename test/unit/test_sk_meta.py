"""SK meta (`skir.targets.sk_meta`): the argument table, the counts and the products.

For random models through `skir.compile`, every argument slot of every SuperKernel is
described exactly once and agrees with the `sk.kernel` op, fused + unfused kernel tasks
are all the kernel tasks of the input, every `sk.fail` kernel is listed, and the JSON is
byte-identical across two runs. `sk-compile` writes `sk_meta.json` and
`sk_fusion_fail_reasons.log`.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

import skir
from skir.analysis.formation.fail_reasons import FailReason
from skir.api import the_model
from skir.dialects.aclgraph import LaunchOp, StreamOp
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.superkernel import LockOp, SuperKernelOp
from skir.errors import ExitCode
from skir.options import parse_options
from skir.passes.common import FAIL_ATTR
from skir.targets.sk_meta import dump_meta, render_fail_reasons, sk_meta
from skir.testing import random_model
from skir.tools import sk_compile

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
OPTIONS = ("", "feed-sync-all=1:profiling=1", "stream-fusion=0", "early-start=1:feed-sync-all=1", "profiling=1")
SEEDS = range(150)

TWO_STREAMS = """
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params(in, out)
  aclgraph.kernel @b aic_only params(in, in, out)
  aclgraph.kernel @c aiv_only params(inout)
  aclgraph.kernel @ns aiv_only params(in) not_sk_capable
  aclgraph.buffer @x
  aclgraph.buffer @y
  aclgraph.event @e
  aclgraph.event @g
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @a blocks 48 args(@x, @y)
    aclgraph.record seq 1 @e
    aclgraph.wait seq 4 @g
    aclgraph.launch seq 5 @b blocks 24 args(@x, @y, @x)
    aclgraph.launch seq 7 @ns blocks 8 args(@x)
    aclgraph.launch seq 8 @c blocks 8 args(@x)
    aclgraph.launch seq 9 @b blocks 30 args(@x, @y, @x)
    aclgraph.launch seq 10 @c blocks 8 args(@x)
    aclgraph.reset seq 12 @g
  }
  aclgraph.stream @s1 {
    aclgraph.opaque seq 2 aicpu
    aclgraph.record seq 3 @g
    aclgraph.wait seq 13 @e
    aclgraph.reset seq 14 @e
  }
}
"""


def _compile(seed: int) -> tuple[skir.CompileResult, dict]:  # type: ignore[type-arg]
    data = random_model(random.Random(seed), max_streams=4, max_tasks=40)
    result = skir.compile(data, options=OPTIONS[seed % len(OPTIONS)])
    return result, sk_meta(result.module, result.original)


def _check_tables(result: skir.CompileResult, meta: dict) -> None:  # type: ignore[type-arg]
    model = the_model(result.module)
    kernels = {op.sym_name.data: op for op in model.body.block.ops if isinstance(op, KernelOp)}
    sk_ops = {op.sym_name.data: op for op in model.body.block.ops if isinstance(op, SuperKernelOp)}
    assert [sk["name"] for sk in meta["superkernels"]] == list(sk_ops)
    for sk in meta["superkernels"]:
        op = sk_ops[sk["name"]]
        args = sk["args"]
        assert [a["slot"] for a in args] == list(range(op.arg_slots.data))
        assert args[0] == {"slot": 0, "source": "ffts_base"}
        tasks = Counter((a["stream"], a["seq"], a["arg"]) for a in args if a["source"] == "task")
        expected = Counter(
            (m["stream"], m["seq"], j) for m in sk["members"] for j in range(kernels[m["kernel"]].num_params)
        )
        assert tasks == expected and max(tasks.values(), default=1) == 1
        slot_of = {(a["stream"], a["seq"], a["arg"]): a["slot"] for a in args if a["source"] == "task"}
        for m in sk["members"]:
            if kernels[m["kernel"]].num_params:
                assert slot_of[(m["stream"], m["seq"], 0)] == m["arg_offset"]
        locks = {(lk.slot.data, lk.cell.root_reference.data) for lk in op.program() if isinstance(lk, LockOp)}
        cells = {(a["slot"], a["cell"]) for a in args if a["source"] == "cell"}
        assert cells == locks
        options, _ = parse_options(sk["options"])
        tail = [a["source"] for a in args if a["source"] in ("workspace", "profiling", "profiling_task_id")]
        assert tail == ["workspace"] * options.feed_sync_all + ["profiling", "profiling_task_id"] * options.profiling
        assert [a["source"] for a in args[len(args) - len(tail):]] == tail
        assert len(sk["members"]) == len(op.subtasks())


@pytest.mark.parametrize("seed", SEEDS)
def test_random_models(seed: int) -> None:
    result, meta = _compile(seed)
    assert meta["format"] == "skir.sk_meta" and meta["version"] == 1
    _check_tables(result, meta)
    summary = meta["summary"]
    original = the_model(result.original)  # type: ignore[arg-type]
    kernel_tasks = sum(
        isinstance(t, LaunchOp) for s in original.body.block.ops if isinstance(s, StreamOp) for t in s.body.block.ops
    )
    assert summary["kernel_tasks"] == kernel_tasks
    assert summary["fused"] + summary["unfused"] == summary["kernel_tasks"]
    assert summary["pending"] == 0 and meta["note"] is None
    assert summary["superkernels"] == len(result.superkernels)
    assert summary["launches_saved"] == result.launches_saved
    failed = {
        (s.sym_name.data, t.seq.data, t.attributes[FAIL_ATTR].data)  # type: ignore[attr-defined]
        for s in the_model(result.module).body.block.ops if isinstance(s, StreamOp)
        for t in s.body.block.ops if FAIL_ATTR in t.attributes
    }
    assert {(u["stream"], u["seq"], u["reason"]) for u in meta["unfused"]} == failed
    for u in meta["unfused"]:
        assert u["vendor_reason"] == FailReason(u["reason"]).vendor_reason
    assert sum(summary["by_reason"].values()) == summary["unfused"]
    assert list(summary["by_reason"]) == sorted(summary["by_reason"])
    _, meta2 = _compile(seed)
    assert dump_meta(meta2) == dump_meta(meta)
    assert render_fail_reasons(meta2) == render_fail_reasons(meta)


def test_the_seeds_exercise_locks_and_tail_slots() -> None:
    seen: Counter[str] = Counter()
    for seed in SEEDS:
        _, meta = _compile(seed)
        for sk in meta["superkernels"]:
            seen.update(a["source"] for a in sk["args"])
        seen["unfused"] += len(meta["unfused"])
    assert seen["cell"] and seen["workspace"] and seen["profiling"] and seen["unfused"]


def test_two_streams_and_the_log() -> None:
    result = skir.compile(TWO_STREAMS, options="feed-sync-all=1:profiling=1")
    meta = sk_meta(result.module, result.original)
    _check_tables(result, meta)
    (sk,) = meta["superkernels"]
    assert sk["host"] == {"stream": "s0", "seq": 0}
    assert [(a["slot"], a["source"], a.get("cell"), a.get("use")) for a in sk["args"] if a["source"] != "task"] == [
        (0, "ffts_base", None, None), (3, "cell", "e_cell", "notify"), (7, "cell", "g_cell", "wait"),
        (8, "workspace", None, None), (9, "profiling", None, None), (10, "profiling_task_id", None, None),
    ]
    assert sk["args"][7]["uses"] == ["wait", "reset"]
    assert [c["cell"] for c in meta["cells"]] == ["e_cell", "g_cell"]
    log = render_fail_reasons(meta)
    assert "@s0 seq 7 kernel ns: op_unsupported (OP_UNSUPPORT, not_sk_capable)\n" in log
    assert "@s0 seq 8 kernel c: single_task (SCOPE_FUSE_PART, NO_TARGET_NODE)\n" in log
    assert "@s0 seq 9 kernel b: exceed_core_max (EXCEED_CORE_MAX)\n" in log
    assert "m_sk0 <- @s0 seq 0, 5\n" in log
    assert "by reason: exceed_core_max 1, op_unsupported 1, single_task 2\n" in log


def test_without_original_every_value_cell_is_listed() -> None:
    result = skir.compile(TWO_STREAMS)
    assert [c["cell"] for c in sk_meta(result.module)["cells"]] == ["e_cell", "g_cell"]
    raw = skir.parse(TWO_STREAMS.replace("aclgraph.event @g", "aclgraph.event @g\n  aclgraph.cell @c0").replace(
        "aclgraph.opaque seq 2 aicpu", "aclgraph.value_write seq 2 @c0 value 1"))
    meta = sk_meta(raw)
    assert [c["cell"] for c in meta["cells"]] == ["c0"]
    assert "not processed by sk-form-scopes" in meta["note"] and "no original model given" in meta["note"]
    assert sk_meta(raw, raw.clone())["cells"] == []


def test_an_unexplained_slot_is_an_internal_error() -> None:
    result = skir.compile(TWO_STREAMS)
    sk = next(op for op in the_model(result.module).body.block.ops if isinstance(op, SuperKernelOp))
    sk.arg_slots = type(sk.arg_slots)(sk.arg_slots.data + 1)
    with pytest.raises(skir.SkirError, match="slot 8 of 9 is not explained") as err:
        sk_meta(result.module, result.original)
    assert err.value.code == ExitCode.INTERNAL


def test_sk_compile_writes_both_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert sk_compile.main([str(EXAMPLES / "decode_layer.json"), "-o", str(out), "-q"]) == 0
    meta = json.loads((out / "sk_meta.json").read_text())
    assert meta["format"] == "skir.sk_meta" and meta["model"] == "decode_layer"
    assert meta["superkernels"][0]["entry"] == "auto_gen_decode_layer_sk0_kernel"
    assert meta["summary"]["fused"] == 12
    log = (out / "skir_fail_reasons.log").read_text()
    assert "decode_layer_sk0 <- @s0 seq 3, 4, 9, 11, 12, 13, 14, 15, 16, 17, 18; @s1 seq 7\n" in log
    vendor = (out / "sk_fusion_fail_reasons.log").read_text()  # the vendor's format under its name
    assert vendor.startswith("unfusible kernel:\n") and "scopes after fusion:\n" in vendor
    assert str(tmp_path) not in (out / "sk_meta.json").read_text() + log
