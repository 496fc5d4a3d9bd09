"""What the host emulation runs and what it answers.

An `EmulationSpec` describes one emitted SuperKernel entry: its C++ text, its launch (kernel type,
blocks, arg-table size, GM lock slots) and the sub-task instances it calls, with the ordering edges
the emulation must prove.  `emulate` (in `runner`) turns it into an `EmulationResult`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from skir.dialects.aclgraph_enums import KernelType
from skir.dialects.hardware import FLAG_IDS, RESERVED_FLAGS

CORE_CLASSES = ("aic", "aiv", "mix")
LAUNCH_KERNEL_TYPES = tuple(t.value for t in KernelType)
"""The kernel types the shim launches (a SuperKernel's `mix_*` type, or a plain kernel's)."""
PROGRESS_FILE = "progress.bin"
"""The raw bytes of the progress area after an emulation (`debug-progress=1`): what `sk-hang`
reads, as it reads a device's dump of the same area."""
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@dataclass(frozen=True)
class SubTaskInstance:
    """One call site of a sub-kernel in the SuperKernel.

    `symbol` is the base sub-kernel symbol (split copies are `<symbol>_split<i>`), `offset` its
    first arg-table slot.  `early_set` / `early_wait` say that the sub-kernel itself performs
    `SetNextTaskStart` / `WaitPreTaskEnd` (its declared early-start capability): the stub then
    does so after its END record / before its BEGIN record.
    """

    key: int
    symbol: str
    offset: int
    core_class: str
    blocks: int
    split_copies: int
    batch: bool = False
    early_set: bool = False
    early_wait: bool = False
    comm: bool = False
    """A communication kernel (of a core class with one sub-core a block): its stub holds all
    its blocks at a rendezvous, as the kernel spins on its peers."""
    hang: bool = False
    """A planted fault (tests of the hang locator): the stub never returns from this instance."""
    flag_use: int | None = None
    """A mix sub-kernel's own use of a cross-core flag id, balanced (as a Matmul uses its ids):
    its AIVs set the id in mode 2 to their AIC, which waits for the credit."""
    leak_wait: int | None = None
    """A planted fault (tests of the cross-core self-test): the stub's AIC also waits once on this
    flag id with no matching set, a leaked wait that takes the next credit of the id."""
    leak_set: int | None = None
    """A planted fault (tests of the cross-core self-test's fill): the stub also sets this flag id
    once in mode 2 with no matching wait, a surplus credit: from its AIVs to their AIC (one
    credit on the AIC once both AIVs of a 1:2 block have set), or with `leak_from="aic"` from
    its AIC to its AIVs (one credit on each)."""
    leak_from: str = "aiv"
    """The core type that sets `leak_set`: `aiv` or `aic`."""
    first: int = 0
    """Placement: the first core of its range (AIV index for an aiv-class kernel, block otherwise)."""
    system_args: bool = False
    """The sub-kernel takes `sk::SkSystemArgs` (declared and called with the args pointer and it)."""
    params: int = 0
    """Its param slots (from `offset`); when the spec has `updates`, its stub logs the words it
    finds there (an ARGS line), so the emulation sees which arguments each run handed it."""

    @property
    def label(self) -> str:
        """`symbol@offset`, the name used in problem lines."""
        return f"{self.symbol}@{self.offset}"


