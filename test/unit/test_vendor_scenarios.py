"""The vendor's SuperKernel system-test scenarios (vendor_scenarios/README.md): skir fuses the
same kernels into one SuperKernel of the same type and blocks as the vendor's golden entries,
proves it and runs its entry clean in host emulation."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import skir

HERE = Path(__file__).resolve().parent / "vendor_scenarios"
EXPECTED = json.loads((HERE / "expected.json").read_text())
RATION = {"1:0": "mix_aic_1_0", "0:1": "mix_aiv_1_0", "1:1": "mix_aic_1_1", "1:2": "mix_aic_1_2"}
"""The golden compiled JSON's taskRation -> skir's SuperKernel type (every SuperKernel is a MIX kernel)."""


def test_the_scenarios_are_all_there() -> None:
    files = {p.stem for p in HERE.glob("test_sk_*.json")}
    assert files == set(EXPECTED)
    assert len(files) == 27
    two_streams = [n for n in files if "_2_stream_" in n]
    assert len(two_streams) == 16


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_scenario_fuses_as_the_vendor(tmp_path: Path, name: str) -> None:
    want = EXPECTED[name]
    path = HERE / f"{name}.json"
    kernels = [(s["name"], t["seq"]) for s in json.loads(path.read_text())["streams"]
               for t in s["tasks"] if t["type"] == "kernel"]
    result = skir.compile(path, options=want["options"]).check().emulate()
    assert not result.fail_reasons, [(u.seq, u.reason, u.detail) for u in result.fail_reasons]
    (sk,) = result.superkernels
    assert sorted((m.stream, m.seq) for m in sk.members) == sorted(kernels)
    assert (sk.kernel_type, sk.blocks) == (RATION[want["taskRation"]], want["blockDim"])
    assert result.proof is not None and result.proof.ok
    assert [e.ok for e in result.emulation] == [True], [e.problems for e in result.emulation]
