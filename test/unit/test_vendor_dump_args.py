"""A kernel of the vendor's dumps carries its argument block (docs/design.md §11 "Mapping"):
`argsSize / 8` opaque 64-bit slots, so the argument table, the sub-task offsets of the entry
and the plan's `task` argument sources are those a runtime needs; where the size is unknown
the summary says so and `--build` refuses."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import skir
from skir.errors import SkirError
from skir.frontends import vendor
from skir.frontends.vendor.buildable import refuse_unbuildable

DUMPS = Path(__file__).parent / "vendor_dumps"
_SUBTASK = re.compile(r"sk\.subtask @(\w+) blocks \d+ offset (\d+) from @(\w+) seq (\d+)")


def args_sizes(origin: dict[str, Any]) -> dict[tuple[str, int], int]:
    """(stream, seq) -> argsSize, read straight from the dump's JSON."""
    return {(f"s{si}", n["nodeId"]): n["taskInfo"][0]["kernelParams"]["argsSize"]
            for si, s in enumerate(origin["streams"]) for n in s["nodes"] if n["nodeType"] == "KERNEL"}


def test_the_argument_table_holds_each_kernels_block(tmp_path: Path) -> None:
    case = DUMPS / "two_streams_events"
    result = skir.compile(case).write(tmp_path / "out")
    (_,) = result.superkernels
    # by hand from sk_graph_origin.json: in seq order RmsNorm 96 B (12 slots: 1..12), BatchMatMulV2 104 B
    # (13: 13..25), RotaryPosEmb 80 B (10: 26..35), BatchMatMulV2 104 B (13: 36..48), MatMulV2 120 B (15: 49..63)
    offsets = {("s0", 1): 1, ("s1", 4): 13, ("s0", 5): 26, ("s1", 6): 36, ("s0", 9): 49}
    text = (tmp_path / "out" / "model.rewritten.mlir").read_text()
    found = {(m.group(3), int(m.group(4))): int(m.group(2)) for m in _SUBTASK.finditer(text)}
    assert found == offsets
    plan = json.loads((tmp_path / "out" / "plan.json").read_text())
    (entry,) = plan["superkernels"]
    args = entry["args"]
    assert [a["slot"] for a in args] == list(range(len(args)))
    assert args[0]["source"] == "ffts_base"
    sizes = args_sizes(json.loads((case / "sk_graph_origin.json").read_text()))
    by_task: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for a in args:
        if a["source"] == "task":
            by_task.setdefault((a["stream"], a["seq"]), []).append((a["slot"], a["arg"]))
    assert set(by_task) == set(offsets)
    for key, slots in by_task.items():
        count = sizes[key] // 8
        # each task's block is copied word by word into consecutive slots from its sub-task's offset
        assert slots == [(offsets[key] + j, j) for j in range(count)]
    assert len(args) == 1 + sum(sizes[k] // 8 for k in offsets)
    assert entry["args"] == next(s for s in json.loads((tmp_path / "out" / "sk_meta.json").read_text())
                                 ["superkernels"])["args"]


def test_kernels_differ_by_their_argument_size(tmp_path: Path) -> None:
    origin = json.loads((DUMPS / "one_stream" / "sk_graph_origin.json").read_text())
    kernels = [n["taskInfo"][0]["kernelParams"] for s in origin["streams"] for n in s["nodes"]
               if n["nodeType"] == "KERNEL"]
    twins = [k for k in kernels if k["funcName"] == "BatchMatMulV2_3c4d"]
    assert len(twins) == 2 and twins[0]["argsSize"] == twins[1]["argsSize"] == 104
    twins[1]["argsSize"] = 112
    (tmp_path / "sk_graph_origin.json").write_text(json.dumps(origin))
    module, info = vendor.load(tmp_path / "sk_graph_origin.json")
    text = str(module)
    assert "aclgraph.kernel @BatchMatMulV2_3c4d aic_only params 13" in text
    assert "aclgraph.kernel @BatchMatMulV2_3c4d_2 aic_only params 14" in text
    assert info.func_names["BatchMatMulV2_3c4d_2"] == "BatchMatMulV2_3c4d"
    assert not info.args_unknown


def _unknown_sizes(tmp_path: Path) -> Path:
    """one_stream with one kernel's argsSize left out and another's not a whole number of slots."""
    folder = tmp_path / "dump"
    shutil.copytree(DUMPS / "one_stream", folder)
    origin = json.loads((folder / "sk_graph_origin.json").read_text())
    nodes = [n for s in origin["streams"] for n in s["nodes"] if n["nodeType"] == "KERNEL"]
    del nodes[0]["taskInfo"][0]["kernelParams"]["argsSize"]
    nodes[-1]["taskInfo"][0]["kernelParams"]["argsSize"] = 100
    (folder / "sk_graph_origin.json").write_text(json.dumps(origin))
    return folder


def test_an_unknown_argument_size_is_said(tmp_path: Path) -> None:
    folder = _unknown_sizes(tmp_path)
    module, info = vendor.load(folder)
    assert ("argument size unknown for 2 kernel task(s) (1 without argsSize, 1 whose argsSize is not a multiple "
            "of 8 bytes): no argument slots; --build refuses their SuperKernels") in info.notes
    # the last Add task (100 bytes) is a kernel of its own beside the other Add task (64 bytes: 8 slots)
    assert info.args_unknown == {"static_kernel_RmsNorm_1a2b", "static_kernel_Add_5e7d_2"}
    text = str(module)
    assert "aclgraph.kernel @static_kernel_Add_5e7d aiv_only params 8 " in text
    assert ("aclgraph.kernel @static_kernel_Add_5e7d_2 aiv_only params 0 early_start(set, wait) dcci(disable) "
            "attributes {skir.vendor_name = \"static_kernel_Add_5e7d\", skir.vendor_args_unknown}") in text
    done = subprocess.run([sys.executable, "-m", "skir.tools.sk_compile", str(folder), "-o", str(tmp_path / "o")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "unknown: argument size unknown for 2 kernel task(s)" in done.stdout


def test_build_refuses_a_superkernel_of_unknown_arguments(tmp_path: Path) -> None:
    folder = _unknown_sizes(tmp_path)
    objects = tmp_path / "objects"
    objects.mkdir()
    env = {**os.environ, "ASCEND_HOME_PATH": str(tmp_path / "cann")}  # past the toolchain check
    done = subprocess.run([sys.executable, "-m", "skir.tools.sk_compile", str(folder), "-o", str(tmp_path / "o"),
                           "--build", str(objects)], capture_output=True, text=True, env=env)
    assert done.returncode == 1
    (line,) = done.stderr.strip().splitlines()
    assert "argument --build (build=): SuperKernel model_48_1_sk0 calls @static_kernel_RmsNorm_1a2b" in line
    assert not (tmp_path / "o").exists()
    with pytest.raises(SkirError, match="SuperKernel model_48_1_sk0 calls @static_kernel_RmsNorm_1a2b"):
        refuse_unbuildable(skir.compile(folder).module)
    refuse_unbuildable(skir.compile(DUMPS / "one_stream").module)  # every size known: buildable
