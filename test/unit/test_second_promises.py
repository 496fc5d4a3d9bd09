"""What a new user still tripped on after the first round (each reproduced, then kept): one
warning per bad option segment in the user's terms, pass options and pipelines refused in the
pipeline's own spelling with MLIR's caret, a closed pipe as a quiet exit, files that are not
models named as what they are, `-o -` and `-v -q` refused, and a Python API that prints and lists
itself plainly.

Every run goes through the real `sk-compile` / `sk-opt` main functions, a subprocess where the
process matters (a closed pipe), or `skir.compile`.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

import skir
from skir.testing.cli_run import run_tool

ROOT = Path(__file__).resolve().parents[2]
DECODE = ROOT / "examples" / "decode_layer.json"
CHAIN = ROOT / "examples" / "chain.mlir"


run = run_tool


# ---- option strings ---------------------------------------------------------------------------------


def test_a_segment_without_equals_warns_once_in_the_users_terms(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    for extra in ([], ["-q"], ["--options", "split-mode:select=gain"]):
        argv = [str(DECODE), "-o", str(tmp_path / "out"), *extra]
        if "--options" not in extra:
            argv += ["--options", "split-mode"]
        code, _, err = run("sk-compile", argv, capsys)
        assert code == 0
        assert err == ["sk-compile: warning: argument --options (options=): option segment 'split-mode' has no '=' "
                       "and is ignored"], (extra, err)  # once, not once per pass or per selection round


# ---- sk-opt: pass options, pipelines, passes run alone ---------------------------------------------


@pytest.mark.parametrize(("pipeline", "message"), [
    ("superkernel-pipeline{verify-each=maybe}",
     "sk-opt: error: pass 'superkernel-pipeline' option 'verify-each': expected true or false, got 'maybe'"),
    ("superkernel-pipeline{bogus=1}",
     "sk-opt: error: pass 'superkernel-pipeline' has no option 'bogus' (its options: options, verify-each)"),
    ("sk-outline{option=\"split-mode=2\"}",
     "sk-opt: error: pass 'sk-outline' has no option 'option' (did you mean 'options'?) (its options: options)"),
    ("sk-outline{options=3}",
     "sk-opt: error: pass 'sk-outline' option 'options': expected a string in double quotes (options=\"...\"), got 3"),
    ("sk-check{stats=1,2}", "sk-opt: error: pass 'sk-check' option 'stats': expected one value, got 2"),
])
def test_a_bad_pass_option_is_said_in_the_pipelines_spelling(pipeline: str, message: str,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run("sk-opt", [str(CHAIN), "-p", pipeline], capsys)
    assert code == 1 and err == [message]
    assert "<class" not in message and "Incompatible types" not in message


@pytest.mark.parametrize("pipeline", ["sk-outline{options=}", "sk-form-scopes{", "sk-form-scopes,,sk-outline"])
def test_a_pipeline_that_does_not_parse_shows_its_column(pipeline: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run("sk-opt", [str(CHAIN), "-p", pipeline], capsys)
    assert code == 1 and len(err) == 3, err
    found = re.match(r"sk-opt: error: argument -p/--passes: column (\d+): \S", err[0])
    assert found is not None, err[0]
    column = int(found.group(1))
    assert err[1] == f"  {pipeline}"
    assert err[2] == "  " + " " * (column - 1) + "^"  # the caret under the column, on its own line


def test_print_between_passes_shows_the_ir_inside_the_pipeline_pass(capsys: pytest.CaptureFixture[str]) -> None:
    from skir.passes.pipeline import pipeline_passes

    code, out, _ = run("sk-opt", [str(CHAIN), "-p", "superkernel-pipeline", "--print-between-passes"], capsys)
    assert code == 0
    shown = re.findall(r"^IR after ([\w-]+):$", out, flags=re.M)
    assert shown == [p.name for p in pipeline_passes("")][:-1]  # between passes: all but the last


def test_sk_outline_alone_says_nothing_was_formed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run("sk-opt", [str(CHAIN), "-p", "sk-outline"], capsys)
    assert code == 0 and "sk.kernel" not in out
    assert len(err) == 1 and "sk-outline: no kernel task carries sk.group or sk.fail" in err[0]
    assert "-p sk-form-scopes,sk-outline" in err[0]
    code, _, err = run("sk-opt", [str(CHAIN), "-p", "sk-form-scopes,sk-outline"], capsys)
    assert code == 0 and err == []


def test_a_closed_pipe_is_a_quiet_exit(tmp_path: Path) -> None:
    """The reader of standard output went away (`sk-opt big.mlir | head`): no message, exit 141
    (128 + SIGPIPE, what the shell reports for a Unix tool SIGPIPE ended)."""
    model = tmp_path / "big.json"
    subprocess.run([sys.executable, str(ROOT / "tools" / "gen_model.py"), "decode", "-n", "600", "-o", str(model)],
                   check=True, capture_output=True)
    for tool in ("skir.tools.sk_opt", "skir.tools.sk_compile"):
        argv = [str(model)] if tool.endswith("opt") else [str(model), "-o", str(tmp_path / "out"), "-v"]
        read, write = os.pipe()
        os.close(read)
        try:
            proc = subprocess.run([sys.executable, "-m", tool, *argv], stdout=write, stderr=subprocess.PIPE, text=True,
                                  check=False)
        finally:
            os.close(write)
        assert (proc.returncode, proc.stderr) == (141, ""), (tool, proc.returncode, proc.stderr)


def test_the_help_keeps_names_whole(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run("sk-opt", ["--help"], capsys)
    assert code == 0 and "'sk-form-scopes,sk-outline'" in out and "sk-form-\n" not in out
    assert re.search(r"--version\s+print skir's and xDSL's versions and exit", out)


# ---- sk-compile: what is not a model, where nothing can go ------------------------------------------


def test_a_file_that_is_not_a_model_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run("sk-compile", [str(ROOT / "README.md"), "-o", str(tmp_path / "out")], capsys)
    assert code == 1 and "{first_char}" not in err[0]
    assert err[0].startswith(f"{ROOT / 'README.md'}:1:1: error: Expected suffix identifier after '#' (a .md file "
                             "read as .mlir: skir reads .mlir models, capture JSON and the vendor's dumps)")
    code, _, err = run("sk-compile", [str(ROOT / "skir" / "sim" / "default_costs.json"), "-o", str(tmp_path / "o")],
                       capsys)
    assert code == 1 and len(err) == 1
    assert "format: this is a costs file (skir.sim.costs), not a model: give it with --costs (costs=)" in err[0]
    assert not (tmp_path / "out").exists() and not (tmp_path / "o").exists()


def test_output_dash_and_verbose_quiet_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run("sk-compile", [str(CHAIN), "-o", "-"], capsys)
    assert code == 1 and err == ["sk-compile: error: argument -o/--output: '-' is not a folder: sk-compile writes a "
                                 "folder of products, not a stream; give a folder name (it is created) (see "
                                 "sk-compile --help)"]
    code, _, err = run("sk-compile", [str(CHAIN), "-o", "out", "-v", "-q"], capsys)
    assert code == 1 and err == ["sk-compile: error: argument -q/--quiet: not allowed with argument "
                                 "-v/--verbose/--traceback (see sk-compile --help)"]
    assert list(tmp_path.iterdir()) == []


def test_the_report_table_is_capped_like_the_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from skir.targets.summary import MAX_SUPERKERNELS

    model = tmp_path / "d.json"
    subprocess.run([sys.executable, str(ROOT / "tools" / "gen_model.py"), "decode", "-n", "1000", "--seed", "1",
                    "-o", str(model)], check=True, capture_output=True)
    code, out, _ = run("sk-compile", [str(model), "-o", str(tmp_path / "out"), "--report"], capsys)
    assert code == 0
    table = out[out.index("timeline estimate"):]
    rows = re.findall(r"^  decode_1000_sk\d+ ", table, flags=re.M)
    count = len(re.findall(r"^  decode_1000_sk\d+ ", out[:out.index("entries:")], flags=re.M))
    assert len(rows) == MAX_SUPERKERNELS == count
    assert re.search(r"^  \.\.\. \d+ more SuperKernels in sk_meta\.json's profiling \(-v lists them\)$", table,
                     flags=re.M)
    full = (tmp_path / "out" / "README.txt").read_text()  # the full summary keeps every row
    assert len(re.findall(r"^  decode_1000_sk\d+ ", full[full.index("timeline estimate"):], flags=re.M)) > len(rows)


# ---- the Python API ---------------------------------------------------------------------------------


def test_the_package_says_its_version_and_lists_each_name_once() -> None:
    assert skir.__version__ == metadata.version("skir")
    names = dir(skir)
    assert len(names) == len(set(names))
    assert set(skir.__all__) <= set(names) and "__version__" in names
    assert not {"Any", "TYPE_CHECKING", "importlib", "gc_pause", "annotations", "api"} & set(names)


def test_a_result_prints_as_one_line() -> None:
    result = skir.compile(DECODE)
    text = repr(result)
    assert text == ("<skir.CompileResult @decode_layer: 1 SuperKernel(s), fusing 12 of 14 kernel tasks, "
                    "0 warning(s)>")
    assert "\n" not in repr(result.check()) and repr(result).endswith("; checked>")
