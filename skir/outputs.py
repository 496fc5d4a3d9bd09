"""Writing `sk-compile`'s products (DESIGN §5) without ever leaving a partial output.

Everything is written into a staging folder next to OUT first; only when every product
(and, with `--emulate`, every emulation) succeeded are the files moved into OUT. On
failure OUT gains no new files.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from skir.api import CompileResult
from skir.errors import CheckFailedError
from skir.targets.ascendc import emit_source, sources
from skir.targets.sk_meta import dump_meta, render_fail_reasons, sk_meta
from skir.targets.summary import render_summary


def product_texts(result: CompileResult) -> dict[str, str]:
    """Relative path -> text of every product except the summary."""
    texts = {"model.rewritten.mlir": str(result.module) + "\n"}
    for source in sources(result.module):
        name = source.sym_name.data
        texts[f"{name}/{name}_kernel.cpp"] = emit_source(source)
    meta = sk_meta(result.module, result.original)
    texts["sk_meta.json"] = dump_meta(meta)
    texts["sk_fusion_fail_reasons.log"] = render_fail_reasons(meta)
    return texts


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


def write_outputs(result: CompileResult, out_dir: Path | None, *, emulate: bool = False) -> None:
    """Write the products to `out_dir` (if given) and run the emulation (if asked)."""
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
        if emulate:
            _emulate(result, stage)
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
