"""Hardware vocabulary shared by the `sk` and `ascendc` dialects: core types and pipes."""

from __future__ import annotations

from enum import auto

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
