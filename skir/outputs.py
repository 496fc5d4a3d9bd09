"""Writing `sk-compile`'s products (docs/design.md §5) without ever leaving a partial output.

Everything is written into a staging folder next to OUT first; only when every product
(and, with `--emulate`, every emulation) succeeded does the stage take OUT's place, in one
atomic swap. On failure OUT gains no new files; a run killed at any point leaves OUT as it
was or complete (and at worst a hidden `.OUT.skir-stage-*` folder beside it).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from skir import progress
from skir.dialects.model_lookup import the_model
from skir.errors import CheckFailedError, ExitCode, MissingToolError, SkirError
from skir.hostsim.spec import PROGRESS_FILE
from skir.passes.common import SkirWarning
from skir.provenance import stamp
from skir.result_records import ResultData
from skir.targets.ascendc import emit_source, sources
from skir.targets.descriptor import dump_descriptor
from skir.targets.plan import dump_plan, plan
from skir.targets.shared_entries import entry_text, group_build_script, group_descriptor, shared_of
from skir.targets.sk_meta import render_fail_reasons, sk_meta, write_meta
from skir.targets.summary import render_summary
from skir.targets.vendor_fail_log import render_vendor_fail_log
from skir.xdsl_fast.printer import ir_text

VENDOR_FAIL_LOG = "sk_fusion_fail_reasons.log"
"""The vendor's log, in the vendor's format (`skir.targets.vendor_fail_log`)."""
SKIR_FAIL_LOG = "skir_fail_reasons.log"
"""skir's own: one line per unfused kernel, the SuperKernels' members, a summary."""


Product = str | Callable[[IO[str]], None]
"""A product's text, or what writes it to an open file (a text too large to hold)."""


def product_texts(result: ResultData) -> Iterator[tuple[str, Product]]:
    """(relative path, text or writer) of every product except the summary, each as it is made:
    the caller writes it before the next is made, so no two large texts are held at once."""
    with progress.phase("model.rewritten.mlir"):
        text = ir_text(result.module) + "\n"
    yield "model.rewritten.mlir", text
    del text
    with progress.phase("shared entries"):
        shared = shared_of(result)
    with progress.phase("entries"):
        for source in sources(result.module):  # an entry of no sk.kernel (a hand-written module) as it is
            if source.sym_name.data not in shared.by_sk:
                yield f"{source.sym_name.data}/{source.sym_name.data}_kernel.cpp", emit_source(source)
        for group in shared.groups:  # one entry per distinct SuperKernel (docs/design.md §5)
            yield f"{group.name}/{group.name}_kernel.cpp", entry_text(group)
    with progress.phase("descriptors and build scripts"):
        for group in shared.groups:
            yield f"{group.name}/{group.name}.json", dump_descriptor(stamp(group_descriptor(group)))
            yield f"{group.name}/build.sh", group_build_script(group)
    unreset: dict[str, list[tuple[str, str]]] = {}
    for w in result.warnings:
        if w.warning == "unreset_event":
            unreset.setdefault(w.superkernel, []).append((w.cell, w.event))
    with progress.phase("sk meta"):
        meta = sk_meta(result.module, result.original, unreset, shared)
    result.plan_updates = meta["updates"]
    if result.model_warnings:
        meta["warnings"] = [w.as_dict() for w in result.model_warnings]
    by_name = {sk["name"]: sk for sk in meta["superkernels"]}
    for w in result.warnings:
        if w.warning == "predicted_slower" and w.superkernel in by_name:
            by_name[w.superkernel]["warnings"].append(w.as_dict())
    if result.selection:
        meta["selection"] = [d.as_dict() for d in result.selection]
    if result.report is not None:
        from skir.sim.trace import dump_trace, stream_edges, trace_events

        meta["profiling"] = result.report.profiling()
        with progress.phase("timeline.json"):
            measured = result.measured.timeline if result.measured is not None else ()
            edges = {}
            if result.original is not None:
                top = the_model(result.original)
                before, after = stream_edges(top, result.graph_of(top)), stream_edges(the_model(result.module))
                edges = {mode: after if mode == "superkernel" else before for mode in result.report.comparison.runs}
            trace = trace_events(result.report.comparison, meta["model"], result.report.costs_source, measured,
                                 edges)
            trace["otherData"].update(stamp({}))  # the trace format's place for anything else
            timeline = dump_trace(trace)
            del trace
        yield "timeline.json", timeline
        del timeline
    if result.calibration is not None:
        from skir.targets.json_text import dumps_indented

        yield "costs.calibrated.json", dumps_indented(stamp(result.calibration.document(
            f"Fitted by skir's calibration to the SuperKernel-off and -on profiles of @{meta['model']}; the "
            "parameters marked assumption true were not measured."))) + "\n"
    if result.vendor_compare is not None:
        from skir.targets.vendor_compare import dump_compare

        yield "vendor_compare.json", dump_compare(stamp(dict(result.vendor_compare)))
    with progress.phase("plan.json"):
        text = dump_plan(stamp(plan(result.module, meta)))
    yield "plan.json", text
    del text
    stamped = stamp(meta)
    yield "sk_meta.json", lambda output: write_meta(stamped, output)
    yield SKIR_FAIL_LOG, render_fail_reasons(meta)
    if result.original is not None:
        with progress.phase(VENDOR_FAIL_LOG):
            text = render_vendor_fail_log(meta, result.original, result.graph_of(the_model(result.original)))
        yield VENDOR_FAIL_LOG, text


