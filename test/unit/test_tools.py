"""The command-line tools, in-process: exit codes, outputs, one-line diagnostics."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from skir.tools import sk_compile, sk_opt

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_sk_opt_round_trips_the_example(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert sk_opt.main([str(EXAMPLES / "chain.mlir"), "-o", str(tmp_path / "a.mlir")]) == 0
    assert sk_opt.main([str(tmp_path / "a.mlir"), "-o", str(tmp_path / "b.mlir")]) == 0
    assert (tmp_path / "a.mlir").read_text() == (tmp_path / "b.mlir").read_text()


def test_sk_opt_reads_capture_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert sk_opt.main([str(EXAMPLES / "decode_layer.json"), "-p", "superkernel-pipeline", "-t", "ascendc"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("// ----- sk @decode_layer_sk0\n")
    assert "auto_gen_decode_layer_sk0_kernel" in out


def test_sk_opt_bad_input_is_one_line_and_no_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.mlir"
    bad.write_text("aclgraph.model @m cores(aic = 24, aiv = 48) {\n  aclgraph.bogus\n}\n")
    out = tmp_path / "out.mlir"
    assert sk_opt.main([str(bad), "-o", str(out)]) == 1
    err = capsys.readouterr().err.splitlines()
    # MLIR's form: the located line, the source line, a caret under the column
    assert len(err) == 3 and err[0].startswith(f"{bad}:3:1: error: ") and "aclgraph.bogus is not registered" in err[0]
    assert err[1] == "}" and err[2] == "^"  # xDSL locates it where the op's operands were expected
    assert not out.exists()


@pytest.mark.parametrize(("late", "message"), [
    ('superkernel-pipeline{options="stream-fusion=data"}', "option 'stream-fusion': expected 0 or 1, got 'data'"),
    ('sk-lower-sync{patterns="Bogus"}', "sk-lower-sync: patterns='Bogus'"),
    ('sk-to-ascendc{options="split-mode=0" patterns="LowerSubtask"}', "option 'split-mode'"),
])
def test_sk_opt_refuses_a_bad_pass_argument_before_any_pass_runs(
        late: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # found by the fuzzing campaign (seed 7): sk-check's stats line came out before the error
    out = tmp_path / "out.mlir"
    assert sk_opt.main([str(EXAMPLES / "chain.mlir"), "-p", f"sk-check{{stats=true}},{late}", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("sk-opt: error: ") and message in err, err
    assert not out.exists()


def test_sk_opt_internal_errors_exit_4(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from skir.passes import form_scopes

    def boom(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise RuntimeError("boom")

    monkeypatch.setattr(form_scopes, "form_model", boom)
    assert sk_opt.main([str(EXAMPLES / "chain.mlir"), "-p", "sk-form-scopes"]) == 4
    err = capsys.readouterr().err
    assert err == "sk-opt: internal error: RuntimeError: boom (rerun with --traceback)\n"


def test_sk_compile_writes_the_products(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert sk_compile.main([str(EXAMPLES / "chain.mlir"), "-o", str(out), "--dump-ir", str(tmp_path / "ir")]) == 0
    summary = capsys.readouterr().out
    assert "SuperKernels: 2, fusing 6 kernel tasks; launches saved: 4" in summary
    assert (out / "README.txt").read_text() == summary
    assert (out / "chain_sk0" / "chain_sk0_kernel.cpp").read_text().startswith("// SuperKernel chain_sk0")
    assert "aclgraph.launch_sk seq 0 @chain_sk0" in (out / "model.rewritten.mlir").read_text()
    assert sorted(p.name for p in (tmp_path / "ir").iterdir()) == [
        "00-input.mlir", "01-sk-form-scopes.mlir", "02-sk-outline.mlir", "03-sk-place-sync.mlir",
        "04-sk-lower-sync.mlir", "05-sk-prune-sync.mlir", "06-sk-place-blocks.mlir", "07-sk-insert-preload.mlir",
        "08-sk-insert-debug.mlir",
        "09-sk-to-ascendc.mlir",
    ]


def test_sk_compile_is_deterministic(tmp_path: Path) -> None:
    for run in ("a", "b"):
        assert sk_compile.main([str(EXAMPLES / "decode_layer.json"), "-o", str(tmp_path / run), "-q"]) == 0
    files_a = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    files_b = sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*") if p.is_file())
    assert files_a == files_b
    for rel in files_a:
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes()


def test_sk_compile_missing_compiler_is_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CXX", "definitely-not-a-compiler")
    assert sk_compile.main([str(EXAMPLES / "chain.mlir"), "-o", str(tmp_path / "out"), "--emulate"]) == 2
    assert "C++ compiler not found" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_sk_compile_emulate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert sk_compile.main([str(EXAMPLES / "chain.mlir"), "-o", str(tmp_path / "out"), "--emulate"]) == 0
    out = capsys.readouterr().out
    assert "emulation chain_sk0: ok: 4 sub-tasks on 72 cores, 6 edges proven" in out
