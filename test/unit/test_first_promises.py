"""What a new user meets first: the promises the README makes about bad paths, option strings,
timing output and targets after part of the pipeline (each reproduced, then kept).

Every run goes through the real `sk-compile` / `sk-opt` main functions or `skir.compile`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import skir
from skir.errors import SkirError
from skir.testing.cli_run import run_tool

ROOT = Path(__file__).resolve().parents[2]
DECODE = ROOT / "examples" / "decode_layer.json"
CHAIN = ROOT / "examples" / "chain.mlir"


run = run_tool


# ---- paths the user names: exit 1, one line, the user's own path -----------------------------


def test_dump_ir_naming_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "afile").write_text("x")
    code, _, err = run("sk-compile", [str(DECODE), "-o", str(tmp_path / "out"), "--dump-ir", str(tmp_path / "afile")],
                       capsys)
    assert code == 1
    assert err == [f"sk-compile: error: argument --dump-ir (dump_ir=): {tmp_path / 'afile'}: exists and is not a "
                   "folder; give a folder (it is created)"]
    assert not (tmp_path / "out").exists()


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="needs /proc")
def test_output_under_a_special_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run("sk-compile", [str(DECODE), "-o", "/proc/skir_out", "-q"], capsys)
    assert code == 1
    assert len(err) == 1 and err[0].startswith("sk-compile: error: /proc/skir_out: cannot write the products there")
    assert "skir-stage" not in err[0]


def test_sk_opt_output_into_a_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "missing" / "x.mlir"
    code, _, err = run("sk-opt", [str(CHAIN), "-o", str(target)], capsys)
    assert code == 1
    assert err == [f"sk-opt: error: {target}: cannot write here: No such file or directory"]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"model": 42}, "argument MODEL (model=): expected a path, model text, a capture dict or a module, got int"),
    ({"model": str(CHAIN), "options": 3}, "argument --options (options=): expected an option string"),
    ({"model": str(CHAIN), "verify_each": "yes"}, "argument --verify-each (verify_each=): expected True or False, "
                                                 "got str"),
    ({"model": str(CHAIN), "cores": (24,)}, "argument --cores (cores=): expected two positive core counts"),
    ({"model": str(CHAIN), "profiles": "a.csv"}, "argument --profile (profiles=): expected a list of paths, got str"),
    ({"model": str(CHAIN), "check": True}, "skir.compile: check= is a follow-up of the result now: "
                                           "skir.compile(model, options).check()"),
    ({"model": str(CHAIN), "out_dir": "out"}, "skir.compile: out_dir= is a follow-up of the result now: "
                                              "skir.compile(model, options).write(out_dir)"),
    ({"model": str(CHAIN), "colour": 1}, "skir.compile: no argument colour="),
])
def test_every_bad_argument_of_compile_is_a_skir_error(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(SkirError) as info:
        skir.compile(**kwargs)
    assert str(info.value).startswith(message), str(info.value)
    assert info.value.code == 1


@pytest.mark.parametrize(("follow_up", "message"), [
    (lambda r: r.write(7), "argument -o (write(out_dir)): expected a path, got int"),
    (lambda r: r.write("out", emulate="yes"), "argument --emulate (write(emulate=)): expected True or False"),
    (lambda r: r.emulate(cache=0), "argument --no-cache (cache=): expected True or False, got int"),
    (lambda r: r.calibrate("off.csv", 3), "argument --calibrate (calibrate(off, on)): expected two paths"),
    (lambda r: r.compare_with_vendor(None), "argument --vendor (compare_with_vendor(vendor)): expected a path"),
])
def test_every_bad_argument_of_a_follow_up_is_a_skir_error(follow_up: Any, message: str, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the follow-ups name "out": nothing may appear in this empty folder
    result = skir.compile(CHAIN)
    with pytest.raises(SkirError) as info:
        follow_up(result)
    assert str(info.value).startswith(message), str(info.value)
    assert info.value.code == 1 and not (Path.cwd() / "out").exists()


# ---- an option string's errors say where the string came from ----------------------------------


def test_options_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run("sk-compile", [str(DECODE), "-o", str(tmp_path / "out"), "--options", "early-start=1:\x01"],
                       capsys)
    assert code == 1
    assert err == ["sk-compile: error: argument --options (options=): options 'early-start=1:\\x01': a character "
                   "that is not printable text ('\\x01')"]


def test_options_of_a_scope_in_capture_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(DECODE.read_text())
    streams = doc["streams"]
    s, t = next((i, j) for i, st in enumerate(streams) for j, task in enumerate(st["tasks"])
                if task["type"] == "scope_begin")
    streams[s]["tasks"][t]["options"] = "split-mode=99"
    model = tmp_path / "m.json"
    model.write_text(json.dumps(doc))
    code, _, err = run("sk-compile", [str(model), "-o", str(tmp_path / "out")], capsys)
    assert code == 1
    assert err == [f"sk-compile: error: {model}: streams[{s}].tasks[{t}].options: option 'split-mode': expected an "
                   "integer in 1..64, got '99'"]


def test_options_of_a_scope_in_mlir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "m.mlir"
    model.write_text('aclgraph.model @m cores(aic = 24, aiv = 48) {\n  aclgraph.stream @s0 {\n'
                     '    aclgraph.scope_begin seq 0 "a" options "split-mode=99"\n    aclgraph.scope_end seq 1 "a"\n'
                     '  }\n}\n')
    code, _, err = run("sk-compile", [str(model), "-o", str(tmp_path / "out")], capsys)
    assert code == 1
    # MLIR's form where the input has a position: the located line, the source line, a caret
    assert err == [f"{model}:3:44: error: options: option 'split-mode': expected an integer in 1..64, got '99'",
                   '    aclgraph.scope_begin seq 0 "a" options "split-mode=99"',
                   " " * 43 + "^"]  # at the literal: options are parsed where they enter


def test_options_of_a_pass(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run("sk-opt", [str(CHAIN), "-p", 'sk-outline{options="func-align=3"}'], capsys)
    assert code == 1
    assert err == ["sk-opt: error: pass 'sk-outline' option 'options': option 'func-align': expected 0 or a power "
                   "of two >= 2, got '3'"]


def test_options_of_a_torch_scope() -> None:
    from skir.marks import super_kernel_scope

    with pytest.raises(SkirError, match=r"^super_kernel_scope\('layer0'\) options: unknown option 'warp'"):
        with super_kernel_scope("layer0", "warp=9"):
            pass


# ---- standard output holds the product; timing and diagnostics go to standard error ------------


def test_time_passes_keeps_stdout_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run("sk-opt", [str(CHAIN), "-p", "superkernel-pipeline", "--time-passes", "-t", "sk-meta"], capsys)
    assert code == 0
    assert json.loads(out)["format"] == "skir.sk_meta"
    table = "\n".join(err)
    assert err[0].split() == ["phase", "seconds", "share"] and err[-1].startswith("total")
    # the pipeline pass, then each of its passes nested under it, each with its verification
    for name in ("sk-form-scopes", "sk-outline", "sk-place-sync", "sk-lower-sync", "sk-prune-sync", "sk-insert-preload",
                 "sk-insert-debug", "sk-to-ascendc"):
        assert f"\n  {name} " in table, table
    assert "\nsuperkernel-pipeline " in table and "\n    verify " in table
    assert "took" not in table and "took" not in out  # xDSL's own lines are gone


# ---- a target that needs a later pass says which ----------------------------------------------


@pytest.mark.parametrize(("passes", "target", "needed"), [
    ("sk-form-scopes", "sk-plan", "sk-outline"),
    ("sk-form-scopes", "sk-descriptor", "sk-outline"),
    ("sk-form-scopes", "ascendc", "sk-outline"),
    ("sk-form-scopes,sk-outline", "ascendc", "sk-to-ascendc"),
    ("sk-form-scopes,sk-outline,sk-place-sync,sk-lower-sync", "ascendc", "sk-to-ascendc"),
])
def test_a_target_after_part_of_the_pipeline(capsys: pytest.CaptureFixture[str], passes: str, target: str,
                                             needed: str) -> None:
    code, out, err = run("sk-opt", [str(CHAIN), "-p", passes, "-t", target], capsys)
    assert code == 1 and out == ""
    assert err == [f"sk-opt: error: target '{target}': the module has SuperKernels that {needed} has not reached; "
                   f"run the passes up to '{needed}' (or 'superkernel-pipeline') first"]


def test_targets_after_the_passes_they_need(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run("sk-opt", [str(CHAIN), "-p", "sk-form-scopes,sk-outline", "-t", "sk-plan"], capsys)
    assert code == 0
    plan = json.loads(out)
    assert any(a["action"] == "set_kernel" for a in plan["slots"]), plan["slots"]


# ---- an option a pass does not read is named ----------------------------------------------------


def test_an_option_the_pass_does_not_read(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run("sk-opt", [str(CHAIN), "-p", 'sk-place-sync{options="split-mode=2:early-start=1"}'], capsys)
    assert code == 0 and out  # the pass still runs (on a module with nothing to lower)
    assert err == ["sk-opt: warning: pass 'sk-place-sync' does not read option 'split-mode'; it is read by "
                   "sk-outline (which records it on each sk.kernel), sk-to-ascendc, superkernel-pipeline"]


# ---- a reused OUT holds exactly the last run's products ---------------------------------------


def test_a_reused_out_holds_only_the_last_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert run("sk-compile", [str(DECODE), "-o", str(out), "-q", "--report"], capsys)[0] == 0
    assert (out / "decode_layer_sk0" / "build.sh").exists() and (out / "timeline.json").exists()
    (out / "notes.txt").write_text("mine")
    (out / "decode_layer_sk0" / "mine.txt").write_text("mine too")
    code, _, err = run("sk-compile", [str(CHAIN), "-o", str(out), "-q"], capsys)
    assert code == 0
    files = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    manifest = json.loads((out / "skir_manifest.json").read_text())
    assert manifest["format"] == "skir.manifest"
    # exactly this run's products (written out by hand: the chain model fuses two SuperKernels)
    expected = {"README.txt", "model.rewritten.mlir", "plan.json", "sk_meta.json", "sk_fusion_fail_reasons.log",
                "skir_fail_reasons.log",
                *(f"chain_sk{i}/{f}" for i in (0, 1) for f in ("build.sh", f"chain_sk{i}.json",
                                                               f"chain_sk{i}_kernel.cpp"))}
    assert set(manifest["files"]) == expected
    assert set(files) == expected | {"skir_manifest.json", "notes.txt", "decode_layer_sk0/mine.txt"}
    assert err == [f"sk-compile: warning: {out}: kept 2 file(s) no skir run wrote there: "
                   "decode_layer_sk0/mine.txt, notes.txt"]


@pytest.mark.parametrize("mask", [0o022, 0o077])
def test_out_follows_the_umask(tmp_path: Path, capsys: pytest.CaptureFixture[str], mask: int) -> None:
    import os

    old = os.umask(mask)
    try:
        assert run("sk-compile", [str(CHAIN), "-o", str(tmp_path / "out"), "-q"], capsys)[0] == 0
    finally:
        os.umask(old)
    assert (tmp_path / "out").stat().st_mode & 0o777 == 0o777 & ~mask


# ---- the printed summary of a big model stays short ----------------------------------------------


def _generate(kind: str, n: int) -> dict[str, Any]:
    import importlib.util

    spec = importlib.util.spec_from_file_location("gen_model", ROOT / "tools" / "gen_model.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.generate(kind, n, seed=1)  # type: ignore[no-any-return]


def test_the_summary_of_a_big_model_is_capped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "big.json"
    model.write_text(json.dumps(_generate("decode", 2000)))
    code, out, _ = run("sk-compile", [str(model), "-o", str(tmp_path / "out")], capsys)
    assert code == 0
    listed = [ln for ln in out.splitlines() if ln.startswith("  decode_2000_sk")]
    total = len(json.loads((tmp_path / "out" / "sk_meta.json").read_text())["superkernels"])
    assert total > 40 and len(out.splitlines()) <= 50, out
    assert f"  ... {total - len(listed)} more; see sk_meta.json (or -v)" in out.splitlines()
    readme = (tmp_path / "out" / "README.txt").read_text().splitlines()
    assert len([ln for ln in readme if ln.startswith("  decode_2000_sk")]) == total  # the full summary
    code, out, _ = run("sk-compile", [str(model), "-o", str(tmp_path / "out"), "-v"], capsys)
    assert len([ln for ln in out.splitlines() if ln.startswith("  decode_2000_sk")]) == total


# ---- help and "did you mean" ---------------------------------------------------------------------


def test_help_lists_every_pass_and_target(capsys: pytest.CaptureFixture[str]) -> None:
    from skir.registry import get_all_passes, get_all_targets

    code, out, _ = run("sk-opt", ["--help"], capsys)
    assert code == 0
    lines = out.splitlines()
    for name, get in get_all_passes().items():
        # the name whole at the start of its own line, then the docstring's first sentence
        first = (get().__doc__ or "").split(".")[0].split()[0]
        assert any(ln.startswith(f"  {name} ") and first in ln for ln in lines), name
    assert any(ln.strip().startswith('options=<str> (default "")') for ln in lines)
    assert any(ln.strip().startswith("patterns=<str>") for ln in lines)
    for name in get_all_targets():
        assert any(ln.startswith(f"  {name} ") for ln in lines), name
    assert any(ln.strip().startswith('sk=<str> (default "")') for ln in lines)


@pytest.mark.parametrize(("argv", "message"), [
    (["-p", "sk-outlne"], "sk-opt: error: unknown pass 'sk-outlne' (did you mean 'sk-outline'?)"),
    (["-t", "ascendd"], "sk-opt: error: argument -t/--target: unknown target 'ascendd' (did you mean 'ascendc'?)"),
    (["-p", 'sk-outline{options="early_strat=1"}'],
     "sk-opt: error: pass 'sk-outline' option 'options': unknown option 'early-strat' (did you mean 'early-start'?)"),
])
def test_did_you_mean(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, _, err = run("sk-opt", [str(CHAIN), *argv], capsys)
    assert code == 1 and len(err) == 1 and err[0].startswith(message), err


def test_the_torch_backend_lists_its_keys() -> None:
    pytest.importorskip("torch")
    from skir.frontends.torch import skir_backend

    with pytest.raises(SkirError) as info:
        skir_backend(None, [], options={"sk_option": "x"})  # type: ignore[arg-type]
    assert str(info.value) == ("skir backend: unknown option(s) sk_option (did you mean 'sk_options'?) (valid keys: "
                               "sk_options, out_dir, name, cores)")
