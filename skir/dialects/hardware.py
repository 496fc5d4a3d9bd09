"""Hardware vocabulary shared by the `sk` and `ascendc` dialects: core types and pipes."""

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
