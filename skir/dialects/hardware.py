"""The one hardware model (docs/design.md §4): core types and pipes, the kernel types and every
fact about them (task ratio, class, core demand and types, vendor names), the core types and
every fact about them (the pipe their flags are set from, their all-core barrier and its flag,
the flag they signal the other type of their block with, what a block index counts), the
cross-core flag counters, and the early-start handshake's recipes. A new kernel type is one
entry in each kernel-type table below; a new core type one entry in `CORE_FACTS`.

```python
core_demand(KernelType.MIX_AIC_1_2, 24)    # (24, 48): cube and vector cores
core_class(KernelType.MIX_AIV_1_0)         # CoreClass.AIV
CORE_FACTS[CoreType.AIV].flag_pipe         # Pipe.MTE3: an AIV sets flags behind its last writes
```
"""

from __future__ import annotations

from enum import auto
from typing import NamedTuple

from xdsl.utils.str_enum import StrEnum


class CoreType(StrEnum):
    """The two sub-core types of an AI core: the cube (AIC) and the vector (AIV) core."""

    AIC = auto()
    AIV = auto()


class Pipe(StrEnum):
    """The pipes a cross-core set may be issued on (never S or ALL)."""

    V = auto()
    M = auto()
    MTE1 = auto()
    MTE2 = auto()
    MTE3 = auto()
    FIX = auto()


class BarrierKind(StrEnum):
    """All AIVs (mode-0 flag 14), all AICs (flag 11), both (`SyncAll<false>`), or a local pipe barrier."""

    ALL_AIV = auto()
    ALL_AIC = auto()
    SYNC_ALL = auto()
    PIPE_ALL = auto()


class KernelType(StrEnum):
    """The kernel types of the dav-c220 (A2/A3) AI core."""

    AIV_ONLY = auto()
    AIC_ONLY = auto()
    MIX_AIV_1_0 = auto()
    MIX_AIC_1_0 = auto()
    MIX_AIC_1_1 = auto()
    MIX_AIC_1_2 = auto()


class CoreClass(StrEnum):
    """The device class of a kernel type: which sub-cores of an AI core it uses."""

    AIC = auto()
    AIV = auto()
    MIX = auto()


# ---- the hardware model: every fact about kernel types lives here ---------------------------

_RATIO = {
    KernelType.AIC_ONLY: (1, 0),
    KernelType.MIX_AIC_1_0: (1, 0),
    KernelType.AIV_ONLY: (0, 1),
    KernelType.MIX_AIV_1_0: (0, 1),
    KernelType.MIX_AIC_1_1: (1, 1),
    KernelType.MIX_AIC_1_2: (1, 2),
}
_VENDOR_NAME = {
    KernelType.AIV_ONLY: "AIV_ONLY", KernelType.AIC_ONLY: "AIC_ONLY", KernelType.MIX_AIV_1_0: "MIX_AIV_1_0",
    KernelType.MIX_AIC_1_0: "MIX_AIC_1_0", KernelType.MIX_AIC_1_1: "MIX_1_1", KernelType.MIX_AIC_1_2: "MIX_1_2",
}
SK_KERNEL_TYPES = (KernelType.MIX_AIV_1_0, KernelType.MIX_AIC_1_0, KernelType.MIX_AIC_1_1, KernelType.MIX_AIC_1_2)
"""The kernel types a SuperKernel launches as (the `mix_*` types: its entry has the mix trailer)."""


def task_ratio(kernel_type: KernelType) -> tuple[int, int]:
    """(cube, vector) sub-cores per block of a launch (the descriptor's `taskRation`)."""
    return _RATIO[kernel_type]


def core_class(kernel_type: KernelType) -> CoreClass:
    """The class (aic, aiv or mix) of `kernel_type`."""
    aic, aiv = _RATIO[kernel_type]
    return CoreClass.MIX if aic and aiv else CoreClass.AIC if aic else CoreClass.AIV


def core_demand(kernel_type: KernelType, blocks: int) -> tuple[int, int]:
    """Cube and vector cores that a launch of `blocks` blocks occupies."""
    aic, aiv = _RATIO[kernel_type]
    return blocks * aic, blocks * aiv


def widened_under(kernel_type: KernelType, launched_as: KernelType) -> bool:
    """Whether a mixed sub-kernel of `kernel_type` runs with more vector sub-cores per block than
    it was built for, inside a SuperKernel launched as `launched_as` (a 1:1 kernel under a 1:2
    launch: each of its blocks gets both vector sub-cores, SK meta's `mix11_under_mix12`)."""
    aic, aiv = _RATIO[kernel_type]
    return bool(aic and aiv) and _RATIO[launched_as][1] > aiv


