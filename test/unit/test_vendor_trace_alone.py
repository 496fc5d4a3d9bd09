"""The runtime trace (`sk_mdl_origin.json`) given alone is the model and its own enrichment
(docs/design.md §11 "Inputs"): DEFAULT tasks keep their runtime kind, kernels their `Schem Mode`
and, in a verbose trace, their `Kernel Args Size`; and the dump's `preload_code` option maps to
skir's `preload-code` value by value."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import skir
from skir.api import load_model, model_options
from skir.frontends import vendor
from skir.options import SkOptions, parse_options

DUMPS = Path(__file__).parent / "vendor_dumps"


def event(name: str, stream: int, task: int, task_type: str, **args: Any) -> dict[str, Any]:
    """One trace event, keys as the runtime writes them (the description's made-up example)."""
    return {"name": name, "pid": "4711 aclGraph", "tid": f"stream{stream}", "ts": 10 * task, "dur": 9.5, "ph": "X",
            "args": {"Model Id": 48, "Stream Id": stream, "Task Id": task, "Task Type": task_type, **args}}


def write_trace(path: Path, events: list[dict[str, Any]]) -> Path:
    # the runtime writes one event per line, by hand, and may leave a comma before the `]`
    path.write_text("[" + ",\n".join(json.dumps(e) for e in events) + ",\n]\n")
    return path


def test_the_trace_alone_says_nothing_is_missing_but_what_is() -> None:
    trace = DUMPS / "two_streams_events" / "sk_mdl_origin.json"
    module, info = vendor.load(trace)
    assert not any("sk_mdl_origin.json" in note for note in info.notes), info.notes
    # the first task of the trace, read here from its text, is the model's seq 0
    first = json.loads(trace.read_text().splitlines()[0].rstrip(",").lstrip("["))
    assert first["args"]["Task Type"] == "MEMCPY_ASYNC"
    assert "aclgraph.opaque seq 0 memcpy" in str(module)


def test_schem_mode_and_args_size_of_a_trace(tmp_path: Path) -> None:
    path = write_trace(tmp_path / "sk_mdl_origin.json", [
        event("MEMSET_ASYNC", 3, 0, "MEMSET_ASYNC"),
        event("Norm_1", 3, 1, "KERNEL_AIVEC", Numblocks=40, **{"Schem Mode": 0, "Kernel Args Size": 48}),
        event("Reduce_2", 3, 2, "KERNEL_AIVEC", Numblocks=40, **{"Schem Mode": 1, "Kernel Args Size": 40}),
        event("Reduce_2", 3, 3, "KERNEL_AIVEC", Numblocks=40, **{"Schem Mode": 0, "Kernel Args Size": 40}),
        event("Mm_3", 3, 4, "KERNEL_MIX_AIC", Numblocks=20, **{"Task Ration": 2, "Schem Mode": 0}),
    ])
    module, info = vendor.load(path)
    text = str(module)
    assert "aclgraph.opaque seq 0 memset" in text
    assert "aclgraph.kernel @Norm_1 aiv_only params 6 attributes" in text  # 48 bytes: 6 slots, sched normal
    assert "aclgraph.kernel @Reduce_2 aiv_only params 5 batch attributes" in text  # Schem Mode 1: batch
    assert "aclgraph.kernel @Reduce_2_2 aiv_only params 5 attributes" in text  # the same kernel in normal mode
    assert "aclgraph.kernel @Mm_3 mix_aic_1_2 params 0 attributes" in text
    assert info.args_unknown == {"Mm_3"}
    assert ("argument size unknown for 1 kernel task(s) (1 without Kernel Args Size): no argument slots; --build "
            "refuses their SuperKernels") in info.notes
    assert not any("sched mode" in note for note in info.notes)


def test_a_kernel_without_schem_mode_is_said(tmp_path: Path) -> None:
    path = write_trace(tmp_path / "t.json", [event("Norm_1", 0, 0, "KERNEL_AIVEC", Numblocks=8)])
    _, info = vendor.load(path)
    assert ('sched mode unknown for 1 kernel task(s) (no "Schem Mode" in the runtime trace): taken as normal'
            in info.notes)


@pytest.mark.parametrize(("value", "expected"), [(0, "max"), (1, "per-func"), (2, "none")])
def test_preload_code_maps_value_by_value(value: int, expected: str, tmp_path: Path) -> None:
    origin = json.loads((DUMPS / "one_stream" / "sk_graph_origin.json").read_text())
    origin["options"]["preload_code"] = {"name": "preload_code", "type": 0, "value": value}
    (tmp_path / "sk_graph_origin.json").write_text(json.dumps(origin))
    module = load_model(tmp_path / "sk_graph_origin.json")
    _, info = vendor.load(tmp_path / "sk_graph_origin.json")
    assert f"preload-code={expected}" in info.options.split(":")
    assert not any("preload" in note for note in info.notes)
    assert model_options(module, "", SkOptions())[1].preload_code == expected
    # --options wins over the dump's value
    assert model_options(module, "preload-code=none", parse_options("preload-code=none")[0])[1].preload_code == "none"
    # and the entry preloads as the vendor's mode says: max once at the top, per-func before each
    # sub-kernel, none not at all
    result = skir.compile(tmp_path / "sk_graph_origin.json").write(tmp_path / "out")
    (sk,) = result.superkernels
    source = (tmp_path / "out" / sk.name / f"{sk.name}_kernel.cpp").read_text()
    assert ("AscendC::PreLoad(8)" in source, "preload((const void *)" in source) == {
        "max": (True, False), "per-func": (False, True), "none": (False, False)}[expected]


def test_a_preload_code_value_skir_lacks_is_listed(tmp_path: Path) -> None:
    origin = json.loads((DUMPS / "one_stream" / "sk_graph_origin.json").read_text())
    origin["options"]["preload_code"] = {"name": "preload_code", "type": 0, "value": 3}
    (tmp_path / "sk_graph_origin.json").write_text(json.dumps(origin))
    _, info = vendor.load(tmp_path / "sk_graph_origin.json")
    assert "preload-code" not in info.options
    assert any("'preload_code'='3'" in note for note in info.notes)
