"""Kernel descriptor of each SuperKernel (`OUT/<name>/<name>.json`, target `sk-descriptor`).

What a launcher and a linker need besides the entry source: the launch (blockDim, core
type, task ratio, schedule mode), the compile defines, and the kernel list in the vendor's
shape — per sub-task its function symbols (with split copies), split mode, blocks, kernel
type, stream, the events it sends and receives as GM locks, and its argument offsets.

```json
{"format": "skir.sk_descriptor", "version": 1, "name": "m_sk0", "origin_op_name": "sk_m_sk0_start_norm_end_norm",
 "entry": "auto_gen_m_sk0_kernel",
 "blockDim": 24, "coreType": "mix_aic_1_2", "taskRation": [1, 2], "schedMode": "batch",
 "form": "chain", "argSlots": 7, "defines": ["-DASCENDC_DUMP=0"],
 "kernelList": [{"func_name": "norm_middle", "split_symbols": ["norm_middle", "norm_middle_split1"],
   "split_mode": 2, "blockDim": 48, "sub_operator_kernel_type": "aiv_only", "kernel": "norm",
   "stream": "s0", "seq": 0, "early_start": {"set": false, "wait": false},
   "dcci": {"before": false, "after": false, "disable": false},
   "send_event_list": ["e_cell"], "recv_event_list": [],
   "arg_list": {"param_offset": 1, "notify_param_offset": [3], "wait_param_offset": []}}]}
```
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO, Any

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target

from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import task_ratio
from skir.dialects.model_lookup import formed, kernel_table, models, require_passes
from skir.dialects.superkernel import CoreType, NotifyOp, SubtaskOp, SuperKernelOp, WaitLockOp
from skir.errors import SkirError
from skir.names import entry_symbol, shown
from skir.options import SkOptions
from skir.provenance import stamp
from skir.targets.json_text import dumps_indented
from skir.targets.origin_name import origin_op_name

FORMAT = "skir.sk_descriptor"
VERSION = 1


def compile_defines(sk: SuperKernelOp, options: SkOptions) -> list[str]:
    """The `-D` flags (and user flags) the entry is compiled with."""
    defines = []
    if options.early_start == 1 and sk.form.data.value == "chain":
        defines += ["-D__ASCENDC_ENABLE_SET_NEXT_TASK_START", "-D__ASCENDC_ENABLE_WAIT_PRE_TASK_END",
                    "-D__ASCENDC_SUPERKERNEL_EARLY_START_V2"]
    if options.feed_sync_all and any(sub.feed is not None for sub in sk.subtasks()):
        defines.append("-D__ASCENDC_SUPERKERNEL_AUTO_SYNC_ALL__")
    defines.append("-DASCENDC_DUMP=0")
    return defines + list(options.compile_options)


def _events(sk: SuperKernelOp) -> tuple[dict[SubtaskOp, list[NotifyOp]], dict[SubtaskOp, list[WaitLockOp]]]:
    """Sub-task -> the notifies that follow it and the lock waits that precede it, on each core type."""
    sends: dict[SubtaskOp, list[NotifyOp]] = {}
    recvs: dict[SubtaskOp, list[WaitLockOp]] = {}
    for core in CoreType:
        last: SubtaskOp | None = None
        pending: list[WaitLockOp] = []
        for op in sk.program_for(core):
            if isinstance(op, SubtaskOp):
                recvs.setdefault(op, []).extend(w for w in pending if w not in recvs.get(op, []))
                pending = []
                last = op
            elif isinstance(op, NotifyOp) and last is not None:
                sends.setdefault(last, [])
                if op not in sends[last]:
                    sends[last].append(op)
            elif isinstance(op, WaitLockOp):
                pending.append(op)
    return sends, recvs


def own_fields(sk: SuperKernelOp) -> list[dict[str, Any]]:
    """Per sub-task the descriptor's fields that belong to this SuperKernel alone: its stream and
    seq in the original model and the cells of its event slots (a shared descriptor lists them
    per SuperKernel, `skir.targets.shared_entries`)."""
    sends, recvs = _events(sk)
    return [{"stream": sub.stream.root_reference.data, "seq": sub.seq.data,
             "send_event_list": [op.cell.root_reference.data for op in sends.get(sub, [])],
             "recv_event_list": [op.cell.root_reference.data for op in recvs.get(sub, [])]}
            for sub in sk.subtasks()]


def descriptor(sk: SuperKernelOp, kernels: dict[str, KernelOp], base: SkOptions | None = None) -> dict[str, Any]:
    """The kernel descriptor of one lowered SuperKernel."""
    options = sk.sk_options(base)
    sends, recvs = _events(sk)
    copies = options.split_mode
    kernel_list = []
    for sub in sk.subtasks():
        kernel = kernels[sub.kernel.root_reference.data]
        symbol = kernel.sub_symbol
        notify = sends.get(sub, [])
        wait = recvs.get(sub, [])
        kernel_list.append({
            "func_name": symbol,
            "split_symbols": [symbol if i == 0 else f"{symbol}_split{i}" for i in range(copies)],
            "split_mode": copies,
            "blockDim": sub.blocks.data,
            "firstBlock": sub.first_block,
            "systemArgs": kernel.takes_system_args,
            "sub_operator_kernel_type": kernel.type.value,
            "kernel": kernel.sym_name.data,
            "stream": sub.stream.root_reference.data,
            "seq": sub.seq.data,
            "early_start": {"set": kernel.early_start_set is not None, "wait": kernel.early_start_wait is not None},
            "dcci": {"before": kernel.dcci_before is not None, "after": kernel.dcci_after is not None,
                     "disable": kernel.dcci_disable is not None},
            "send_event_list": [op.cell.root_reference.data for op in notify],
            "recv_event_list": [op.cell.root_reference.data for op in wait],
            "arg_list": {
                "param_offset": sub.offset.data,
                "notify_param_offset": [op.slot.data for op in notify],
                "wait_param_offset": [op.slot.data for op in wait],
            },
        })
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": sk.sym_name.data,
        "origin_op_name": origin_op_name(sk),
        "entry": entry_symbol(sk.sym_name.data),
        "blockDim": sk.blocks.data,
        "coreType": sk.type.value,
        "taskRation": list(task_ratio(sk.type)),
        "schedMode": "batch",
        "form": sk.form.data.value,
        "argSlots": sk.arg_slots.data,
        "options": sk.options.text() if sk.options is not None else "",
        "defines": compile_defines(sk, options),
        "kernelList": kernel_list,
    }


def descriptors(module: ModuleOp) -> dict[str, dict[str, Any]]:
    """SuperKernel name -> descriptor, for every `sk.kernel` of the module."""
    found = {}
    for model in models(module):
        kernels = kernel_table(model)
        for sk in model.body.block.ops:
            if isinstance(sk, SuperKernelOp):
                found[sk.sym_name.data] = descriptor(sk, kernels)
    return found


def dump_descriptor(data: dict[str, Any]) -> str:
    return dumps_indented(data) + "\n"


@dataclass(frozen=True)
class DescriptorTarget(Target):
    """Print the kernel descriptors (a JSON object by SuperKernel name, or the one named by `sk`)."""

    name = "sk-descriptor"

    sk: str = ""
    """Print only this SuperKernel's descriptor."""

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        require_passes(self.name, module)
        found = descriptors(module)
        if not found and not formed(module):
            raise SkirError("target 'sk-descriptor': no SuperKernels in the module; run 'superkernel-pipeline' "
                            "(or up to 'sk-outline') first")
        if self.sk:
            if self.sk not in found:
                raise SkirError(f"target 'sk-descriptor': no SuperKernel named {shown(self.sk)} "
                                f"(have: {', '.join(found)})")
            output.write(dump_descriptor(stamp(found[self.sk])))
            return
        output.write(dumps_indented({name: stamp(d) for name, d in found.items()}) + "\n")