def subtask_vector_cores(kernel_type: KernelType, blocks: int, launch_vectors_per_block: int) -> int:
    """The vector cores a sub-task of `blocks` blocks occupies inside a launch with
    `launch_vectors_per_block` vector sub-cores per block: a mixed kernel's block takes all of
    its block's vector sub-cores (at least as many as it was built for), any other one core a block."""
    aic, aiv = _RATIO[kernel_type]
    return blocks * max(aiv, launch_vectors_per_block) if aic and aiv else blocks


def core_types(kernel_type: KernelType) -> tuple[CoreType, ...]:
    """The sub-core types a launch of `kernel_type` runs on (AIC before AIV)."""
    aic, aiv = _RATIO[kernel_type]
    return (*((CoreType.AIC,) if aic else ()), *((CoreType.AIV,) if aiv else ()))


def class_types(cls: CoreClass) -> tuple[CoreType, ...]:
    """The core types that run something of class `cls` (AIC before AIV)."""
    if cls is CoreClass.MIX:
        return CoreType.AIC, CoreType.AIV
    return (CoreType.AIC,) if cls is CoreClass.AIC else (CoreType.AIV,)


def types_class(types: tuple[CoreType, ...] | frozenset[CoreType] | set[CoreType]) -> CoreClass:
    """The class of a non-empty set of core types (both: `mix`)."""
    if len(set(types)) == 2:
        return CoreClass.MIX
    return CoreClass.AIC if CoreType.AIC in types else CoreClass.AIV


def vendor_kernel_type(kernel_type: KernelType) -> str:
    """The vendor's name of `kernel_type` (its dumps and fail log: `MIX_1_2`, ...)."""
    return _VENDOR_NAME[kernel_type]


def from_vendor_kernel_type(name: str) -> KernelType | None:
    """The kernel type the vendor calls `name`, if any."""
    return next((k for k, v in _VENDOR_NAME.items() if v == name), None)


def from_task_ratio(ratio: tuple[int, int]) -> KernelType | None:
    """The plain kernel type of a (cube, vector) task ratio (`aic_only`, `aiv_only`, 1:1, 1:2)."""
    return {(1, 0): KernelType.AIC_ONLY, (0, 1): KernelType.AIV_ONLY, (1, 1): KernelType.MIX_AIC_1_1,
            (1, 2): KernelType.MIX_AIC_1_2}.get(ratio)


# ---- the core types: every fact about one sub-core type lives here ---------------------------

FLAG_IDS = range(16)
"""The cross-core flag ids of one sub-core, each a 4-bit counter."""
MAX_CREDITS = 15
"""Credits one (core, flag id) counter holds at most; a set on a full counter overflows."""


class CoreFacts(NamedTuple):
    """What one core type does in cross-core synchronisation (the Ascend C kernel headers'
    `SyncAll`, `SetNextTaskStart` and FFTS flag constants):

    - `flag_pipe`: the pipe its cross-core sets are issued on, the one its last global-memory
      writes leave by (FIX for the cube, MTE3 for the vector core), so a set follows them;
    - `barrier`: its all-core barrier (every core of this type, no other);
    - `barrier_flag`: the mode-0 flag of that barrier, which early-start's set uses too
      (`SYNC_AIC_FLAG` 11, `SYNC_AIV_ONLY_ALL` 14);
    - `group_flag`: the mode-2 flag it sets to the other type of its block (`SYNC_AIC_AIV_FLAG`
      13 from the AIC, `SYNC_AIV_FLAG` 12 from an AIV);
    - `barrier_cost`: the simulator's cost parameter of that barrier.
    """

    flag_pipe: Pipe
    barrier: BarrierKind
    barrier_flag: int
    group_flag: int
    barrier_cost: str


CORE_FACTS: dict[CoreType, CoreFacts] = {
    CoreType.AIC: CoreFacts(Pipe.FIX, BarrierKind.ALL_AIC, 11, 13, "barrier_all_aic_us"),
    CoreType.AIV: CoreFacts(Pipe.MTE3, BarrierKind.ALL_AIV, 14, 12, "barrier_all_aiv_us"),
}
BARRIER_TYPE: dict[BarrierKind, CoreType] = {facts.barrier: core for core, facts in CORE_FACTS.items()}
"""The core type of each all-core barrier of one type (`all_aic`, `all_aiv`)."""
FLAG_NAMES = {11: "SYNC_AIC_FLAG", 12: "SYNC_AIV_FLAG", 13: "SYNC_AIC_AIV_FLAG", 14: "SYNC_AIV_ONLY_ALL"}
"""The Ascend C name of each flag id `CORE_FACTS` uses (emitted entries name them so)."""
RESERVED_FLAGS = range(min(FLAG_NAMES), max(FLAG_NAMES) + 1)
"""Cross-core flag ids taken by SyncAll, the all-core barriers and early-start (11-14): no other
sync may use them."""


