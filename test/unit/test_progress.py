"""Progress lines: shown on a terminal for a phase that runs long, erased when it ends, never
written when standard error is not a terminal."""

from __future__ import annotations

import io
import time

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
