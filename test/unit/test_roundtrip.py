"""Property tests: random valid capture models survive every textual round trip."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings

from skir.frontends import capture
from skir.testing import models, parse_mlir, print_generic

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(models())
def test_custom_syntax_round_trip(data: dict[str, Any]) -> None:
    module = capture.from_dict(data, "random.json")
    module.verify()  # the full xDSL verification agrees with the importer's
    text = str(module)
    again = parse_mlir(text, "random.mlir")
    again.verify()
    assert str(again) == text


@SETTINGS
@given(models())
def test_generic_syntax_round_trip(data: dict[str, Any]) -> None:
    module = capture.from_dict(data, "random.json")
    generic = print_generic(module)
    again = parse_mlir(generic, "random.generic.mlir")
    again.verify()
    assert str(again) == str(module)
    assert print_generic(again) == generic


@SETTINGS
@given(models(max_streams=3, max_tasks=60))
def test_json_round_trip(data: dict[str, Any]) -> None:
    module = capture.from_dict(data, "random.json")
    dumped = capture.dump(module)
    assert all("seq" in t for s in dumped["streams"] for t in s["tasks"])
    assert str(capture.from_dict(dumped)) == str(module)
    text = capture.dumps(module)
    assert str(capture.loads(text)) == str(module)
    assert capture.dumps(capture.loads(text)) == text


@SETTINGS
@given(models(max_streams=2, max_tasks=20, with_scopes=False, with_opaque=False, with_values=False))
def test_restricted_models_have_only_asked_features(data: dict[str, Any]) -> None:
    kinds = {t["type"] for s in data["streams"] for t in s["tasks"]}
    assert not kinds & {"scope_begin", "scope_end", "placeholder", "default", "value_write", "value_wait"}
    capture.from_dict(data).verify()
