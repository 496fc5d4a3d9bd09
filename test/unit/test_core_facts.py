"""The per-core-type facts of the hardware model (`skir.dialects.hardware.CORE_FACTS`), held
against the Ascend C kernel headers' own constants and recipes, written here by hand:

- `kernel_operator` flag ids: SYNC_AIC_FLAG = 11, SYNC_AIV_FLAG = 12, SYNC_AIC_AIV_FLAG = 13,
  SYNC_AIV_ONLY_ALL = 14; 16 flag counters per sub-core, 4 bits each (at most 15 credits);
- `SyncAll<true>` (AIV only): set mode-0 flag 14 on PIPE_MTE3, wait 14; the AIC-only barrier of
  a MIX_AIC_1_0 entry: set mode-0 flag 11 on PIPE_FIX, wait 11;
- `SyncAll<false>` (mix): the AIV sets mode-2 flag 12 on MTE3, the AIC sets mode-2 flag 13;
- `SetNextTaskStart<AIV_PIPE=PIPE_MTE3, AIC_PIPE=PIPE_FIX>` sets flag 11 on the AIC, 14 on the AIV.
"""

from __future__ import annotations

from skir.dialects.hardware import (
    BARRIER_TYPE,
    CORE_FACTS,
    FLAG_IDS,
    FLAG_NAMES,
    MAX_CREDITS,
    RESERVED_FLAGS,
    BarrierKind,
    CoreClass,
    CoreType,
    Pipe,
    index_type,
)
from skir.patterns.sk_to_ascendc import BARRIER_FLAG

HEADER_FLAGS = {"SYNC_AIC_FLAG": 11, "SYNC_AIV_FLAG": 12, "SYNC_AIC_AIV_FLAG": 13, "SYNC_AIV_ONLY_ALL": 14}
AIV_ONLY_SYNC_ALL = ("PIPE_MTE3", 0, "SYNC_AIV_ONLY_ALL")  # (set pipe, mode, flag)
AIC_ONLY_BARRIER = ("PIPE_FIX", 0, "SYNC_AIC_FLAG")
MIX_SYNC_ALL_SETS = {"aiv": ("PIPE_MTE3", 2, "SYNC_AIV_FLAG"), "aic": ("PIPE_FIX", 2, "SYNC_AIC_AIV_FLAG")}


def test_the_flag_ids_are_the_headers() -> None:
    assert {name: flag for flag, name in FLAG_NAMES.items()} == HEADER_FLAGS
    assert set(RESERVED_FLAGS) == set(HEADER_FLAGS.values())
    assert list(FLAG_IDS) == list(range(16)) and MAX_CREDITS == 2**4 - 1


def test_each_core_types_barrier_is_the_headers() -> None:
    for core, (pipe, mode, flag) in ((CoreType.AIV, AIV_ONLY_SYNC_ALL), (CoreType.AIC, AIC_ONLY_BARRIER)):
        facts = CORE_FACTS[core]
        assert (f"PIPE_{facts.flag_pipe.value.upper()}", 0, FLAG_NAMES[facts.barrier_flag]) == (pipe, mode, flag)
        assert BARRIER_TYPE[facts.barrier] is core
        assert BARRIER_FLAG[facts.barrier] == (facts.flag_pipe, HEADER_FLAGS[flag])


def test_each_core_types_group_signal_is_the_headers() -> None:
    for core in CoreType:
        pipe, mode, flag = MIX_SYNC_ALL_SETS[core.value]
        facts = CORE_FACTS[core]
        assert (f"PIPE_{facts.flag_pipe.value.upper()}", 2, FLAG_NAMES[facts.group_flag]) == (pipe, mode, flag)


def test_the_facts_cover_every_core_type_and_one_barrier_each() -> None:
    assert set(CORE_FACTS) == set(CoreType)
    assert {f.barrier for f in CORE_FACTS.values()} == {BarrierKind.ALL_AIC, BarrierKind.ALL_AIV}
    assert {f.flag_pipe for f in CORE_FACTS.values()} == {Pipe.FIX, Pipe.MTE3}
    # what a block index counts: an AIV kernel's logical index runs over the AIVs, others over blocks
    assert index_type(CoreClass.AIV) is CoreType.AIV
    assert index_type(CoreClass.AIC) is None and index_type(CoreClass.MIX) is None


def test_no_other_module_restates_a_core_type_fact() -> None:
    """The facts have one home: no module but the hardware model pairs a core type with its
    pipe, or writes a reserved flag id as a number."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "skir"
    pairing = re.compile(r"Pipe\.(FIX|MTE3) if core|CoreType\.(AIC|AIV): Pipe\.|CoreType\.(AIC|AIV): BarrierKind\.ALL_"
                         r"|BarrierKind\.ALL_(AIC|AIV): \(?CoreType|= 1[14]\n|11 <= flag <= 14")
    found = [f"{p.relative_to(root)}: {m.group(0).strip()}" for p in sorted(root.rglob("*.py"))
             if p.name != "hardware.py" for m in pairing.finditer(p.read_text())]
    assert not found, found