def index_type(cls: CoreClass) -> CoreType | None:
    """What the block index of a sub-task of class `cls` counts: the AIVs for the aiv class (an
    AIV kernel's logical index), blocks otherwise (None). docs/design.md §3 "Placement"."""
    return CoreType.AIV if cls is CoreClass.AIV else None


# ---- the early-start handshake (`SetNextTaskStart` / `WaitPreTaskEndImpl<cfg>`) ------------

EARLY_CLASS_TYPES: dict[int, tuple[CoreType, ...]] = {
    0: (CoreType.AIC,),
    1: (CoreType.AIV,),
    2: (CoreType.AIC, CoreType.AIV),
}
"""The core types of each early-start class code (aic 0, aiv 1, mix 2); cfg = 4 prev + cur."""


class EarlyWait(NamedTuple):
    """What `WaitPreTaskEndImpl<cfg>` does on one core type, in this order:

    - `direct`: wait on this type's mode-0 flag (11 on AIC, 14 on AIV), i.e. until every core
      of this type has run `SetNextTaskStart`;
    - `send`: then a mode-2 set to the other type's cores of the block (13 from AIC on
      PIPE_FIX, 12 from AIV on PIPE_MTE3);
    - `via`: then a wait on the other type's mode-2 set.

    A core type with none of them returns at once: it is ordered after nothing.
    """

    direct: bool
    send: bool
    via: bool


_A, _V = CoreType.AIC, CoreType.AIV
_N = EarlyWait(False, False, False)
EARLY_WAIT_RECIPES: dict[int, dict[CoreType, EarlyWait]] = {
    0: {_A: EarlyWait(True, False, False), _V: _N},                               # aic -> aic
    1: {_A: EarlyWait(True, True, False), _V: EarlyWait(False, False, True)},     # aic -> aiv
    2: {_A: EarlyWait(True, True, False), _V: EarlyWait(False, False, True)},     # aic -> mix
    4: {_A: EarlyWait(False, False, True), _V: EarlyWait(True, True, False)},     # aiv -> aic
    5: {_A: _N, _V: EarlyWait(True, False, False)},                               # aiv -> aiv
    6: {_A: EarlyWait(False, False, True), _V: EarlyWait(True, True, False)},     # aiv -> mix
    8: {_A: EarlyWait(True, False, True), _V: EarlyWait(True, True, False)},      # mix -> aic
    9: {_A: EarlyWait(True, True, False), _V: EarlyWait(True, False, True)},      # mix -> aiv
    10: {_A: EarlyWait(True, True, True), _V: EarlyWait(True, True, True)},       # mix -> mix
}
"""The recipe of `WaitPreTaskEndImpl<cfg>` per cfg and core type, as the Ascend C early-start
implementation gives them (flags 11-14). Only the producer class's types run the set, so only
they wait `direct`; a type of the consumer class that is not a producer type learns through
the other type's mode-2 set. docs/design.md §3 "Synchronisation inside a SuperKernel"."""


def early_ordered_types(cfg: int) -> frozenset[CoreType]:
    """The core types that `WaitPreTaskEndImpl<cfg>` orders after every core of the previous
    class (a `direct` wait covers its own type; a `via` wait what the sender knew when it set)."""
    producers = set(EARLY_CLASS_TYPES[cfg // 4])
    recipe = EARLY_WAIT_RECIPES[cfg]
    ordered = set()
    for core, step in recipe.items():
        other = _V if core is _A else _A
        known = {core} if step.direct else set()
        if step.via and recipe[other].direct:
            known.add(other)
        if producers <= known:
            ordered.add(core)
    return frozenset(ordered)


GM_LINE_BYTES = 64
"""The unit of `dcci` and of a core's write-back to global memory
(docs/design.md §5 "Memory layout"): a clean writes back every byte of the line the core holds, so every GM word two
cores share (a cell, a workspace word) owns its line."""


def line_bytes(size: int) -> int:
    """`size` bytes rounded up to whole lines, at least one line: what the runtime reserves."""
    return max(GM_LINE_BYTES, -(-size // GM_LINE_BYTES) * GM_LINE_BYTES)
