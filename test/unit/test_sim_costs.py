"""The simulator's cost parameters: documented defaults, overrides, one-line errors."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

import pytest

from skir.errors import SkirError
from skir.sim.costs import Costs, default_costs, default_table, load_costs, markdown_table


def test_every_default_is_a_documented_assumption() -> None:
    table = default_table()
    assert list(table) == [f.name for f in fields(Costs)]
    for name, entry in table.items():
        assert entry["assumption"] is True, name
        assert entry["description"] and entry["unit"], name
        assert isinstance(entry["value"], int | float) and entry["value"] >= 0, name
    text = markdown_table()
    assert text.count("\n") == len(table) + 2 and "`dispatch_gap_us`" in text


def test_a_costs_file_overrides_a_subset(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"format": "skir.sim.costs", "version": 1,
                                "parameters": {"dispatch_gap_us": 2, "sync_all_us": {"value": 0.25}}}))
    costs = load_costs(path)
    assert costs.dispatch_gap_us == 2.0 and costs.sync_all_us == 0.25
    assert costs.event_us == default_costs().event_us
    assert load_costs(None) == default_costs()


@pytest.mark.parametrize(("text", "message"), [
    ('{"format": "skir.sim.costs", "version": 1, "parameters": {"gap": 1}}',
     "parameters.gap: unknown cost parameter (one"),
    ('{"format": "skir.sim.costs", "version": 1, "parameters": {"event_su": 1}}',
     "parameters.event_su: unknown cost parameter (did you mean 'event_us'?) (one of"),
    ('{"format": "skir.sim.costs", "version": 1, "parameter": {}}',
     "parameter: unknown key (did you mean 'parameters'?)"),
    ('{"format": "skir.sim.costs", "version": 1, "parameters": {"event_us": -1}}', "parameters.event_us: expected a"),
    ('{"format": "skir.sim.costs", "version": 1, "parameters": {"event_us": true}}', "parameters.event_us: expected"),
    ('{"format": "skir.sim.costs", "version": 2, "parameters": {}}', "version: expected 1"),
    ('{"format": "other", "version": 1}', "format: expected"),
    ('{"format": "skir.sim.costs", "version": 1, "extra": 1}', "extra: unknown key"),
    ('{"format": "skir.sim.costs",\n "version": 1,,}', "c.json:2:15: invalid JSON"),
    ('{"format": "skir.sim.costs", "format": "skir.sim.costs"}', "duplicate key 'format'"),
    ('[1]', "expected a JSON object"),
])
def test_bad_costs_are_one_line_located_errors(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "c.json"
    path.write_text(text)
    with pytest.raises(SkirError) as err:
        load_costs(path)
    assert message in str(err.value) and "\n" not in str(err.value)
    assert str(err.value).startswith(str(path))


def test_missing_costs_file(tmp_path: Path) -> None:
    with pytest.raises(SkirError, match="cannot read the costs file"):
        load_costs(tmp_path / "none.json")
