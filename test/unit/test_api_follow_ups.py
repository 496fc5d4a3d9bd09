"""`skir.compile(model, options)` and the follow-ups of its result (docs/python.md): each does
what its `sk-compile` flag does, chains, and `write()` writes what the result holds."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import skir
from skir.tools import sk_compile

ROOT = Path(__file__).resolve().parents[2]
DECODE = ROOT / "examples" / "decode_layer.json"


def _products(out: Path) -> dict[str, str]:
    """Every text product but the provenance records (which name the caller: tool or API)."""
    texts: dict[str, str] = {}
    for path in sorted(out.rglob("*")):
        if not path.is_file() or path.suffix == ".png":
            continue
        text = path.read_text()
        if path.suffix == ".json":
            data = json.loads(text)
            if isinstance(data, dict):
                data.pop("provenance", None)
                data.get("otherData", {}).pop("provenance", None)
            text = json.dumps(data, sort_keys=True)
        texts[str(path.relative_to(out))] = text
    return texts


def test_the_chain_writes_what_sk_compile_writes(tmp_path: Path) -> None:
    """A second reader of the composition: the products of the API chain and of the command
    with the matching flags agree file for file."""
    result = skir.compile(DECODE, "split-mode=2")
    assert result.check() is result and result.simulate() is result
    result.write(tmp_path / "api")
    assert sk_compile.main([str(DECODE), "-o", str(tmp_path / "cli"), "-q", "--options", "split-mode=2", "--check",
                            "--report"]) == 0
    api, cli = _products(tmp_path / "api"), _products(tmp_path / "cli")
    assert api.keys() == cli.keys() and "timeline.json" in api
    assert api == cli
    assert set(result.outputs) == set(json.loads((tmp_path / "api" / "skir_manifest.json").read_text())["files"])


def test_write_holds_only_what_the_follow_ups_computed(tmp_path: Path) -> None:
    result = skir.compile(DECODE)
    result.write(tmp_path / "plain")
    assert not (tmp_path / "plain" / "timeline.json").exists()
    assert "profiling" not in json.loads((tmp_path / "plain" / "sk_meta.json").read_text())
    assert result.proof is None and result.report is None and "sk-check" not in (tmp_path / "plain" /
                                                                                 "README.txt").read_text()
    result.simulate().check().write(tmp_path / "after")
    assert (tmp_path / "after" / "timeline.json").exists()
    assert "sk-check: proved" in (tmp_path / "after" / "README.txt").read_text()
    provenance = json.loads((tmp_path / "after" / "plan.json").read_text())["provenance"]
    assert provenance["arguments"] == ["write(plain)", "simulate()", "check()", "write(after)"]


def test_write_without_a_destination_does_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = skir.compile(DECODE).write()
    assert result.outputs == {} and result.calls == [] and list(tmp_path.iterdir()) == []


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_emulate_keeps_nothing_and_runs_once_per_call(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = skir.compile(ROOT / "examples" / "chain.mlir").emulate()
    first = [e.name for e in result.emulation]
    assert first and all(e.ok for e in result.emulation) and list(tmp_path.iterdir()) == []
    result.write(tmp_path / "out", emulate=True)
    assert [e.name for e in result.emulation] == first  # this run's, not both
    assert (tmp_path / "out" / "emulation" / first[0] / "verdict.txt").read_text().startswith("ok")


def test_a_build_without_the_toolchain_is_a_missing_tool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ASCEND_HOME_PATH", raising=False)
    result = skir.compile(DECODE)
    with pytest.raises(skir.MissingToolError, match="ASCEND_HOME_PATH is not set"):
        result.write(tmp_path / "out", build=tmp_path)
    assert not (tmp_path / "out").exists() and result.outputs == {}
