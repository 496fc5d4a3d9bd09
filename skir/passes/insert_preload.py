"""`sk-insert-preload`: instruction-cache preloads of the sub-kernels' code (`preload-code`).

- `per-func` (the default): on each core type, at the top of its program, preload its
  first sub-task and the next; right after each later sub-task's predecessor (so before the sync
  that precedes it), preload the sub-task after it: an n+1 look-ahead, so the next code
  loads while a barrier waits; a kernel preloaded just before on that core type is not
  preloaded again. A preload runs on the sub-kernel's own blocks and loads
  ceil(min(code_bytes, 16 KiB) / 2 KiB) units of 2 KiB (8 when the kernel does not declare
  `code_bytes`), capped by the core type's instruction cache.
- `max`: one `AscendC::PreLoad(8)` at the top of each core type's program.
- `none`: nothing.

Preloads change no order; `sk-check` ignores them.

```mlir
%0 = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
sk.barrier all_aiv
%1 = sk.subtask @b blocks 8 offset 3 from @s0 seq 1 on aiv after %0
```
becomes (`a` declares `code_bytes 3000`, `b` `code_bytes 9000`)
```mlir
sk.preload @a units 2 blocks 48 on aiv
sk.preload @b units 5 blocks 8 on aiv
%0 = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
sk.barrier all_aiv
%1 = sk.subtask @b blocks 8 offset 3 from @s0 seq 1 on aiv after %0
```
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.hardware import CoreType
from skir.dialects.superkernel import PreloadOp, SubtaskOp, SuperKernelOp
from skir.dialects.superkernel_sync import ICACHE_UNITS
from skir.options import SkOptions
from skir.passes.common import OptionsPass, reject_depends, superkernels
from skir.passes.program_edit import Program, rebuild

UNIT_BYTES = 2048
MAX_PRELOAD_BYTES = 16 * 1024
MAX_UNITS = 8
"""`AscendC::PreLoad(8)` for `preload-code=max`, and the units of a kernel of unknown size."""


def preload_units(kernel: KernelOp, core: CoreType) -> int:
    """Units of 2 KiB to preload for `kernel` on `core`."""
    if kernel.code_bytes is None:
        units = MAX_UNITS
    else:
        units = max(1, -(-min(kernel.code_bytes.data, MAX_PRELOAD_BYTES) // UNIT_BYTES))
    return min(units, ICACHE_UNITS[core])


def insert_preloads(sk: SuperKernelOp, kernels: dict[str, KernelOp], options: SkOptions) -> None:
    """Insert the preloads `options.preload_code` asks for into one SuperKernel."""
    if options.preload_code == "none":
        return
    program: Program = list(sk.program())
    if options.preload_code == "max":
        rebuild(sk, [PreloadOp(core) for core in sk.core_types()] + program)
        return
    # For each core type: its sub-tasks in order, as indexes into `program`.
    order: dict[CoreType, list[int]] = {core: [] for core in CoreType}
    for i, op in enumerate(program):
        if isinstance(op, SubtaskOp):
            for core in op.core_set():
                order[core].append(i)
    before: dict[int, Program] = {}  # program index -> preloads to put before it
    after: dict[int, Program] = {}  # program index -> preloads to put after it

    def preload(index: int, core: CoreType) -> PreloadOp:
        sub = program[index]
        assert isinstance(sub, SubtaskOp)
        kernel = kernels[sub.kernel.root_reference.data]
        return PreloadOp(core, kernel.sym_name.data, preload_units(kernel, core), sub.blocks.data,
                         sub.first_block)

    def kernel_of(index: int) -> str:
        sub = program[index]
        assert isinstance(sub, SubtaskOp)
        return sub.kernel.root_reference.data

    for core, subs in order.items():
        if not subs:
            continue
        # (where, sub-task) per preload; a kernel just preloaded on this core type is skipped
        wanted = [(None, i) for i in subs[:2]] + [(subs[k - 2], subs[k]) for k in range(2, len(subs))]
        last = None
        for where, index in wanted:
            if kernel_of(index) == last:
                continue
            last = kernel_of(index)
            (before.setdefault(0, []) if where is None else after.setdefault(where, [])).append(preload(index, core))
    out: Program = []
    for i, item in enumerate(program):
        out += before.get(i, [])
        out.append(item)
        out += after.get(i, [])
    rebuild(sk, out)


@dataclass(frozen=True)
class InsertPreloadPass(OptionsPass):
    """Prefetch each sub-kernel's code into the instruction cache ahead of its call."""

    name = "sk-insert-preload"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for sk, kernels, options in superkernels(op, self.sk_options()):
            reject_depends(sk, self.name)
            insert_preloads(sk, kernels, options)
