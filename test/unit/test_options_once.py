"""The option string is parsed once, where it enters
(docs/design.md §2 "Options are typed from the edge"): a count of the parses a compile makes,
and of the places in skir that parse at all."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

import skir
import skir.options
from skir.options import SkOptions, parse_options
from skir.selection import VARIANT_OPTIONS

ROOT = Path(__file__).resolve().parents[2]


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = skir.options._parse_options

    def counting(text: str) -> tuple[SkOptions, list[str]]:
        seen.append(text)
        return real(text)

    monkeypatch.setattr(skir.options, "_parse_options", counting)
    return seen


def _scope_option_strings(data: dict[str, Any]) -> list[str]:
    return [t["options"] for s in data["streams"] for t in s["tasks"] if t.get("type") == "scope_begin"
            and "options" in t]


@pytest.mark.parametrize("options", ["", "split-mode=2:early-start=1", "select=gain"])
def test_a_compile_parses_each_string_once(options: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`skir.compile` of a capture: the call's options once, each scope's options once (at
    import), nothing again in the passes, the selection's recompiles or the follow-ups."""
    data = json.loads((ROOT / "examples" / "decode_layer.json").read_text())
    begin = next(t for s in data["streams"] for t in s["tasks"] if t.get("type") == "scope_begin")
    begin["options"] = "stream-fusion=1"
    seen = _counted(monkeypatch)
    result = skir.compile(data, options)
    result.simulate()
    assert sorted(seen) == sorted([options, *_scope_option_strings(data)])


def test_a_vendor_dump_parses_its_recorded_options_once(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _counted(monkeypatch)
    skir.compile(ROOT / "test" / "unit" / "vendor_dumps" / "two_streams_events", "split-mode=3")
    assert len(seen) == 2 and seen[0] == "split-mode=3" and "stream-fusion" in seen[1]


def test_the_typed_variants_are_their_strings() -> None:
    assert {text: parse_options(text)[0] for text in VARIANT_OPTIONS} == VARIANT_OPTIONS
    assert all(parse_options(text)[0].given == typed.given for text, typed in VARIANT_OPTIONS.items())


def test_four_places_parse_an_option_string() -> None:
    """The IR's literals, the API's argument, a pass option at sk-opt, a model input's strings."""
    sites = []
    for path in sorted((ROOT / "skir").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            called = getattr(node.func, "id", getattr(node.func, "attr", "")) if isinstance(node, ast.Call) else ""
            if called == "parse_options":
                sites.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert len(sites) <= 4, sites
