"""Writing `sk-compile`'s products (DESIGN §5) without ever leaving a partial output.

Everything is written into a staging folder next to OUT first; only when every product
(and, with `--emulate`, every emulation) succeeded are the files moved into OUT. On
failure OUT gains no new files.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from skir.api import CompileResult, the_model
from skir.errors import CheckFailedError, ExitCode, MissingToolError, SkirError
from skir.options import SkOptions
from skir.passes.common import superkernels
from skir.targets.ascendc import emit_source, sources
from skir.targets.build_script import build_script
from skir.targets.descriptor import descriptor, dump_descriptor
from skir.targets.plan import dump_plan, plan
from skir.targets.sk_meta import dump_meta, render_fail_reasons, sk_meta
from skir.targets.summary import render_summary


def product_texts(result: CompileResult) -> dict[str, str]:
    """Relative path -> text of every product except the summary."""
    texts = {"model.rewritten.mlir": str(result.module) + "\n"}
    emitted = {source.sym_name.data for source in sources(result.module)}
    for source in sources(result.module):
        name = source.sym_name.data
        texts[f"{name}/{name}_kernel.cpp"] = emit_source(source)
    for sk, kernels, options in superkernels(result.module, SkOptions()):
        name = sk.sym_name.data
        if name in emitted:
            texts[f"{name}/{name}.json"] = dump_descriptor(descriptor(sk, kernels))
            texts[f"{name}/build.sh"] = build_script(sk, kernels, options)
    meta = sk_meta(result.module, result.original)
    if result.report is not None:
        from skir.sim.trace import dump_trace, trace_events

        meta["profiling"] = result.report.profiling()
        texts["timeline.json"] = dump_trace(trace_events(result.report.comparison, meta["model"],
                                                         result.report.costs_source))
    texts["plan.json"] = dump_plan(plan(result.module, meta))
    texts["sk_meta.json"] = dump_meta(meta)
    texts["sk_fusion_fail_reasons.log"] = render_fail_reasons(meta)
    return texts


def product_images(result: CompileResult) -> dict[str, bytes]:
    """Relative path -> PNG bytes of the `--report` charts (none without matplotlib)."""
    from skir.sim.charts import gantt_png, have_matplotlib, modes_png

    if result.report is None or not have_matplotlib():
        return {}
    name = the_model(result.module).sym_name.data
    return {"timeline.png": gantt_png(result.report.comparison, name),
            "modes.png": modes_png(result.report.comparison, name)}


def _emulate(result: CompileResult, stage: Path) -> None:
    """Emulate every entry in a scratch folder; keep only its deterministic products.

    OUT/emulation/ gets the shim headers, and per SuperKernel the stubs, the driver and
    `verdict.txt`; objects, binaries and the timing-dependent logs stay out so that
    identical inputs give byte-identical outputs.
    """
    from skir.hostsim.from_ir import emulation_specs
    from skir.hostsim.runner import emulate, include_dir

    assert result.original is not None
    keep = stage / "emulation"
    with tempfile.TemporaryDirectory(prefix="skir-emulation-") as scratch:
        for spec in emulation_specs(result.module, result.original):
            work = Path(scratch) / spec.name
            emu = emulate(spec, work)
            result.emulation.append(emu)
            (keep / spec.name).mkdir(parents=True, exist_ok=True)
            for name in (f"{spec.name}_stubs.cpp", f"{spec.name}_main.cpp", "sk_shim_runtime.cpp"):
                if (work / name).exists():
                    shutil.copyfile(work / name, keep / spec.name / name)
            lines = [emu.verdict, *emu.problems]
            (keep / spec.name / "verdict.txt").write_text("\n".join(lines) + "\n")
    if result.emulation:
        shutil.copytree(include_dir(), keep / "include", dirs_exist_ok=True)


def _build(result: CompileResult, stage: Path, objects: Path) -> None:
    """Run every SuperKernel's `build.sh` in the staging folder (its objects land in `<name>/build`)."""
    for script in sorted(stage.glob("*/build.sh")):
        done = subprocess.run(["sh", str(script), str(objects.resolve()), str(script.parent / "build")],
                              capture_output=True, text=True)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
            if done.returncode == 2:
                raise MissingToolError(last)
            raise SkirError(f"the CANN build of {script.parent.name} failed: {last}", ExitCode.INTERNAL)


def write_outputs(result: CompileResult, out_dir: Path | None, *, emulate: bool = False,
                  build: Path | None = None) -> None:
    """Write the products to `out_dir` (if given), run the emulation and the CANN build (if asked)."""
    parent = out_dir.parent if out_dir is not None else None
    if parent is not None:
        parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=".skir-stage-", dir=parent))
    try:
        written: dict[str, Path] = {}
        for rel, text in product_texts(result).items():
            path = stage / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        for rel, data in product_images(result).items():
            (stage / rel).write_bytes(data)
        if emulate:
            _emulate(result, stage)
        if build is not None:
            _build(result, stage, build)
        (stage / "README.txt").write_text(render_summary(result))
        failed = [e for e in result.emulation if not e.ok]
        if failed:
            details = [f"{e.name}: {p}" for e in failed for p in e.problems]
            raise CheckFailedError(
                f"host emulation failed for {', '.join(e.name for e in failed)}: {failed[0].verdict}", details
            )
        if out_dir is None:
            return
        out_dir.mkdir(parents=True, exist_ok=True)
        for root, _dirs, files in os.walk(stage):
            for file in sorted(files):
                src = Path(root) / file
                rel = src.relative_to(stage)
                dst = out_dir / rel
                dst.parent.mkdir(parents=True, exist_ok=True)
                os.replace(src, dst)
                written[str(rel)] = dst
        result.outputs.update(sorted(written.items()))
    finally:
        shutil.rmtree(stage, ignore_errors=True)
