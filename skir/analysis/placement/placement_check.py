"""The placement part of `sk-check`: every block of every sub-task runs exactly once.

A sub-task of `n` blocks placed `at F` (docs/design.md §3 "Placement") runs on the cores
`[F, F + n)` of its index (AIV index for an aiv-class kernel, block index otherwise), and its
kernel must take `sk::SkSystemArgs` to learn its logical block index. The check reads the IR
the way the hardware would see it, independently of the passes that wrote it:

- a placed sub-task's kernel takes `SkSystemArgs`, and its range lies within the SuperKernel's
  cores of its index;
- when the module holds the emitted entry (`ascendc.source`), each sub-task has exactly one
  call on each core type it runs on, guarded to exactly `[F, F + n)` of its index; a call of
  a kernel that takes `SkSystemArgs` hands it `index - F` and `n` (on a mix sub-task's AIVs,
  `index - F·r` and `n·r`, r the AIVs a block) and a call of one that does not is not placed.
  With the guard that makes the logical index a bijection from the range onto `[0, n)`.
- on every flag id a guarded flag op uses (a lane's round, docs/design.md §3 "Lanes"), the
  entry's sets and waits are exactly the IR's, each under exactly its guard: `F <= index <
  F + n` of its core type (AIV index on the AIV, block index on the AIC), none for an
  unguarded one. The sync machine proves the IR's rounds; this ties them to the code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from skir.dialects.aclgraph import ModelOp
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import CoreClass
from skir.dialects.ascendc import CallOp, IfBlockOp, SourceOp, enclosing_core
from skir.dialects.ascendc_attrs import BlockIndex
from skir.dialects.ascendc_groups import GuardedCallOp
from skir.dialects.ascendc_intrinsics import CrossCoreSetOp, CrossCoreWaitOp
from skir.dialects.ascendc_system_args import CallSystemArgsOp
from skir.dialects.hardware import CoreType
from skir.dialects.superkernel import SetFlagOp, SubtaskOp, SuperKernelOp, WaitFlagOp

Call = tuple[str, int, CoreType, str, int, int, int, int]
"""(symbol, arg slot, core type, guard index, guard low, guard high, index handed low, count
handed; -1, -1 for a call without `SkSystemArgs`)."""


def _expected(sk: SuperKernelOp, sub: SubtaskOp, kernel: KernelOp) -> Iterator[Call]:
    cls = sub.cores.data
    first, n = sub.first_block, sub.blocks.data
    guard = BlockIndex.LOGICAL if cls is CoreClass.AIV else BlockIndex.BLOCK
    ratio = max(1, sk.cores()[CoreType.AIV] // sk.blocks.data)
    for core in sub.core_set():
        handed = (-1, -1)
        if kernel.takes_system_args:
            scale = ratio if cls is CoreClass.MIX and core is CoreType.AIV else 1
            handed = (first * scale, n * scale)
        yield (kernel.sub_symbol, sub.offset.data, core, guard.value, first, first + n, *handed)


def _emitted(source: SourceOp) -> Iterator[Call]:
    for op in source.walk():
        if isinstance(op, GuardedCallOp):
            core = op.core.data if op.core is not None else enclosing_core(op)
            if core is not None:
                yield (op.symbol.data, op.offset.value.data, core, op.index.data.value, 0, op.bound.value.data, -1, -1)
        elif isinstance(op, CallOp | CallSystemArgsOp):
            guard, core = op.parent_op(), enclosing_core(op)
            if not isinstance(guard, IfBlockOp) or core is None:
                continue
            low = 0 if guard.first is None else guard.first.value.data
            handed = (-1, -1) if isinstance(op, CallOp) else (op.first.value.data, op.count.value.data)
            if isinstance(op, CallSystemArgsOp) and op.index.data is not (
                    BlockIndex.LOGICAL if core is CoreType.AIV else BlockIndex.BLOCK):
                handed = (-2, -2)  # the index of the wrong core type: never what a sub-task expects
            yield (op.symbol.data, op.offset.value.data, core, guard.index.data.value, low, guard.bound.value.data,
                   *handed)


Sync = tuple[str, int, int, CoreType, str, int, int]
"""(set|wait, mode (-1 for a wait), flag, core type, guard index, guard low, guard high)."""


def _index_of(core: CoreType) -> str:
    return str((BlockIndex.LOGICAL if core is CoreType.AIV else BlockIndex.BLOCK).value)


def _planned_syncs(sk: SuperKernelOp) -> tuple[set[int], Counter[Sync]]:
    """The flag ids some guarded op uses, and every flag op on them with its guard."""
    flags = {op.flag.data for op in sk.body.block.ops
             if isinstance(op, SetFlagOp | WaitFlagOp) and op.blocks is not None}
    want: Counter[Sync] = Counter()
    for op in sk.body.block.ops:
        if isinstance(op, SetFlagOp | WaitFlagOp) and op.flag.data in flags:
            core = op.core.data
            guard = op.guard() or range(sk.cores()[core])
            mode = op.mode.data if isinstance(op, SetFlagOp) else -1
            kind = "set" if mode >= 0 else "wait"
            want[(kind, mode, op.flag.data, core, _index_of(core), guard.start, guard.stop)] += 1
    return flags, want


def _emitted_syncs(sk: SuperKernelOp, source: SourceOp, flags: set[int]) -> Counter[Sync]:
    found: Counter[Sync] = Counter()
    for op in source.walk():
        if isinstance(op, CrossCoreSetOp | CrossCoreWaitOp) and op.flag.value.data in flags:
            core = enclosing_core(op)
            if core is None:
                continue
            guard = op.parent_op()
            index, low, high = _index_of(core), 0, sk.cores()[core]
            if isinstance(guard, IfBlockOp):
                index, high = guard.index.data.value, guard.bound.value.data
                low = 0 if guard.first is None else guard.first.value.data
            mode = op.mode.value.data if isinstance(op, CrossCoreSetOp) else -1
            found[("set" if mode >= 0 else "wait", mode, op.flag.value.data, core, index, low, high)] += 1
    return found


def _describe_sync(sync: Sync) -> str:
    kind, mode, flag, core, index, low, high = sync
    return f"{kind}{f' mode {mode}' if mode >= 0 else ''} flag {flag} on {core.value} guarded {low} <= {index} < {high}"


def _describe(call: Call) -> str:
    symbol, slot, core, index, low, high, first, count = call
    text = f"{symbol} (slot {slot}) on {core.value} guarded {low} <= {index} < {high}"
    return text + (f", handed index - {first} of {count}" if count >= 0 else "")


def check_placement(model: ModelOp, sources: dict[str, SourceOp]) -> list[str]:
    """One line per placement problem of `model`'s SuperKernels (see the module docstring)."""
    kernels = {op.sym_name.data: op for op in model.body.block.ops if isinstance(op, KernelOp)}
    out: list[str] = []
    for sk in model.body.block.ops:
        if not isinstance(sk, SuperKernelOp):
            continue
        name = sk.sym_name.data
        want: Counter[Call] = Counter()
        for sub in sk.subtasks():
            kernel = kernels.get(sub.kernel.root_reference.data)
            if kernel is None:
                continue
            if sub.first is not None and not kernel.takes_system_args:
                out.append(f"placement: {name} sub-task {sk.positions()[sub]} runs at {sub.first_block} but "
                           f"@{kernel.sym_name.data} does not take sk::SkSystemArgs, so its blocks would not know "
                           "their index")
            cores = sk.index_cores(sub.cores.data)
            if sub.first_block + sub.blocks.data > cores:
                out.append(f"placement: {name} sub-task {sk.positions()[sub]} runs on [{sub.first_block}, "
                           f"{sub.first_block + sub.blocks.data}), beyond the SuperKernel's {cores}")
            want.update(_expected(sk, sub, kernel))
        source = sources.get(name)
        if source is None:
            continue
        found = Counter(_emitted(source))
        for call in sorted((want - found).elements(), key=str):
            out.append(f"placement: {name}: the entry lacks the call of {_describe(call)}")
        for call in sorted((found - want).elements(), key=str):
            out.append(f"placement: {name}: the entry calls {_describe(call)}, which no sub-task runs so")
        flags, planned = _planned_syncs(sk)
        if flags:
            emitted = _emitted_syncs(sk, source, flags)
            for sync in sorted((planned - emitted).elements(), key=str):
                out.append(f"placement: {name}: the entry lacks the {_describe_sync(sync)}")
            for sync in sorted((emitted - planned).elements(), key=str):
                out.append(f"placement: {name}: the entry has a {_describe_sync(sync)} the program does not")
    return out
