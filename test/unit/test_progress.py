"""Progress lines: shown on a terminal for a phase that runs long, erased when it ends, never
written when standard error is not a terminal."""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest

from skir import progress


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def run_phase(monkeypatch: pytest.MonkeyPatch, err: io.StringIO) -> str:
    """What a 0.1 s phase writes to `err` with the 2 s threshold set to 0."""
    monkeypatch.setattr("sys.stderr", err)
    monkeypatch.setattr(progress, "_SHOW_AFTER_S", 0.0)
    monkeypatch.setattr(progress, "_EVERY_S", 0.01)
    progress.enable("sk-compile")
    try:
        with progress.phase("sk-outline"):
            time.sleep(0.1)
    finally:
        progress.disable()
    return err.getvalue()


def test_a_long_phase_shows_and_erases_its_line(monkeypatch: pytest.MonkeyPatch) -> None:
    text = run_phase(monkeypatch, _Terminal())
    assert "\rsk-compile: sk-outline ... " in text and text.endswith("\r\x1b[K")


def test_nothing_when_not_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    assert run_phase(monkeypatch, io.StringIO()) == ""


def test_timing_report_lists_every_phase(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from skir.tools import sk_compile

    example = Path(__file__).resolve().parents[2] / "examples" / "decode_layer.json"
    assert sk_compile.main([str(example), "-o", str(tmp_path / "out"), "-q", "--timing"]) == 0
    lines = capsys.readouterr().err.splitlines()
    rows = {ln.split()[0]: ln for ln in lines[1:]}
    assert lines[0].split() == ["phase", "seconds", "share"]
    for name in ("import", "sk-form-scopes", "sk-to-ascendc", "summary", "products", "total"):
        assert name in rows, lines
    # each product is made and written in turn, nested under `products`
    at = next(i for i, ln in enumerate(lines) if ln.startswith("products"))
    assert lines[at + 1].startswith("  model.rewritten.mlir")
    assert any(ln.startswith("  sk_meta.json") for ln in lines[at + 1:])
    # a pass's verification is nested under it and never takes longer than the pass
    at = next(i for i, ln in enumerate(lines) if ln.startswith("sk-outline"))
    assert lines[at + 1].startswith("  verify")
    assert float(lines[at + 1].split()[-2]) <= float(lines[at].split()[-2])
    top = [float(ln.split()[-2]) for ln in lines[1:-1] if not ln.startswith(" ")]
    assert abs(sum(top) - float(rows["total"].split()[-2])) < 0.01
    assert progress._timing is None  # off again after the run
