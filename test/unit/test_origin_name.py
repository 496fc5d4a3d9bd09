"""The vendor's `origin_op_name` of each SuperKernel, in the descriptor and in SK meta
(docs/design.md §5), against names derived by hand from the shipped examples."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import skir
from skir.dialects.superkernel import SuperKernelOp
from skir.errors import SkirError
from skir.targets.descriptor import descriptors
from skir.targets.origin_name import origin_op_name
from skir.targets.sk_meta import sk_meta

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _names(example: str) -> tuple[dict[str, str], dict[str, str]]:
    result = skir.compile(EXAMPLES / example)
    meta = sk_meta(result.module, result.original)
    from_meta = {sk["name"]: sk["origin_op_name"] for sk in meta["superkernels"]}
    from_descriptor = {name: d["origin_op_name"] for name, d in descriptors(result.module).items()}
    return from_meta, from_descriptor


def test_a_named_scope_gives_its_name_and_the_first_and_last_kernels() -> None:
    # decode_layer.json: scope "layer0" opens at seq 0 and closes at seq 21; its SuperKernel's
    # sub-tasks in program order run from rms_norm (@s0 seq 3) to add (@s0 seq 18), rope_k of
    # @s1 (seq 7) in between
    meta, desc = _names("decode_layer.json")
    assert meta == desc == {"decode_layer_sk0": "sk_layer0_start_rms_norm_end_add"}


def test_without_a_named_scope_the_superkernel_names_itself() -> None:
    # chain.mlir has no scope markers: seq 0-3 (rms_norm .. gelu) fuse, seq 5-6 (scale twice)
    meta, desc = _names("chain.mlir")
    assert meta == desc == {"chain_sk0": "sk_chain_sk0_start_rms_norm_end_gelu",
                            "chain_sk1": "sk_chain_sk1_start_scale_end_scale"}
    assert all(IDENT.match(name) for name in meta.values())


def test_written_products_carry_the_name(tmp_path: Path) -> None:
    skir.compile(EXAMPLES / "decode_layer.json").write(tmp_path)
    meta = json.loads((tmp_path / "sk_meta.json").read_text())
    desc = json.loads((tmp_path / "decode_layer_sk0" / "decode_layer_sk0.json").read_text())
    assert meta["superkernels"][0]["origin_op_name"] == desc["origin_op_name"] == "sk_layer0_start_rms_norm_end_add"


def test_a_superkernel_without_subtasks_is_refused() -> None:
    result = skir.compile(EXAMPLES / "chain.mlir")
    sk = next(op for op in result.module.walk() if isinstance(op, SuperKernelOp))
    for op in list(sk.subtasks()):
        op.detach()
    with pytest.raises(SkirError, match="has no origin name"):
        origin_op_name(sk)
