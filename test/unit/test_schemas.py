"""Every JSON format against its shipped JSON Schema (`skir/schemas`, draft 2020-12), and the
provenance every JSON product records.

The products of the shipped examples, the vendor's dump (with `--vendor`), random models under
random options, and every capture JSON of the suites must validate; a schema that accepts
anything would pass that, so each schema is also shown to refuse a broken document. The
provenance is checked against what it claims: the input's sha256 computed here again, and the
same bytes from two OUT folders.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

jsonschema = pytest.importorskip("jsonschema")

import skir  # noqa: E402
from skir.schemas import NAMES, load, schema_path, validate  # noqa: E402
from skir.testing import random_model  # noqa: E402
from skir.testing.option_space import draw_options, expected_refusal  # noqa: E402
from skir.tools import sk_compile  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

# product file -> schema, by name
_SCHEMA_OF = {"plan.json": "plan", "sk_meta.json": "sk_meta", "vendor_compare.json": "vendor_compare",
              "skir_manifest.json": "manifest", "costs.calibrated.json": "costs"}


def schema_of(path: Path, out: Path) -> str | None:
    rel = path.relative_to(out)
    if str(rel) in _SCHEMA_OF:
        return _SCHEMA_OF[str(rel)]
    if len(rel.parts) == 2 and rel.parts[1] == f"{rel.parts[0]}.json":
        return "descriptor"
    return None


def check_out(out: Path) -> set[str]:
    """Validate every JSON product of OUT against its schema; the schemas used."""
    used = set()
    for path in sorted(out.rglob("*.json")):
        name = schema_of(path, out)
        if name is None or not schema_path(name).exists():
            continue
        validate(name, json.loads(path.read_text()))
        used.add(name)
    return used


def test_every_schema_is_a_valid_draft_2020_12_schema() -> None:
    for name in NAMES:
        if schema_path(name).exists():
            jsonschema.Draft202012Validator.check_schema(load(name))
            assert load(name)["$id"] == f"urn:skir:schema:{name}"


@pytest.mark.parametrize(("model", "argv"), [
    (EXAMPLES / "decode_layer.json", ["--report"]),
    (EXAMPLES / "chain.mlir", ["--options", "early-start=1:sync-mode=data:profiling=1"]),
    (EXAMPLES / "torch" / "mlp_block.json", ["--options", "feed-sync-all=1"]),
    (EXAMPLES / "torch" / "attention_moe.mlir", []),
    (EXAMPLES / "vendor_dump", ["--vendor", str(EXAMPLES / "vendor_dump")]),
    (ROOT / "test" / "unit" / "models" / "two_chains.json", ["--options", "placement=auto:debug-progress=1"]),
])
def test_the_products_of_the_examples_follow_their_schemas(tmp_path: Path, model: Path, argv: list[str],
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert sk_compile.main([str(model), "-o", str(out), "-q", *argv]) == 0, capsys.readouterr().err
    used = check_out(out)
    assert {"plan", "sk_meta", "descriptor", "manifest"} <= used
    if "--vendor" in argv:
        assert "vendor_compare" in used


@pytest.mark.filterwarnings("ignore:option '.*' names no kernel of model")
def test_products_of_random_models_follow_their_schemas(tmp_path: Path) -> None:
    rng = random.Random(7)
    checked = 0
    for i in range(12):
        options = draw_options(rng, gain=False)
        data = random_model(random.Random(rng.randrange(2**32)), max_streams=3, max_tasks=30,
                            with_active=i % 3 == 0)
        validate("capture", data)  # the generator's models are capture JSON too
        try:
            skir.compile(data, options=options).write(tmp_path / f"o{i}")
        except skir.SkirError as err:
            if not expected_refusal(options, err):
                pytest.fail(f"{options}: {err}")
            continue
        check_out(tmp_path / f"o{i}")
        checked += 1
    assert checked >= 6


def _captures() -> list[Path]:
    found = [*EXAMPLES.rglob("*.json"), *(ROOT / "test" / "unit" / "vendor_scenarios").glob("test_*.json"),
             *(ROOT / "test" / "unit" / "models").glob("*.json")]
    def is_capture(path: Path) -> bool:
        try:
            doc = json.loads(path.read_text())
        except ValueError:
            return False
        return isinstance(doc, dict) and doc.get("format") == "skir.aclgraph.capture"

    return [p for p in sorted(found) if is_capture(p)]


@pytest.mark.parametrize("path", _captures(), ids=lambda p: p.name)
def test_every_capture_of_the_suites_follows_the_schema(path: Path) -> None:
    validate("capture", json.loads(path.read_text()))


# ---- the schemas refuse what the formats do not allow ---------------------------------------------


def _broken(doc: dict[str, Any], edit: Any) -> dict[str, Any]:
    copy_ = copy.deepcopy(doc)
    edit(copy_)
    return copy_


@pytest.mark.parametrize(("name", "edit"), [
    ("capture", lambda d: d["streams"][0]["tasks"][0].update(type="kernal")),
    ("capture", lambda d: d["streams"][0]["tasks"][0].update(blocks=0)),
    ("capture", lambda d: d.update(model="../evil")),
    ("capture", lambda d: d["kernels"]["rms_norm"].update(kernel_type="mix_aic_1_3")),
    ("plan", lambda d: d["slots"][0].update(action="delete")),
    ("plan", lambda d: d["slots"][3].pop("superkernel")),
    ("plan", lambda d: d["superkernels"][0]["args"][0].update(source="host")),
    ("descriptor", lambda d: d.update(coreType="aiv_only")),
    ("descriptor", lambda d: d["kernelList"][0]["arg_list"].update(param_offset=0)),
    ("manifest", lambda d: d["files"].append("../escape")),
    ("manifest", lambda d: d["provenance"]["input"].update(sha256="xyz")),
])
def test_a_schema_refuses_a_broken_document(tmp_path: Path, name: str, edit: Any) -> None:
    out = tmp_path / "out"
    skir.compile(EXAMPLES / "decode_layer.json").write(out)
    if name == "capture":
        doc = json.loads((EXAMPLES / "decode_layer.json").read_text())
    elif name == "descriptor":
        doc = json.loads((out / "decode_layer_sk0" / "decode_layer_sk0.json").read_text())
    else:
        doc = json.loads((out / f"{'skir_manifest' if name == 'manifest' else name}.json").read_text())
    validate(name, doc)
    with pytest.raises(jsonschema.ValidationError):
        validate(name, _broken(doc, edit))


# ---- provenance ---------------------------------------------------------------------------------


def test_provenance_names_the_input_and_the_command(tmp_path: Path) -> None:
    model = EXAMPLES / "decode_layer.json"
    assert sk_compile.main([str(model), "-o", str(tmp_path / "a"), "-q", "--options", "split-mode=2"]) == 0
    assert sk_compile.main([str(model), "-o", str(tmp_path / "b" / "c"), "-q", "--options", "split-mode=2"]) == 0
    plan = json.loads((tmp_path / "a" / "plan.json").read_text())
    entry = plan["provenance"]
    assert entry["tool"] == "sk-compile"
    assert entry["arguments"] == ["decode_layer.json", "-o", "OUT", "--options", "split-mode=2"]
    assert entry["options"] == "split-mode=2"
    assert entry["input"] == {"name": "decode_layer.json", "sha256": hashlib.sha256(model.read_bytes()).hexdigest()}
    assert entry["xdsl"] == "0.74.0"
    for rel in ("plan.json", "sk_meta.json", "skir_manifest.json", "decode_layer_sk0/decode_layer_sk0.json"):
        a, b = (tmp_path / "a" / rel).read_text(), (tmp_path / "b" / "c" / rel).read_text()
        assert a == b, rel  # no path of the run in any product
        assert json.loads(a)["provenance"] == entry
    # -q and -v change only what is printed: a chatty run writes the same products
    assert sk_compile.main([str(model), "-o", str(tmp_path / "v"), "-v", "--options", "split-mode=2"]) == 0
    assert (tmp_path / "v" / "plan.json").read_text() == (tmp_path / "a" / "plan.json").read_text()


def test_provenance_of_an_api_call(tmp_path: Path) -> None:
    data = json.loads((EXAMPLES / "decode_layer.json").read_text())
    skir.compile(data, options="early-start=1").check().write(tmp_path / "out")
    entry = json.loads((tmp_path / "out" / "sk_meta.json").read_text())["provenance"]
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    assert entry["tool"] == "skir.compile" and entry["options"] == "early-start=1"
    assert entry["input"] == {"name": "<dict>", "sha256": hashlib.sha256(canonical).hexdigest()}
    assert entry["arguments"] == ["options='early-start=1'", "check()", "write(out)"]  # the call and its follow-ups


# ---- the input formats beside capture JSON: costs and profiles ------------------------------------


def test_the_default_costs_and_a_cost_override_follow_the_schema() -> None:
    from dataclasses import fields

    from skir.sim.costs import Costs, load_costs

    defaults = json.loads((ROOT / "skir" / "sim" / "default_costs.json").read_text())
    validate("costs", defaults)
    # the schema names exactly the simulator's parameters (a second reading of the Costs fields)
    assert set(load("costs")["properties"]["parameters"]["properties"]) == {f.name for f in fields(Costs)}
    override = {"format": "skir.sim.costs", "version": 1,
                "parameters": {"dispatch_gap_us": 0.8, "sync_all_us": {"value": 0.4, "assumption": False}}}
    validate("costs", override)
    load_costs(override)  # and skir reads what the schema accepts
    with pytest.raises(jsonschema.ValidationError):
        validate("costs", {**override, "parameters": {"warp_speed_us": 1.0}})


def test_a_skir_profile_follows_the_schema() -> None:
    doc = {"format": "skir.profile", "version": 1, "tasks": [{"stream": "s1", "seq": 4, "us": [9.0, 11.0]}],
           "kernels": {"mm": [40.0, 44.0]}}
    validate("profile", doc)
    for broken in ({**doc, "tasks": [{"stream": "s1", "seq": 4, "us": []}]}, {**doc, "kernels": {"mm": [-1.0]}},
                   {**doc, "format": "msprof"}):
        with pytest.raises(jsonschema.ValidationError):
            validate("profile", broken)
