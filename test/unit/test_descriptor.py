"""Kernel descriptors and CANN build scripts of compiled SuperKernels."""

from __future__ import annotations

import io
import json
import os
import subprocess
from pathlib import Path

import skir
from skir.api import make_context, the_model
from skir.dialects.superkernel import SuperKernelOp
from skir.options import parse_options
from skir.passes.common import kernel_table
from skir.targets.build_script import build_script
from skir.targets.descriptor import DescriptorTarget, descriptors

ROOT = Path(__file__).resolve().parents[2]

LOCKS = (Path(__file__).resolve().parent / "models" / "locks.mlir").read_text()
EARLY = """
aclgraph.model @es cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params 0 early_start(set)
  aclgraph.kernel @c aic_only params 0
  aclgraph.kernel @x mix_aic_1_1 params 0
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @a blocks 16
    aclgraph.launch seq 1 @c blocks 24
    aclgraph.launch seq 2 @x blocks 12
  }
}
"""


def _one(text: str, options: str = "") -> dict:  # type: ignore[type-arg]
    (desc,) = descriptors(skir.compile(text, options=options).module).values()
    return desc


def test_descriptor_lists_events_and_offsets() -> None:
    desc = _one(LOCKS)
    assert (desc["coreType"], desc["blockDim"], desc["taskRation"]) == ("mix_aic_1_2", 8, [1, 2])
    assert desc["schedMode"] == "batch"
    first, second, third = desc["kernelList"]
    assert (first["kernel"], first["send_event_list"], first["recv_event_list"]) == ("v", ["e1_cell"], [])
    assert first["arg_list"]["notify_param_offset"] == [1]
    assert (third["kernel"], third["recv_event_list"]) == ("v", ["e2_cell"])
    assert third["arg_list"]["wait_param_offset"] == [2]
    assert second["split_symbols"] == ["c_middle", "c_middle_split1", "c_middle_split2", "c_middle_split3"]
    assert desc["defines"] == ["-DASCENDC_DUMP=0"]


def test_defines_follow_the_options() -> None:
    assert _one(EARLY, "early-start=1")["defines"] == [
        "-D__ASCENDC_ENABLE_SET_NEXT_TASK_START", "-D__ASCENDC_ENABLE_WAIT_PRE_TASK_END",
        "-D__ASCENDC_SUPERKERNEL_EARLY_START_V2", "-DASCENDC_DUMP=0",
    ]
    chain = (ROOT / "examples" / "chain.mlir").read_text().replace("@matmul blocks 24", "@matmul blocks 12")
    descs = descriptors(skir.compile(chain, options="feed-sync-all=1:compile-options=-g").module)
    assert descs["chain_sk0"]["defines"] == ["-D__ASCENDC_SUPERKERNEL_AUTO_SYNC_ALL__", "-DASCENDC_DUMP=0", "-g"]
    assert "-D__ASCENDC_SUPERKERNEL_AUTO_SYNC_ALL__" not in descs["chain_sk1"]["defines"]  # nothing fed there


def _script(text: str, options: str = "") -> str:
    module = skir.compile(text, options=options).module
    model = the_model(module)
    sk = next(op for op in model.body.block.ops if isinstance(op, SuperKernelOp))
    merged = sk.sk_options(parse_options(options)[0])
    return build_script(sk, kernel_table(model), merged)


def test_build_script_sides_and_flags() -> None:
    mix11 = _script(EARLY, "early-start=1:split-mode=1")
    assert "--cce-aicore-arch=dav-c220-cube" in mix11 and "--cce-aicore-arch=dav-c220-vec" in mix11
    assert "-D__MIX_CORE_MACRO__=1 -D__MIX_CORE_AIC_RATION__=1" in mix11
    assert "-D__ASCENDC_SUPERKERNEL_EARLY_START_V2" in mix11
    assert "long-call" not in mix11 and "--redefine-sym" not in mix11  # split-mode=1: no copies
    mix12 = _script((ROOT / "examples" / "chain.mlir").read_text())
    assert "-Dauto_gen_chain_sk0_kernel=chain_sk0_mix_aic" in mix12 and "-D__MIX_CORE_AIC_RATION__" not in mix12
    assert "-mllvm -cce-aicore-jump-expand=true --cce-long-call=true" in mix12  # split-mode=4
    assert "--redefine-sym matmul_middle=matmul_middle_split3" in mix12


def test_build_script_refuses_without_cann(tmp_path: Path) -> None:
    script = tmp_path / "build.sh"
    script.write_text(_script(LOCKS))
    env = {k: v for k, v in os.environ.items() if k != "ASCEND_HOME_PATH"}
    done = subprocess.run(["sh", str(script), str(tmp_path)], capture_output=True, text=True, env=env)
    assert done.returncode == 2
    assert "ASCEND_HOME_PATH is not set" in done.stderr
    done = subprocess.run(["sh", str(script)], capture_output=True, text=True, env=env)
    assert done.returncode == 2 and "usage" in done.stderr


def test_descriptor_target_prints_json() -> None:
    module = skir.compile(ROOT / "examples" / "chain.mlir").module
    out = io.StringIO()
    DescriptorTarget(sk="chain_sk1").emit(make_context(), module, out)
    data = json.loads(out.getvalue())
    assert data["name"] == "chain_sk1" and data["format"] == "skir.sk_descriptor"
    assert [k["func_name"] for k in data["kernelList"]] == ["scale_middle", "scale_middle"]