def _write_product(path: Path, rel: str, product: Product) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(product, str):
        path.write_text(product)
        return
    with progress.phase(rel), path.open("w") as output:
        product(output)


def product_images(result: ResultData) -> dict[str, bytes]:
    """Relative path -> PNG bytes of the `--report` charts (none without matplotlib)."""
    from skir.sim.charts import gantt_png, have_matplotlib, modes_png

    if result.report is None or not have_matplotlib():
        return {}
    name = the_model(result.module).sym_name.data
    return {"timeline.png": gantt_png(result.report.comparison, name),
            "modes.png": modes_png(result.report.comparison, name)}


def _emulate(result: ResultData, stage: Path, cache: bool = True) -> None:
    """Emulate every entry in a scratch folder; keep only its deterministic products.

    OUT/emulation/ gets the shim headers, and per SuperKernel the stubs, the driver and
    `verdict.txt`; objects, binaries and the timing-dependent logs stay out so that
    identical inputs give byte-identical outputs.
    """
    from skir.hostsim.runner import emulate, include_dir
    from skir.targets.emulation import emulation_specs

    assert result.original is not None
    result.emulation = []  # this run's, not an earlier one's
    keep = stage / "emulation"
    with tempfile.TemporaryDirectory(prefix="skir-emulation-") as scratch:
        for spec in emulation_specs(result.module, result.original, result.plan_updates,
                                    shared_of(result)):
            work = Path(scratch) / spec.name
            with progress.phase(f"emulation of {spec.name}"):
                emu = emulate(spec, work, cache=cache)
            result.emulation.append(emu)
            (keep / spec.name).mkdir(parents=True, exist_ok=True)
            for name in (f"{spec.name}_stubs.cpp", f"{spec.name}_main.cpp", "sk_shim_runtime.cpp"):
                if (work / name).exists():
                    shutil.copyfile(work / name, keep / spec.name / name)
            lines = [emu.verdict, *emu.problems]
            (keep / spec.name / "verdict.txt").write_text("\n".join(lines) + "\n")
            if emu.progress_path is not None and not emu.ok:  # where each core was: sk-hang reads it
                shutil.copyfile(emu.progress_path, keep / spec.name / PROGRESS_FILE)
    if result.emulation:
        shutil.copytree(include_dir(), keep / "include", dirs_exist_ok=True)


def _build(result: ResultData, stage: Path, objects: Path) -> None:
    """Run every SuperKernel's `build.sh` in the staging folder (its objects land in `<name>/build`)."""
    for script in sorted(stage.glob("*/build.sh")):
        done = subprocess.run(["sh", str(script), str(objects.resolve()), str(script.parent / "build")],
                              capture_output=True, text=True)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
            if done.returncode == 2:
                raise MissingToolError(last)
            raise SkirError(f"the CANN build of {script.parent.name} failed: {last}", ExitCode.INTERNAL)


def write_outputs(result: ResultData, out_dir: Path | None, *, emulate: bool = False, cache: bool = True,
                  build: Path | None = None) -> None:
    """Write the products to `out_dir` (if given), run the emulation and the CANN build (if asked).

    The whole product set is staged in a folder beside OUT and swapped into place in one
    step, so a run that fails, or is killed, leaves OUT as it was or complete."""
    if out_dir is not None:
        out_dir = Path(os.path.realpath(out_dir))
        if out_dir.exists() and not out_dir.is_dir():
            raise SkirError(f"{out_dir}: exists and is not a folder; give -o a folder (it is created)")
        try:
            out_dir.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise SkirError(f"{out_dir.parent}: cannot create the output's parent: {err.strerror or err}") from None
    parent = out_dir.parent if out_dir is not None else None
    where = out_dir if out_dir is not None else Path(tempfile.gettempdir())
    with _writing(where):
        stage = Path(tempfile.mkdtemp(prefix=f".{out_dir.name if out_dir else 'skir'}.skir-stage-", dir=parent))
    try:
        with progress.phase("products"):
            for rel, product in product_texts(result):
                with _writing(where):
                    _write_product(stage / rel, rel, product)
                del product  # not held while the next is made
        with progress.phase("charts"):
            images = product_images(result)
        with _writing(where):
            for rel, data in images.items():
                (stage / rel).write_bytes(data)
        if emulate:
            _emulate(result, stage, cache)
        if build is not None:
            _build(result, stage, build)
        with _writing(where):
            (stage / "README.txt").write_text(render_summary(result))
        failed = [e for e in result.emulation if not e.ok]
        if failed:
            details = [f"{e.name}: {p}" for e in failed for p in e.problems]
            evidence = ""
            if out_dir is not None:
                _commit_evidence(stage, out_dir, [e.name for e in failed])
                evidence = f" (the evidence is in {out_dir}: README.txt, emulation/<name>/)"
            raise CheckFailedError(
                f"host emulation failed for {', '.join(e.name for e in failed)}: {failed[0].verdict}{evidence}", details
            )
        if out_dir is None:
            return
        products = sorted(str(p.relative_to(stage)) for p in stage.rglob("*") if p.is_file())
        with _writing(out_dir):
            (stage / MANIFEST).write_text(json.dumps(stamp({"format": "skir.manifest", "version": 1,
                                                            "files": products}), indent=1) + "\n")
            _open_to_umask(stage)
            _commit(stage, out_dir)
        result.outputs.update((rel, out_dir / rel) for rel in products)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


