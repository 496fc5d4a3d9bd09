"""Hostile input: each class the fuzzing campaign found, with its smallest reproducer.

Every run goes through the real `sk-compile` / `sk-opt` main functions in a folder of its own;
a bad input must exit 1 with one line on stderr and leave nothing behind, anywhere.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import skir
from skir.tools import sk_compile, sk_opt

ROOT = Path(__file__).resolve().parents[2]
DECODE = json.loads((ROOT / "examples" / "decode_layer.json").read_text())


def _tree(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def run(tool: str, argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str], str]:
    code = (sk_compile.main if tool == "sk-compile" else sk_opt.main)(argv)
    captured = capsys.readouterr()
    errors = [ln for ln in captured.err.splitlines() if ln.strip() and ": warning: " not in ln]
    return code, errors, captured.out


def one_diagnostic(errors: list[str]) -> str:
    """The diagnostic of a failed run: one line, or MLIR's three (the located line, then the
    source line and a caret under the column); its first line."""
    if len(errors) == 3 and errors[2].strip() == "^" and ": error: " in errors[0]:
        return errors[0]
    assert len(errors) == 1, errors
    return errors[0]


def refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes | str, suffix: str = ".json",
            extra: tuple[str, ...] = ()) -> str:
    """Run sk-compile on `data`; assert exit 1, one diagnostic, and nothing written; return its line."""
    model = tmp_path / f"model{suffix}"
    model.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass"))
    before = _tree(tmp_path)
    root_before = set(os.listdir("/"))
    code, errors, _ = run("sk-compile", [str(model), "-o", str(tmp_path / "out"), *extra], capsys)
    assert code == 1, errors
    line = one_diagnostic(errors)
    assert _tree(tmp_path) == before, _tree(tmp_path) - before
    assert set(os.listdir("/")) == root_before
    return line


def with_model_name(name: str) -> str:
    return json.dumps({**DECODE, "model": name})


# ---- security -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["../evil", "/abs_skir_evil", "a/b", ".."])
def test_a_model_name_cannot_leave_out(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    line = refused(tmp_path, capsys, with_model_name(name))
    assert "model.json: model:" in line and "is not a C identifier" in line


def test_an_mlir_model_name_cannot_leave_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = refused(tmp_path, capsys, 'aclgraph.model @"../x" cores(aic = 1, aiv = 1) {\n}\n', ".mlir")
    assert line.endswith("model.mlir:1:1: error: aclgraph.model '../x': '../x' is not a C identifier "
                         "([A-Za-z_][A-Za-z0-9_]*)")


@pytest.mark.parametrize("name", ["x\n; touch INJECTED\n", "a b", "a{b}", "$(id)", "`id`"])
def test_names_that_are_not_identifiers_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     name: str) -> None:
    line = refused(tmp_path, capsys, with_model_name(name))
    assert "\n" not in line and "is not a C identifier" in line


@pytest.mark.parametrize("where", ["kernels", "buffers", "events", "streams"])
def test_every_kind_of_name_is_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str) -> None:
    old = {"kernels": "rms_norm", "buffers": "hidden", "events": "join1", "streams": "s1"}[where]
    text = json.dumps(DECODE).replace(json.dumps(old), json.dumps("a b"))
    assert json.dumps("a b") in text
    line = refused(tmp_path, capsys, text)
    assert "'a b' is not a C identifier" in line and line.startswith("sk-compile: error: ")


@pytest.mark.parametrize("flags", ["-g;touch INJECTED", "$(touch INJECTED)", "`touch INJECTED`", "-g|x",
                                   "-g\n-O2", "-D X", "-I/a b", "---x", "--", "-D'x'", "--a;b"])
def test_compile_options_cannot_reach_the_shell(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 flags: str) -> None:
    line = refused(tmp_path, capsys, json.dumps(DECODE), extra=("--options", f"compile-options={flags}"))
    assert "compile-options" in line
    # the same flags inside the capture, on a scope
    doc = json.loads(json.dumps(DECODE))
    begin = next(t for s in doc["streams"] for t in s["tasks"] if t["type"] == "scope_begin")
    begin["options"] = f"compile-options={flags}"
    assert "compile-options" in refused(tmp_path, capsys, json.dumps(doc))


def test_valid_compile_options_are_written_as_quoted_words(tmp_path: Path) -> None:
    """The vendor's option is a comma-separated list of flags, one bisheng argument each; `--`
    flags are flags too. Each reaches build.sh inside single quotes, and the shell reads each
    back as exactly one word (shlex, a second reader of the script)."""
    import shlex

    flags = ["-g", "-DSKIR_X=1", "-O2", "--cce-auto-sync=off"]
    skir.compile(DECODE, options=f"compile-options={','.join(flags)}").write(tmp_path / "out")
    (script,) = (tmp_path / "out").glob("*/build.sh")
    text = script.read_text()
    assert " " + " ".join(f"'{f}'" for f in flags) + " " in text
    assert subprocess.run(["sh", "-n", str(script)]).returncode == 0
    line = next(ln for ln in text.splitlines() if ln.startswith('"$bisheng"'))
    words = shlex.split(line)
    assert all(words.count(f) == 1 for f in flags), words


# ---- the model contract ---------------------------------------------------------------------


def _cells_model(wait: dict, writes: list[dict]) -> str:  # type: ignore[type-arg]
    return json.dumps({"format": "skir.aclgraph.capture", "version": 1, "model": "m", "cores": {"aic": 24, "aiv": 48},
                       "kernels": {"k": {"kernel_type": "aiv_only", "params": []}}, "cells": ["c"],
                       "streams": [{"name": "s0", "tasks": [*writes, {"type": "kernel", "kernel": "k", "blocks": 4},
                                                            wait]}]})


def test_a_value_wait_nothing_satisfies_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wait = {"type": "value_wait", "cell": "c", "value": 1, "rule": "eq"}
    line = refused(tmp_path, capsys, _cells_model(wait, []))
    assert "@m/@s0/seq 1: value_wait on @c (eq 1) is satisfied by no write of the model" in line
    result = skir.compile(json.loads(_cells_model({**wait, "external": True}, []))).check()
    assert result.proof.ok  # external: satisfied from outside, and sk-check agrees


def test_a_wait_whose_records_all_come_after_it_is_bad_input(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    line = refused(tmp_path, capsys, "aclgraph.model @m cores(aic = 24, aiv = 48) {\n  aclgraph.event @e\n"
                   "  aclgraph.stream @s0 {\n    aclgraph.wait seq 0 @e\n    aclgraph.record seq 1 @e\n"
                   "    aclgraph.record seq 2 @e\n  }\n}\n", ".mlir")
    assert "model.mlir:4:5: error: @m/@s0/seq 0: wait on @e can never be satisfied" in line


# ---- bytes, characters and sizes --------------------------------------------------------------


def test_bytes_that_are_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.dumps(DECODE).encode()
    line = refused(tmp_path, capsys, data[:40] + b"\xff" + data[40:])
    want = ": byte 40: not UTF-8 (0xff); models are UTF-8 text"
    assert line == "sk-compile: error: " + str(tmp_path / "model.json") + want


def test_a_lone_surrogate_and_a_nul(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(json.dumps(DECODE))
    begin = next(t for s in doc["streams"] for t in s["tasks"] if t["type"] == "scope_begin")
    begin["scope"] = "\ud800"
    assert "streams[0].tasks[0].scope: a lone surrogate (\\ud800)" in refused(tmp_path, capsys, json.dumps(doc))
    begin["scope"] = "a\u0000b"
    assert "streams[0].tasks[0].scope: a NUL character at character 1" in refused(tmp_path, capsys, json.dumps(doc))
    line = refused(tmp_path, capsys, b"aclgraph.model @m cores(aic = 1, aiv = 1) {\n\x00}\n", ".mlir")
    assert line.endswith("model.mlir:2:1: error: a NUL character; models are text")


def test_a_300_byte_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = refused(tmp_path, capsys, with_model_name("a" * 300))
    assert "is 300 bytes long; names are at most 128 bytes" in line


def test_a_bom_is_accepted_alike(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "bom.json"
    model.write_bytes(b"\xef\xbb\xbf" + json.dumps(DECODE).encode())
    assert run("sk-compile", [str(model), "-o", str(tmp_path / "out")], capsys)[0] == 0
    assert run("sk-opt", [str(model)], capsys)[0] == 0
    assert skir.compile(model).superkernels
    assert skir.compile("\ufeff" + json.dumps(DECODE) + "\n").superkernels


def test_an_unterminated_string_does_not_hang(tmp_path: Path) -> None:
    """xDSL's lexer backtracks exponentially on it (source_text.guard_mlir); the guard answers in
    linear time. The subprocess timeout only keeps a regression from hanging the suite."""
    model = tmp_path / "redos.mlir"
    model.write_text('aclgraph.model @m cores(aic = 1, aiv = 1) soc "' + "a" * 60 + "\n")
    done = subprocess.run([sys.executable, "-m", "skir.tools.sk_opt", str(model)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1
    assert done.stderr.strip() == f"sk-opt: error: {model}:1:47: string literal is not terminated on its line"


# ---- located, one-line messages ---------------------------------------------------------------

UNLOCATED = {
    "parent": ("aclgraph.model @m cores(aic = 24, aiv = 48) {\n  aclgraph.kernel @k aiv_only params 0\n"
               "  aclgraph.launch seq 0 @k blocks 1\n}\n", "model.mlir:3:3: error: 'aclgraph.launch' expects parent op "
               "'aclgraph.stream'"),
    "blocks": ('"aclgraph.model"() <{sym_name = "m", aic_cores = #builtin.int<1>, aiv_cores = #builtin.int<1>}> ({\n'
               '^bb0:\n  "aclgraph.event"() <{sym_name = "e"}> : () -> ()\n^bb1:\n'
               '  "aclgraph.event"() <{sym_name = "f"}> : () -> ()\n}) : () -> ()\n',
               "model.mlir:3:3: error: Operation aclgraph.event terminates block in multi-block region"),
    "range": ("aclgraph.model @m cores(aic = 24, aiv = 48) {\n  aclgraph.stream @s0 attributes {x = 999 : i8} {\n"
              "  }\n}\n", "model.mlir:2:3: error: Integer value 999 is out of range for type i8"),
}


@pytest.mark.parametrize("case", sorted(UNLOCATED))
def test_xdsl_errors_are_located(tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str) -> None:
    text, expected = UNLOCATED[case]
    (tmp_path / "model.mlir").write_text(text)
    code, errors, _ = run("sk-opt", [str(tmp_path / "model.mlir")], capsys)
    assert code == 1 and expected in one_diagnostic(errors), errors


@pytest.mark.parametrize(("argv", "expected"), [
    (["-p", "sk-outline{b=1}"], "sk-opt: error: pass 'sk-outline' has no option 'b' (its options: options)"),
    (["-t", "ascendc{b=1}"], "sk-opt: error: target 'ascendc' has no option 'b' (its options: sk)"),
    (["--bogus"], "sk-opt: error: unrecognized arguments: --bogus (see sk-opt --help)"),
    (["--verify-each=maybe"], "sk-opt: error: argument --verify-each: expected true or false, got 'maybe'"),
])
def test_sk_opt_arguments_are_named(capsys: pytest.CaptureFixture[str], argv: list[str], expected: str) -> None:
    code, errors, _ = run("sk-opt", [str(ROOT / "examples" / "chain.mlir"), *argv], capsys)
    assert code == 1 and len(errors) == 1 and errors[0].startswith(expected), errors


@pytest.mark.parametrize("argv", [["--bogus"], ["--verify-each=maybe"], []])
def test_sk_compile_command_line_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     argv: list[str]) -> None:
    code, errors, _ = run("sk-compile", [str(ROOT / "examples" / "chain.mlir"), *argv,
                                         *(["-o", str(tmp_path / "out")] if argv else [])], capsys)
    assert code == 1 and len(errors) == 1 and errors[0].startswith("sk-compile: error: ") and "usage" not in errors[0]


def test_a_message_with_a_newline_stays_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(json.dumps(DECODE))
    doc["streams"][0]["tasks"][3]["kernel"] = "no\nsuch"
    line = refused(tmp_path, capsys, json.dumps(doc))
    assert "'no\\x0asuch'" in line


def test_o_naming_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "afile").write_text("x")
    code, errors, _ = run("sk-compile", [str(ROOT / "examples" / "chain.mlir"), "-o", str(tmp_path / "afile")], capsys)
    assert code == 1 and errors == [f"sk-compile: error: {tmp_path / 'afile'}: exists and is not a folder; give -o a "
                                    "folder (it is created)"]


def test_version_and_standard_input(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    for tool in ("sk-compile", "sk-opt"):
        assert (sk_compile.main if tool == "sk-compile" else sk_opt.main)(["--version"]) == 0
        out = capsys.readouterr().out
        assert out.startswith(f"{tool} (skir ") and "built on xdsl 0.74.0" in out
    for data, tool in ((json.dumps(DECODE).encode(), "sk-compile"), ((ROOT / "examples" / "chain.mlir").read_bytes(),
                                                                      "sk-opt")):
        import io

        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        argv = ["-", "-o", str(tmp_path / "stdin")] if tool == "sk-compile" else ["-", "-p", "superkernel-pipeline"]
        code, errors, out = run(tool, argv, capsys)
        assert code == 0, errors
    assert (tmp_path / "stdin" / "plan.json").is_file()


def test_v_means_verbose_in_both_tools(capsys: pytest.CaptureFixture[str]) -> None:
    code, errors, _ = run("sk-opt", [str(ROOT / "examples" / "chain.mlir"), "-v", "-p", "sk-nope"], capsys)
    assert code == 1 and len(errors) == 1  # a bad pipeline is bad input, one line even with -v


def test_option_holes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    chain = str(ROOT / "examples" / "chain.mlir")
    code, errors, _ = run("sk-compile", [chain, "-o", str(tmp_path / "o"), "--options", "debug-aic-num=4"], capsys)
    assert code == 1 and "debug-aiv-num' too" in errors[0] and errors[0].startswith(
        "sk-compile: error: option 'debug-aic-num' alone")
    with pytest.warns(UserWarning, match="option 'dcci-before-kernel-start' names no kernel of model @chain: 'zz'"):
        skir.compile(chain, options="dcci-before-kernel-start=zz")


@pytest.mark.parametrize("target", ["sk-plan", "ascendc", "sk-descriptor"])
def test_targets_after_a_pipeline_that_fuses_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     target: str) -> None:
    model = tmp_path / "one.mlir"
    model.write_text("aclgraph.model @m cores(aic = 24, aiv = 48) {\n  aclgraph.kernel @k aiv_only params 0\n"
                     "  aclgraph.stream @s0 {\n    aclgraph.launch seq 0 @k blocks 1\n  }\n}\n")
    code, errors, out = run("sk-opt", [str(model), "-p", "superkernel-pipeline", "-t", target], capsys)
    assert code == 0, errors
    if target == "sk-plan":
        assert json.loads(out)["superkernels"] == []
    code, errors, _ = run("sk-opt", [str(model), "-t", target], capsys)  # no pipeline: say so
    assert code == 1 and f"target '{target}'" in errors[0]


def test_analyses_take_a_module() -> None:
    from skir.analysis.graph.happens_before import HappensBefore
    from skir.analysis.graph.task_graph import TaskGraph

    module = skir.load_model(ROOT / "examples" / "chain.mlir")
    assert len(TaskGraph(module)) == len(HappensBefore(module).order) == 7
    with pytest.raises(TypeError, match=r"TaskGraph takes an aclgraph\.model"):
        TaskGraph("chain")  # type: ignore[arg-type]


# ---- atomic outputs -------------------------------------------------------------------------


def test_a_failed_run_leaves_out_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from skir import outputs

    out = tmp_path / "out"
    skir.compile(ROOT / "examples" / "chain.mlir").write(out)
    (out / "mine.txt").write_text("keep me")
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}

    def killed(*_: object) -> None:
        raise KeyboardInterrupt  # as a kill between staging and the swap

    monkeypatch.setattr(outputs, "_commit", killed)
    with pytest.raises(KeyboardInterrupt):
        skir.compile(DECODE).write(out)
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no stage left beside OUT


def test_a_run_over_an_existing_out_is_complete(tmp_path: Path) -> None:
    out = tmp_path / "out"
    skir.compile(ROOT / "examples" / "chain.mlir").write(out)
    (out / "mine.txt").write_text("keep me")
    result = skir.compile(DECODE).write(out)
    assert (out / "mine.txt").read_text() == "keep me"
    assert (out / "decode_layer_sk0" / "decode_layer_sk0_kernel.cpp").is_file()
    assert json.loads((out / "sk_meta.json").read_text())["model"] == "decode_layer"
    assert all(path.is_file() for path in result.outputs.values())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


# ---- the campaign's own oracle ----------------------------------------------------------------


def test_the_fuzz_classifier_catches_what_it_must(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    import fuzz

    case = fuzz.Case(0, "sk-compile", ["{model}", "-o", "{out}"], ".json", b"{}")
    work = tmp_path / "w"
    (work / "out" / "m_sk0").mkdir(parents=True)
    (work / "model.json").write_bytes(b"{}")
    roots = set(os.listdir("/"))
    (work / "evil_sk0_kernel.cpp").write_text("")  # written next to OUT
    assert fuzz.classify(case, 0, "", "", work, roots).kind == "stray-files"
    (work / "evil_sk0_kernel.cpp").unlink()
    for name in ("README.txt", "sk_meta.json", "plan.json"):
        (work / "out" / name).write_text("{}")
    (work / "out" / "m_sk0" / "build.sh").write_text("bisheng -g\n; touch INJECTED\n")
    assert fuzz.classify(case, 0, "", "", work, roots).kind == "invalid-product"
    assert fuzz.classify(case, 1, "", "sk-compile: error: oops\n", work, roots).kind == "stray-files"
    (work / "out").rename(work / "gone")
    assert fuzz.classify(case, 1, "", "sk-compile: error: model.json: x\nmore\n", work, roots).kind != "rejected"


def test_the_fuzz_classifier_passes_a_stats_line_only_when_asked_for(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    import fuzz

    work = tmp_path / "w"
    work.mkdir()
    (work / "model.mlir").write_text("")
    roots = set(os.listdir("/"))
    err = ("sk-check: 0 SuperKernels, 0 sub-tasks, 0 syncs (0.00 per sub-task), 5 edges checked\n"
           "sk-opt: error: target 'ascendc': no Ascend C entries in the module\n")
    asked = fuzz.Case(0, "sk-opt", ["{model}", "-p", "sk-check{stats=true}", "-t", "ascendc"], ".mlir", b"")
    plain = fuzz.Case(0, "sk-opt", ["{model}", "-p", "sk-check", "-t", "ascendc"], ".mlir", b"")
    assert fuzz.classify(asked, 1, "", err, work, roots).kind == "rejected"
    assert fuzz.classify(plain, 1, "", err, work, roots).kind == "multiline"
    two_errors = "sk-opt: error: target 'ascendc': x\nsk-opt: error: again\n"
    assert fuzz.classify(asked, 1, "", two_errors, work, roots).kind == "multiline"