@dataclass(frozen=True)
class EmulationSpec:
    """One SuperKernel entry to compile and run under the host shim.

    `edges` are (key_a, key_b) pairs: every END of a, on any core, must happen before every BEGIN
    of b on any core.  `lock_slots` hold a GM lock word (uint64, initially 0, or the value given in
    `preset_locks`).  `buffer_bytes` overrides the size (default 64) of the dummy buffer behind a
    slot, e.g. for a feed-sync-all workspace.
    """

    name: str
    entry: str
    source: str
    kernel_type: str
    blocks: int
    param_slots: int
    subtasks: tuple[SubTaskInstance, ...]
    edges: tuple[tuple[int, int], ...]
    lock_slots: tuple[int, ...] = ()
    preset_locks: tuple[tuple[int, int], ...] = ()
    buffer_bytes: tuple[tuple[int, int], ...] = ()
    lock_layout: tuple[tuple[int, int], ...] = ()
    """(slot, byte offset) of each lock word in the driver's 64-aligned lock area; a slot not listed
    gets a 64-byte line of its own, after the listed ones (docs/design.md §5 "Memory layout"). A
    test plants a packed layout (two words 8 bytes apart) to see the shim's line model catch it."""
    final_locks: tuple[tuple[int, int], ...] = ()
    """(slot, value) each lock word must hold when the SuperKernel has finished (-1: either)."""
    progress_slot: int | None = None
    """The slot of the progress area (`debug-progress=1`): the driver writes its bytes to
    `PROGRESS_FILE` in the work folder when the run ends, so a hang can be located from them."""
    updates: tuple[tuple[int, tuple[int, ...]], ...] = ()
    """(sub-task key, argument-table slots) per updated member, from the plan's update map: the
    entry then runs twice, the driver writing fresh arguments into those slots in between, and
    the second run must hand every updated sub-task new words and every other one its old ones
    (docs/design.md §3 "Updated kernels")."""

    def validate(self) -> None:
        """Raise `ValueError` for a spec that cannot describe an emitted entry."""
        if not _IDENT.match(self.name) or not _IDENT.match(self.entry):
            raise ValueError(f"emulation spec: name {self.name!r} / entry {self.entry!r} must be C identifiers")
        if self.kernel_type not in LAUNCH_KERNEL_TYPES:
            raise ValueError(f"emulation spec {self.name}: unknown kernel type {self.kernel_type!r}")
        if not 1 <= self.blocks <= 65535:
            raise ValueError(f"emulation spec {self.name}: blocks {self.blocks} out of range")
        if self.param_slots < 1:
            raise ValueError(f"emulation spec {self.name}: param_slots must be >= 1 (slot 0 = FFTS base)")
        keys: set[int] = set()
        for st in self.subtasks:
            if not _IDENT.match(st.symbol):
                raise ValueError(f"emulation spec {self.name}: symbol {st.symbol!r} is not a C identifier")
            if st.core_class not in CORE_CLASSES:
                raise ValueError(f"emulation spec {self.name}: {st.label} has class {st.core_class!r}")
            if st.key in keys:
                raise ValueError(f"emulation spec {self.name}: duplicate sub-task key {st.key}")
            if st.blocks < 1 or st.split_copies < 1:
                raise ValueError(f"emulation spec {self.name}: {st.label} needs blocks >= 1 and split_copies >= 1")
            if st.leak_from not in ("aic", "aiv"):
                raise ValueError(f"emulation spec {self.name}: {st.label} leaks from {st.leak_from!r}; "
                                 "expected aic or aiv")
            for flag in (st.flag_use, st.leak_wait, st.leak_set):
                if flag is not None and (st.core_class != "mix" or flag not in FLAG_IDS or flag in RESERVED_FLAGS):
                    raise ValueError(f"emulation spec {self.name}: {st.label} uses flag {flag}; a mix sub-kernel "
                                     "uses cross-core flag ids 0-10 and 15")
            keys.add(st.key)
        for a, b in self.edges:
            if a not in keys or b not in keys:
                raise ValueError(f"emulation spec {self.name}: edge ({a}, {b}) names an unknown sub-task key")
        for slot in (*self.lock_slots, *(s for s, _ in self.preset_locks), *(s for s, _ in self.buffer_bytes)):
            if not 1 <= slot < self.param_slots:
                raise ValueError(f"emulation spec {self.name}: slot {slot} outside 1..{self.param_slots - 1}")
        placed: dict[int, int] = {}
        for slot, offset in self.lock_layout:
            if slot not in self.lock_slots or slot in placed.values():
                raise ValueError(f"emulation spec {self.name}: lock_layout names slot {slot}, not a lock slot "
                                 "(or twice)")
            if offset < 0 or offset % 8 or offset in placed:
                raise ValueError(f"emulation spec {self.name}: lock_layout puts slot {slot} at {offset}, not a "
                                 "free multiple of 8")
            placed[offset] = slot
        if not {s for s, _ in self.preset_locks} <= set(self.lock_slots):
            raise ValueError(f"emulation spec {self.name}: preset_locks names a slot not in lock_slots")
        for key, slots in self.updates:
            if key not in keys:
                raise ValueError(f"emulation spec {self.name}: an update names the unknown sub-task key {key}")
            for slot in slots:
                if not 1 <= slot < self.param_slots or slot in self.lock_slots:
                    raise ValueError(f"emulation spec {self.name}: update slot {slot} is not an argument slot")


@dataclass
class EmulationResult:
    """The verdict of one emulation: `ok`, a one-line `verdict`, one line per problem."""

    name: str
    ok: bool
    verdict: str
    problems: list[str]
    work_dir: Path
    log_path: Path | None = None
    edges_proven: int = 0
    progress_path: Path | None = None
    """The dump of the progress area (`PROGRESS_FILE`), when the entry keeps one."""
