"""The simulator's cost parameters: defaults, documentation and JSON overrides.

Every cost is a named parameter of `skir/sim/default_costs.json`; each entry has a value,
a unit, a description and `"assumption": true` (no public per-task figure exists for
Ascend; real values come from msprof `task_time` profiles). A costs file overrides any
subset, in the same shape:

```json
{"format": "skir.sim.costs", "version": 1,
 "parameters": {"dispatch_gap_us": 0.8, "sync_all_us": {"value": 0.4}}}
```

Errors name the file and the JSON path (`costs.json: parameters.sync_all_us: ...`).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, fields, replace
from importlib import resources
from pathlib import Path
from typing import Any

from skir.errors import SkirError, did_you_mean

FORMAT = "skir.sim.costs"
VERSION = 1


@dataclass(frozen=True)
class Costs:
    """Cost parameters (µs unless named otherwise); see `default_costs.json` for each meaning."""

    default_duration_us: float
    host_launch_us: float
    host_task_us: float
    graph_launch_us: float
    dispatch_gap_us: float
    event_us: float
    value_task_us: float
    opaque_us: float
    marker_us: float
    sk_entry_us: float
    icache_miss_us_per_kib: float
    default_code_bytes: float
    preload_us: float
    barrier_all_aiv_us: float
    barrier_all_aic_us: float
    sync_all_us: float
    pipe_barrier_us: float
    flag_set_us: float
    flag_wait_us: float
    early_start_us: float
    early_start_overlap_us: float
    lock_notify_us: float
    lock_wait_us: float
    lock_reset_us: float
    placement_us: float
    dcci_us: float
    progress_us: float
    comm_latency_us: float
    comm_gbps: float

    def as_dict(self) -> dict[str, float]:
        """Parameter name -> value, in declaration order."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def icache_miss(self, code_bytes: int | None, cap_bytes: int) -> float:
        """The instruction-cache miss of a cold start of a kernel of `code_bytes`."""
        size = self.default_code_bytes if code_bytes is None else code_bytes
        return self.icache_miss_us_per_kib * min(size, cap_bytes) / 1024


def _default_json() -> dict[str, Any]:
    text = resources.files("skir.sim").joinpath("default_costs.json").read_text()
    table: dict[str, Any] = json.loads(text)
    return table


def default_table() -> dict[str, dict[str, Any]]:
    """The documented default parameters: name -> {value, unit, assumption, description}."""
    parameters: dict[str, dict[str, Any]] = _default_json()["parameters"]
    return parameters


def default_costs() -> Costs:
    """The default cost parameters (every one an assumption)."""
    return Costs(**{name: float(entry["value"]) for name, entry in default_table().items()})


def _number(where: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value or value < 0:
        raise SkirError(f"{where}: expected a number >= 0, got {json.dumps(value)}")
    return float(value)


def costs_from_dict(data: Any, name: str = "<costs>", base: Costs | None = None) -> Costs:
    """`base` (default: the defaults) with the parameters of a costs document overridden."""
    base = base if base is not None else default_costs()
    if not isinstance(data, dict):
        raise SkirError(f"{name}: expected a JSON object with format, version and parameters")
    unknown = sorted(set(data) - {"format", "version", "note", "parameters", "fit", "provenance"})
    if unknown:
        raise SkirError(f"{name}: {unknown[0]}: unknown key"
                        f"{did_you_mean(unknown[0], ('format', 'version', 'note', 'parameters', 'fit'))} "
                        "(expected format, version, note, parameters, fit)")
    if "fit" in data and not isinstance(data["fit"], dict):
        raise SkirError(f"{name}: fit: expected an object (what a calibration recorded)")
    if data.get("format") != FORMAT:
        raise SkirError(f"{name}: format: expected \"{FORMAT}\", got {json.dumps(data.get('format'))}")
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version != VERSION:
        raise SkirError(f"{name}: version: expected {VERSION}, got {json.dumps(version)}")
    params = data.get("parameters", {})
    if not isinstance(params, dict):
        raise SkirError(f"{name}: parameters: expected an object of name -> number")
    known = base.as_dict()
    changes: dict[str, float] = {}
    for key, value in params.items():
        where = f"{name}: parameters.{key}"
        if key not in known:
            raise SkirError(f"{where}: unknown cost parameter{did_you_mean(key, known)} (one of {', '.join(known)})")
        if isinstance(value, dict):
            extra = sorted(set(value) - {"value", "unit", "assumption", "description"})
            if extra or "value" not in value:
                raise SkirError(f"{where}: expected a number or {{\"value\": number, ...}}")
            value = value["value"]
            where += ".value"
        changes[key] = _number(where, value)
    return replace(base, **changes)


def load_costs(source: str | os.PathLike[str] | dict[str, Any] | Costs | None) -> Costs:
    """Costs from None (defaults), a `Costs`, a costs dict or a JSON file; errors are `SkirError`s."""
    if source is None:
        return default_costs()
    if isinstance(source, Costs):
        return source
    if isinstance(source, dict):
        return costs_from_dict(source)
    path = Path(source)
    from skir.source_text import read_model

    _, text = read_model(path, "costs file")  # strict UTF-8 and no NUL, as every input file
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates(str(path)))
    except json.JSONDecodeError as err:
        raise SkirError(f"{path}:{err.lineno}:{err.colno}: invalid JSON: {err.msg}") from None
    return costs_from_dict(data, str(path))


def _no_duplicates(name: str):  # type: ignore[no-untyped-def]
    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for key, value in pairs:
            if key in seen:
                raise SkirError(f"{name}: duplicate key '{key}'")
            seen[key] = value
        return seen

    return hook


def markdown_table(costs: Costs | None = None) -> str:
    """The parameter table (name, default, unit, meaning) as markdown, for the docs."""
    table = default_table()
    values = (costs or default_costs()).as_dict()
    lines = ["| parameter | value | unit | meaning (assumption) |", "| --- | --- | --- | --- |"]
    for name, entry in table.items():
        value = values[name]
        shown = f"{value:g}"
        lines.append(f"| `{name}` | {shown} | {entry['unit']} | {entry['description']} |")
    return "\n".join(lines) + "\n"
