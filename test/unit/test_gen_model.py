"""tools/gen_model.py: every kind imports, verifies, has exactly N tasks, and is deterministic."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from skir.frontends import capture
from skir.testing import parse_mlir

ROOT = Path(__file__).resolve().parents[2]


def _load_tool() -> Any:
    spec = importlib.util.spec_from_file_location("gen_model", ROOT / "tools" / "gen_model.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen_model = _load_tool()


def _tasks(data: dict[str, Any]) -> int:
    return sum(len(s["tasks"]) for s in data["streams"])


@pytest.mark.parametrize("kind", ["chain", "diamond", "fork-join", "branches", "decode"])
@pytest.mark.parametrize("n", [1, 2, 11, 60, 400])
def test_kind_imports_and_verifies(kind: str, n: int) -> None:
    data = gen_model.generate(kind, n, seed=3, streams=3 if kind != "diamond" else 2)
    assert _tasks(data) == n
    module = capture.from_dict(data, f"{kind}.json")
    module.verify()  # the full xDSL verification
    # seq numbers follow capture order: stripping them and simulating capture gives a model too
    for stream in data["streams"]:
        for task in stream["tasks"]:
            del task["seq"]
    capture.from_dict(data, f"{kind}-noseq.json").verify()


def test_decode_layer_shape() -> None:
    data = gen_model.generate("decode", 200, seed=0)
    module = capture.from_dict(data)
    text = str(module)
    for kernel in ("rms_norm aiv_only", "qkv_matmul mix_aic_1_2", "attention mix_aic", "o_proj aic_only",
                   "swiglu aiv_only", "down_proj aic_only"):
        assert f"aclgraph.kernel @{kernel}" in text
    assert 'aclgraph.scope_begin seq 0 "layer0"' in text
    assert "memcpy" in text
    assert "aicpu" in text
    s0 = data["streams"][0]["tasks"]
    n_events = len(data.get("events", []))
    assert [t["type"] for t in s0[-n_events:]] == ["event_reset"] * n_events
    assert len(data["streams"]) == 2


def test_deterministic_and_seeded() -> None:
    for kind in gen_model.KINDS:
        a = gen_model.generate(kind, 120, seed=7, streams=3)
        assert a == gen_model.generate(kind, 120, seed=7, streams=3)
        assert capture.format_json(a) == capture.format_json(gen_model.generate(kind, 120, seed=7, streams=3))
    assert gen_model.generate("decode", 120, seed=1) != gen_model.generate("decode", 120, seed=2)


def test_fork_join_uses_k_streams() -> None:
    data = gen_model.generate("fork-join", 300, seed=0, streams=5)
    assert [s["name"] for s in data["streams"]] == ["s0", "s1", "s2", "s3", "s4"]


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_json = tmp_path / "m.json"
    out_mlir = tmp_path / "m.mlir"
    assert gen_model.main(["decode", "-n", "150", "--seed", "4", "-o", str(out_json)]) == 0
    assert gen_model.main(["decode", "-n", "150", "--seed", "4", "--format", "mlir", "-o", str(out_mlir)]) == 0
    assert capsys.readouterr() == ("", "")  # silent without -v
    module = capture.load(out_json)
    assert str(parse_mlir(out_mlir.read_text())) == str(module)
    assert json.loads(out_json.read_text()) == gen_model.generate("decode", 150, seed=4)
    again = tmp_path / "again.json"
    gen_model.main(["decode", "-n", "150", "--seed", "4", "-o", str(again)])
    assert again.read_bytes() == out_json.read_bytes()
    assert gen_model.main(["fork-join", "-n", "40", "--streams", "1", "-o", str(again)]) == 1
    gen_model.main(["chain", "-n", "5", "-v", "-o", str(again)])
    assert "chain: 5 tasks" in capsys.readouterr().err


def test_generator_json_is_the_exporter_layout() -> None:
    # the generator writes what the exporter would write for the imported model
    for kind in gen_model.KINDS:
        data = gen_model.generate(kind, 90, seed=5, streams=3)
        assert capture.dumps(capture.from_dict(data)) == capture.format_json(data)
