#!/usr/bin/env python3
"""Fuzzing campaign over skir's entry points: mutants of the shipped examples, classified.

Usage: `python tools/fuzz.py [--mutants 1200] [--seed 1] [--jobs 2] [--timeout 20] [--keep DIR]`

Each mutant is a capture JSON or `.mlir` model (structure-aware mutations of the shipped
examples: hostile names and strings, out-of-range numbers, deleted, duplicated and moved
tasks, non-UTF-8 bytes, NULs, BOMs, unterminated strings, truncation), an option string and,
for `sk-opt`, a pass pipeline and a target, run through the real `sk-compile` / `sk-opt`
main functions (in worker processes, each mutant in a folder of its own, with a timeout after
which the worker is killed). Each run is classified:

- `accepted`: exit 0 and a valid product (the rewritten model re-parses and sk-check proves
  it; JSON products parse; `sk-opt` output re-parses);
- `rejected`: exit 1 or 2 with one located line (a file position, a JSON path, a task path,
  or the option / pass / target / argument at fault; for a file position or a column of a `-p`
  pipeline, MLIR's form may add the source or pipeline line and a caret), besides warnings and
  the lines a `stats=true` pass prints when it ends;
- bad: `traceback`, `internal` (exit 4), `hang`, `unlocated`, `multiline`, `check` (exit 3:
  skir's own output failed its proof), `stray-files` (files outside OUT, or left after a
  failure), `invalid-product` (exit 0 with a product that does not hold).

It prints a table of the classes and the first bad cases, and exits 1 if any run is bad.
`make test` runs a fixed-seed budget (`make fuzz`); `--mutants 20000` is the long campaign.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import multiprocessing as mp
import os
import random
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from fuzz_mutators import json_mutant, mlir_mutant, option_string, pipeline_string, target_string  # noqa: E402

_SCENARIOS = "test/unit/vendor_scenarios/test_sk_2_stream_"
SEEDS = ["examples/decode_layer.json", "examples/chain.mlir", "examples/torch/mlp_block.json",
         "examples/torch/attention_moe.mlir", f"{_SCENARIOS}4_ops_remove_crossed_cub_to_vec.json",
         f"{_SCENARIOS}2_ops_default_send_recv_aic_only.json", "examples/vendor_dump/sk_graph_origin.json",
         "examples/vendor_dump/sk_mdl_origin.json"]
BAD = ("traceback", "internal", "hang", "unlocated", "multiline", "check", "stray-files", "invalid-product")
_LOCATED = re.compile(
    r"model\.(json|mlir)|<stdin>|streams\[|tasks\[|@[A-Za-z_\"]|\b(option|options|pass|target|argument|arguments"
    r"|compile-options|--help|stream|kernel|event|cell|buffer|scope)\b|:\d+:\d+"
)


_POSITIONED = re.compile(r"[^\s:][^:]*:\d+:\d+: error: |sk-opt: error: argument -p/--passes: (line \d+, )?column \d+: ")
_CARET = re.compile(r" *\^")
_STATS_LINE = re.compile(r"(sk-check|sk-prune-sync): \d+ SuperKernels, ")
"""The line `sk-check{stats=true}` / `sk-prune-sync{stats=true}` prints."""
_PRODUCT_PATH = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.]*(/[A-Za-z0-9_][A-Za-z0-9_.]*)*\Z")


@dataclass
class Case:
    index: int
    tool: str
    argv: list[str]
    """With `{model}` and `{out}` standing for the paths."""
    suffix: str
    data: bytes


@dataclass
class Outcome:
    index: int
    kind: str
    detail: str = ""
    case: Case | None = field(default=None, repr=False)


def make_case(rng: random.Random, index: int, seeds: dict[str, str]) -> Case:
    name = rng.choice(list(seeds))
    text = seeds[name]
    suffix = ".json" if name.endswith(".json") else ".mlir"
    keep = rng.random() < 0.15
    data = text.encode() if keep else (json_mutant(rng, text) if suffix == ".json" else mlir_mutant(rng, text))
    if rng.random() < 0.05:  # a model whose name does not say what it is
        suffix = ""
    if rng.random() < 0.6:
        tool = "sk-compile"
        argv = ["{model}", "-o", "{out}"]
        if rng.random() < 0.5:
            argv.append("--check")
        if rng.random() < 0.4 or keep:
            argv += ["--options", option_string(rng)]
        if rng.random() < 0.05:
            argv.append(rng.choice(("--bogus", "--verify-each=maybe", "--verify-each=false", "-q", "--report",
                                    "--costs", "--dump-ir", "--cores=24:48", "--cores=0:9", "--vendor")))
    else:
        tool = "sk-opt"
        argv = ["{model}"]
        if rng.random() < 0.7 or keep:
            argv += ["-p", pipeline_string(rng)]
        if rng.random() < 0.3:
            argv += ["-t", target_string(rng)]
        if rng.random() < 0.2:
            argv += ["-o", "{out}"]
        if suffix == ".mlir" and rng.random() < 0.1:
            argv.append("--split-input-file")
        if rng.random() < 0.05:
            argv.append(rng.choice(("--bogus", "--verify-each=maybe", "-v", "--no-implicit-module")))
    return Case(index, tool, argv, suffix, data)


# ---- running one case ------------------------------------------------------------------------


def _files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() or p.is_symlink()}


def run_case(case: Case, work: Path) -> Outcome:
    from skir.tools import sk_compile, sk_opt

    shutil.rmtree(work, ignore_errors=True)
    (work / "cwd").mkdir(parents=True)
    model = work / f"model{case.suffix}"
    model.write_bytes(case.data)
    out = work / "out"
    argv = [a.replace("{model}", str(model)).replace("{out}", str(out)) for a in case.argv]
    if "--dump-ir" in argv and argv[-1] == "--dump-ir":
        argv.append(str(work / "ir"))  # a debugging aid: written also when a pass fails
    if "--costs" in argv and argv[-1] == "--costs":
        argv.append(str(model))
    stdout, stderr = io.StringIO(), io.StringIO()
    root_before = set(os.listdir("/"))
    cwd = os.getcwd()
    os.chdir(work / "cwd")
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                code = (sk_compile.main if case.tool == "sk-compile" else sk_opt.main)(argv)
            except SystemExit as err:
                code = err.code if isinstance(err.code, int) else 1
            except BaseException as err:
                return Outcome(case.index, "traceback", f"{type(err).__name__}: {err}".splitlines()[0][:200])
    finally:
        os.chdir(cwd)
    return classify(case, code, stdout.getvalue(), stderr.getvalue(), work, root_before)


def classify(case: Case, code: int, stdout: str, stderr: str, work: Path, root_before: set[str]) -> Outcome:
    def bad(kind: str, detail: str) -> Outcome:
        return Outcome(case.index, kind, detail[:300])

    if "Traceback (most recent call last)" in stderr:
        return bad("traceback", stderr.strip().splitlines()[-1])
    if set(os.listdir("/")) - root_before:
        return bad("stray-files", f"new entries in /: {sorted(set(os.listdir('/')) - root_before)}")
    files = _files(work) - {f"model{case.suffix}"}
    allowed = {f for f in files if f == "out" or f.startswith("out/")} if code == 0 else set()
    allowed |= {f for f in files if f.startswith("ir/")}
    stray = sorted(files - allowed)
    if stray:
        return bad("stray-files", f"exit {code}, files {stray[:5]}")
    # a `stats=true` pass's line is output the pipeline asked for, printed when that pass ended
    # (before a later target or pass could fail), not part of a diagnostic
    stats = any("stats=true" in arg for arg in case.argv)
    lines = [ln for ln in stderr.splitlines()
             if ln.strip() and ": warning: " not in ln and not (stats and _STATS_LINE.match(ln))]
    if code == 4:
        return bad("internal", lines[0] if lines else "exit 4")
    if code == 3:
        return bad("check", lines[0] if lines else "exit 3")
    if code in (1, 2):
        if len(lines) == 3 and _POSITIONED.match(lines[0]) and _CARET.fullmatch(lines[2]):
            lines = lines[:1]  # MLIR's form: the located line, then the source (or pipeline) line and a caret
        if len(lines) != 1:
            return bad("multiline", " | ".join(lines[:3]) or "no message")
        if not _LOCATED.search(lines[0]) and str(work / "model") not in lines[0]:
            return bad("unlocated", lines[0])
        return Outcome(case.index, "rejected", lines[0])
    if code != 0:
        return bad("internal", f"exit {code}")
    problem = _product_problem(case, stdout, work)
    return bad("invalid-product", problem) if problem else Outcome(case.index, "accepted")


def _product_problem(case: Case, stdout: str, work: Path) -> str | None:
    import skir
    from skir.analysis.proof.sk_check import check_module

    out = work / "out"
    try:
        if case.tool == "sk-compile":
            if not (out / "README.txt").is_file():
                return "no README.txt"
            for path in out.rglob("*"):
                rel = str(path.relative_to(out))
                if not _PRODUCT_PATH.match(rel):
                    return f"a product path that is not plain words: {rel!r}"
            for script in out.glob("*/build.sh"):
                text = script.read_text()
                if "INJECTED" in text or "\n;" in text:
                    return f"input text reached {script.relative_to(out)}"
            json.loads((out / "sk_meta.json").read_text())
            json.loads((out / "plan.json").read_text())
            report = check_module(skir.parse((out / "model.rewritten.mlir").read_text(), "rewritten.mlir"))
            return None if report.ok else f"sk-check: {report.violations[0]}"
        text = out.read_text() if "{out}" in case.argv else stdout
        target = case.argv[case.argv.index("-t") + 1] if "-t" in case.argv else "mlir"
        if target.startswith(("sk-meta", "sk-plan", "sk-descriptor")):
            json.loads(text)
        elif target == "mlir" and "--split-input-file" not in case.argv and text.strip():
            skir.parse(text, "output.mlir")
    except Exception as err:
        return f"{type(err).__name__}: {str(err).splitlines()[0][:200] if str(err) else ''}"
    return None


# ---- the pool --------------------------------------------------------------------------------


def _worker(conn, work_root: str) -> None:  # type: ignore[no-untyped-def]
    import warnings

    warnings.simplefilter("ignore")
    while True:
        case = conn.recv()
        if case is None:
            return
        conn.send(run_case(case, Path(work_root) / f"case{case.index}"))


class Pool:
    """Worker processes that each run one case at a time; a case over `timeout` s kills its worker."""

    def __init__(self, jobs: int, timeout: float, work_root: Path):
        self.jobs, self.timeout, self.work_root = jobs, timeout, work_root
        self.ctx = mp.get_context("fork")
        self.workers: list[list] = []  # type: ignore[type-arg]  # [process, conn, case, started]

    def _spawn(self) -> list:  # type: ignore[type-arg]
        parent, child = self.ctx.Pipe()
        proc = self.ctx.Process(target=_worker, args=(child, str(self.work_root)), daemon=True)
        proc.start()
        return [proc, parent, None, 0.0]

    def run(self, cases: list[Case], progress: bool) -> list[Outcome]:
        from multiprocessing.connection import wait

        pending = list(reversed(cases))
        results: list[Outcome] = []
        step, shown = max(1, len(cases) // 12), 0  # --progress: about a dozen lines in all
        self.workers = [self._spawn() for _ in range(self.jobs)]
        while pending or any(w[2] is not None for w in self.workers):
            for w in self.workers:
                if w[2] is None and pending:
                    w[2], w[3] = pending.pop(), time.monotonic()
                    w[1].send(w[2])
            busy = [w for w in self.workers if w[2] is not None]
            ready = wait([w[1] for w in busy], timeout=0.5)
            now = time.monotonic()
            for i, w in enumerate(self.workers):
                if w[2] is None:
                    continue
                if w[1] in ready:
                    try:
                        outcome = w[1].recv()
                    except EOFError:
                        outcome = Outcome(w[2].index, "traceback", "the worker died")
                        w[0].join(1)
                        self.workers[i] = self._spawn()
                    outcome.case = w[2]
                    results.append(outcome)
                    if w is self.workers[i]:
                        w[2] = None
                elif now - w[3] > self.timeout:
                    w[0].kill()
                    w[0].join(5)
                    results.append(Outcome(w[2].index, "hang", f"no result after {self.timeout:.0f} s", w[2]))
                    shutil.rmtree(self.work_root / f"case{w[2].index}", ignore_errors=True)
                    self.workers[i] = self._spawn()
            if progress and len(results) // step > shown:
                shown = len(results) // step
                print(f"  fuzz: {len(results)} / {len(cases)} mutants", file=sys.stderr, flush=True)
        for w in self.workers:
            w[1].send(None)
            w[0].join(5)
        return sorted(results, key=lambda o: o.index)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", type=int, default=1200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=max(1, min(2, os.cpu_count() or 1)))
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per mutant before it is a hang")
    parser.add_argument("--keep", metavar="DIR", help="write each bad mutant (input and argv) into DIR")
    parser.add_argument("--progress", action="store_true")
    args = parser.parse_args()
    seeds = {name: (ROOT / name).read_text() for name in SEEDS}
    rng = random.Random(args.seed)
    cases = [make_case(rng, i, seeds) for i in range(args.mutants)]
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="skir-fuzz-") as tmp:
        results = Pool(args.jobs, args.timeout, Path(tmp)).run(cases, args.progress)
    elapsed = time.monotonic() - start
    counts: dict[str, int] = {}
    for r in results:
        counts[r.kind] = counts.get(r.kind, 0) + 1
    print(f"skir fuzz: {len(results)} mutants, seed {args.seed}, {elapsed:.0f} s ({args.jobs} jobs)")
    print(f"  {'class':<16} {'mutants':>8}")
    for kind in ("accepted", "rejected", *BAD):
        print(f"  {kind:<16} {counts.get(kind, 0):>8}")
    bad = [r for r in results if r.kind in BAD]
    for r in bad[:20]:
        assert r.case is not None
        line = f"  BAD {r.kind} #{r.index} {r.case.tool} {' '.join(r.case.argv)} ({r.case.suffix or 'no suffix'}): "
        print((line + r.detail).encode("ascii", "backslashreplace").decode())
    if args.keep and bad:
        keep = Path(args.keep)
        keep.mkdir(parents=True, exist_ok=True)
        for r in bad:
            assert r.case is not None
            (keep / f"{r.index}{r.case.suffix}").write_bytes(r.case.data)
            (keep / f"{r.index}.argv.json").write_text(json.dumps({"tool": r.case.tool, "argv": r.case.argv,
                                                                   "kind": r.kind, "detail": r.detail}))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
