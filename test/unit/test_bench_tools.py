"""The benchmark and profiling scripts under tools/ run and print the tables they document
(no timing is checked: benchmarks are scripts, never timed tests)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str) -> str:
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_profile_passes_prints_every_pass_and_the_areas() -> None:
    out = _run("tools/profile_passes.py", "--tasks", "150", "--top", "3")
    from skir.passes.pipeline import pipeline_passes

    for p in pipeline_passes(""):
        assert re.search(rf"^{re.escape(p.name)}: \d+\.\d\d s$", out, re.M), out
    table = out.split("own time by code area", 1)[1].splitlines()[2:]
    shares = [float(line.split()[-1].rstrip("%")) for line in table if line.strip()]
    assert 99.0 <= sum(shares) <= 101.0, table  # every profiled function falls in one area
    assert any(line.startswith("skir analysis") for line in table) and any(line.startswith("xdsl ir") for line in table)


def test_profile_areas_sort_files() -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    from profile_passes import area  # type: ignore[import-not-found]

    assert area("/x/site-packages/xdsl/ir/core.py") == "xdsl ir"
    assert area("/x/site-packages/xdsl/pattern_rewriter.py") == "xdsl rewriting"
    assert area("/x/site-packages/xdsl/irdl/operations.py") == "xdsl irdl"
    assert area("/repo/skir/analysis/formation/formation.py") == "skir analysis"
    assert area("~") == "python" and area("<frozen abc>") == "python"


def test_bench_compile_skips_an_empty_size_list() -> None:
    out = _run("tools/bench_compile.py", "--sizes", "", "--end-to-end", "")
    assert out.splitlines()[0].startswith("skir compile benchmark") and len(out.splitlines()) == 2


def test_bench_compile_sets_the_passes_against_their_product() -> None:
    out = _run("tools/bench_compile.py", "--sizes", "", "--end-to-end", "", "--product", "200")
    row = out.splitlines()[-1].split()
    tasks, ops_in, ops_out, growth = int(row[0]), int(row[1]), int(row[2]), float(row[3])
    floor_in, floor_out, passes, per_in, per_out = map(float, row[4:])
    # counted another way: the model's .mlir has a line per op (its tasks and declarations)
    sys.path.insert(0, str(ROOT / "tools"))
    from gen_model import generate  # type: ignore[import-not-found]

    from skir.frontends.capture import from_dict

    text = str(from_dict(generate("decode", 200, seed=0)))
    lines = sum(1 for line in text.splitlines() if line.strip() not in ("}", ""))
    assert tasks == 200 and ops_in == lines  # the module, the model, declarations, streams, tasks
    assert ops_out > ops_in and abs(growth - ops_out / ops_in) < 0.01
    for ratio, floor in ((per_in, floor_in), (per_out, floor_out)):  # each shown to 0.005 s
        low, high = (passes - 0.005) / (floor + 0.005), (passes + 0.005) / max(floor - 0.005, 1e-3)
        assert low - 0.005 <= ratio <= high + 0.005


def test_bench_startup_prints_its_table() -> None:
    out = _run("tools/bench_startup.py", "--repeat", "1")
    lines = out.splitlines()
    assert lines[0].split() == ["what", "seconds", "goal"]
    assert any(line.startswith("import skir.registry") for line in lines)


def test_bench_share_prints_fewer_entries_for_identical_layers() -> None:
    out = _run("tools/bench_share.py", "--layers", "1,8", "--repeat", "1")
    rows = [line.split() for line in out.splitlines()[2:]]
    assert [(r[0], r[1], r[2], r[3]) for r in rows] == [("1", "1", "1", "1"), ("8", "10", "3", "10")], out
    assert int(rows[1][4].replace(",", "")) < int(rows[1][5].replace(",", ""))  # fewer bytes shared


def test_bench_apply_prints_its_table() -> None:
    import os
    import shutil

    import pytest

    if not os.environ.get("SKIR_ACL_INCLUDE") or shutil.which("g++") is None:
        pytest.skip("needs the ACL headers (make acl-headers sets SKIR_ACL_INCLUDE) and g++")
    out = _run("tools/bench_apply.py", "--sizes", "200", "--repeat", "1")
    lines = out.splitlines()
    assert lines[0].split() == ["kernels", "slots", "SKs", "entries", "apply", "s", "ACL", "calls", "us/slot"]
    row = lines[1].split()
    assert int(row[1]) >= int(row[0]) and int(row[5]) > int(row[1])  # every slot read: more calls than slots