EVIDENCE = ("README.txt", "sk_meta.json")
"""What OUT holds after a failed emulation besides `emulation/<name>/` of each failed
SuperKernel (its verdict and, with `debug-progress=1`, its progress dump): the summary and the
SK meta that `sk-hang` decodes the dump with. No entry, plan or build script: the result is
wrong and must not be applied (docs/design.md §1 "Outputs are atomic")."""


def _commit_evidence(stage: Path, out_dir: Path, failed: list[str]) -> None:
    """Put the evidence of a failed emulation in OUT, in one step as the products would be."""
    evidence = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.skir-evidence-", dir=out_dir.parent))
    try:
        with _writing(out_dir):
            for rel in EVIDENCE:
                shutil.copyfile(stage / rel, evidence / rel)
            for name in failed:
                shutil.copytree(stage / "emulation" / name, evidence / "emulation" / name,
                                ignore=shutil.ignore_patterns("*.cpp"))
            files = sorted(str(p.relative_to(evidence)) for p in evidence.rglob("*") if p.is_file())
            (evidence / MANIFEST).write_text(json.dumps(stamp({"format": "skir.manifest", "version": 1,
                                                                "files": files}), indent=1) + "\n")
            _open_to_umask(evidence)
            _commit(evidence, out_dir)
    finally:
        shutil.rmtree(evidence, ignore_errors=True)


@contextlib.contextmanager
def _writing(where: Path) -> Iterator[None]:
    """A file system error while writing the products is bad input naming the user's OUT (a
    folder that cannot hold files, a full disk), never the hidden staging folder's name."""
    try:
        yield
    except OSError as err:
        raise SkirError(f"{where}: cannot write the products there: {err.strerror or err}") from None


MANIFEST = "skir_manifest.json"
"""The list of the files a run wrote into OUT (`{"format": "skir.manifest", "version": 1,
"files": [...]}`): the next run into the same OUT removes exactly those."""


def _open_to_umask(stage: Path) -> None:
    """The staging folder is made private (0700); OUT gets the mode a folder the user made
    would have (0777 less the umask)."""
    mask = os.umask(0)
    os.umask(mask)
    stage.chmod(0o777 & ~mask)


def _written_before(out_dir: Path) -> set[str]:
    """The files an earlier skir run wrote into OUT, from its manifest (none without one)."""
    try:
        data = json.loads((out_dir / MANIFEST).read_text())
        files = data.get("files") if isinstance(data, dict) and data.get("format") == "skir.manifest" else None
    except (OSError, ValueError):
        return set()
    return {f for f in files if isinstance(f, str)} if isinstance(files, list) else set()


def _commit(stage: Path, out_dir: Path) -> None:
    """Put the staged products in place at once: a new OUT is a rename; an existing one first
    lends the stage every file of its own that no skir run wrote (hard links; each is named in
    a warning, since it now sits beside this run's products), then the two folders swap in one
    `renameat2(RENAME_EXCHANGE)` (two renames where the system has none) and the old OUT, now
    at the stage's path, is removed by the caller. What an earlier run wrote (its manifest)
    goes with it, so OUT holds exactly this run's products and the user's own files."""
    if not out_dir.exists():
        os.rename(stage, out_dir)
        stage.mkdir()  # the caller removes it
        return
    earlier = _written_before(out_dir) | {MANIFEST}
    foreign: list[str] = []
    for old in sorted(out_dir.rglob("*")):
        rel = old.relative_to(out_dir)
        new = stage / rel
        if (old.is_dir() and not old.is_symlink()) or str(rel) in earlier or new.exists():
            continue
        foreign.append(str(rel))
        new.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(old, new, follow_symlinks=False)
        except OSError:
            shutil.copy2(old, new, follow_symlinks=False)
    if foreign:
        shown_files = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
        warnings.warn(f"{out_dir}: kept {len(foreign)} file(s) no skir run wrote there: {shown_files}",
                      SkirWarning, stacklevel=2)
    if not _exchange(stage, out_dir):
        aside = stage.with_name(stage.name + "-old")
        os.rename(out_dir, aside)
        os.rename(stage, out_dir)
        os.rename(aside, stage)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders atomically (Linux `renameat2` with RENAME_EXCHANGE); False if unsupported."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    return bool(renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0)
