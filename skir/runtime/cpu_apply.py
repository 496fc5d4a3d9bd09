"""`sk-apply`'s flow: a model into the CPU runtime model, OUT applied to it, the result read back.

```python
run = apply_on_cpu(skir.load_model("examples/decode_layer.json"), "out/decode_layer", work)
text = applied_text(run)                # the applied model, in the form of OUT/model.rewritten.mlir
```

The entry objects on a device are those `build.sh` makes with the CANN toolchain; on the CPU each
entry's source is compiled for the host against skir's Ascend C shim (`skir/hostsim/include`), an
ELF object that defines the same entry symbol, which the CPU model's `aclrtBinaryGetFunction`
looks up. `fault` plants a failure of the Nth call of one ACL function before the plan is applied.
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xdsl.dialects.builtin import ModuleOp

from skir.errors import SkirError
from skir.runtime.acl import AppliedPlan, apply
from skir.runtime.apply import load_plan
from skir.runtime.cpu_model import CpuModel, LoadedGraph, cpu_library, load_graph
from skir.runtime.cpu_writer import applied_module, vendor_updated


@dataclass
class CpuRun:
    """A model loaded into the CPU model and OUT applied to it."""

    cpu: CpuModel
    graph: LoadedGraph
    applied: AppliedPlan
    programs: ModuleOp | None


def host_objects(out: Path, work: Path) -> Path:
    """Each distinct entry of OUT's plan compiled for the host into `work/<its plan object path>`."""
    from skir.hostsim.runner import include_dir

    plan = load_plan(out / "plan.json")

    def every(part: dict[str, Any]) -> list[dict[str, Any]]:
        return [*part.get("superkernels", []), *(sk for sub in part.get("submodels", []) for sk in every(sub))]

    done: set[str] = set()
    for sk in every(plan):
        obj = str(sk.get("object", ""))
        if obj in done:
            continue
        done.add(obj)
        built = obj.split("/")[0]
        source = out / built / f"{built}_kernel.cpp"
        target = work / obj
        target.parent.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run([os.environ.get("CXX", "g++"), "-std=c++17", "-c", f"-I{include_dir()}", str(source),
                               "-o", str(target)], capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            raise SkirError(f"{source}: compiling the entry for the host failed: "
                            f"{(proc.stderr.strip().splitlines() or ['?'])[0]}")
    return work


def apply_on_cpu(module: ModuleOp, out_dir: str | os.PathLike[str], work: Path,
                 fault: tuple[str, int] | None = None) -> CpuRun:
    """Load `module` into the CPU model, plant `fault`, apply OUT through `skir.runtime.acl`."""
    out = Path(out_dir)
    if not (out / "plan.json").is_file():
        raise SkirError(f"{out}: no plan.json: give the output folder of sk-compile")
    cpu = cpu_library()
    graph = load_graph(cpu, module, work / "capture")
    objects = host_objects(out, work / "objects")
    programs = None
    rewritten = out / "model.rewritten.mlir"
    if rewritten.is_file():
        from skir.api import parse

        programs = parse(rewritten.read_text(), str(rewritten))
    if fault is not None:
        cpu.fail_call(*fault)
    before = cpu.calls(fault[0]) if fault is not None else 0
    made = 0
    try:
        applied = apply(cpu, graph.model_ri, out, object_dir=objects,
                        submodels={name: sub.model_ri for name, sub in graph.submodels.items()})
    finally:
        if fault is not None:
            made = cpu.calls(fault[0]) - before
            cpu.fail_call(fault[0], 0)
    if fault is not None:  # the apply succeeded: the planted fault was never reached
        applied.release()
        raise SkirError(f"--inject-fault {fault[0]}:{fault[1]}: the apply made {made} call(s) of {fault[0]}, so the "
                        f"fault never fired; give N in 1..{made}" if made else
                        f"--inject-fault {fault[0]}:{fault[1]}: the apply makes no call of {fault[0]}")
    return CpuRun(cpu, graph, applied, programs)


def applied_text(run: CpuRun) -> str:
    """The applied model as `.mlir` text (the form of OUT/model.rewritten.mlir)."""
    from skir.xdsl_fast.printer import ir_text

    return ir_text(applied_module(run.cpu, run.graph, run.applied, run.programs)) + "\n"


def vendor_text(run: CpuRun) -> str:
    """The applied model as the vendor's `sk_graph_updated.json`."""
    return json.dumps(vendor_updated(run.cpu, run.graph, run.applied), indent=1) + "\n"
