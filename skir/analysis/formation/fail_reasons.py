"""Why a kernel task stays unfused: the reason names of docs/design.md §3 and the vendor's enums.

The names are part of skir's output contract (`sk.fail` attributes, SK meta). Each maps to
the AOT layer's `FusionFailReason` name (`vendor_reason`); where the vendor records the
cause in a sub-status or a scope-break reason, `vendor_detail` gives it.
"""

from __future__ import annotations

from enum import auto

from xdsl.utils.str_enum import StrEnum


class FailReason(StrEnum):
    """The one reason a kernel task carries when it ends up unfused."""

    IN_UNFUSIBLE_SCOPE = auto()
    NOT_IN_SCOPE = auto()
    DYNAMIC_TASK = auto()
    OP_UNSUPPORTED = auto()
    EXCEED_CORE_MAX = auto()
    EXTERNAL_DEPEND = auto()
    DEFAULT_NODE = auto()
    ISOLATED_EVENT = auto()
    NON_CONVEX = auto()
    STREAM_FUSION_OFF = auto()
    SYNCALL_BLOCK_MISMATCH = auto()
    DEADLOCK = auto()
    RESOURCE_INSUFFICIENT = auto()
    SINGLE_TASK = auto()
    NO_GAIN = auto()
    COMM_KERNEL = auto()
    COMM_CORESIDENCY = auto()
    COMM_ORDER = auto()

    @property
    def vendor_reason(self) -> str:
        return _VENDOR[self][0]

    @property
    def vendor_detail(self) -> str | None:
        return _VENDOR[self][1]


_VENDOR: dict[FailReason, tuple[str, str | None]] = {
    FailReason.IN_UNFUSIBLE_SCOPE: ("IN_UNFUSIBLE_SCOPE", None),
    FailReason.NOT_IN_SCOPE: ("NOT_IN_SCOPE", None),
    FailReason.DYNAMIC_TASK: ("DYNAMIC_TASK_UNSUPPORT", None),
    FailReason.OP_UNSUPPORTED: ("OP_UNSUPPORT", None),
    FailReason.EXCEED_CORE_MAX: ("EXCEED_CORE_MAX", None),
    FailReason.EXTERNAL_DEPEND: ("EXTERNAL_DEPEND", None),
    FailReason.DEFAULT_NODE: ("DEFAULT_NODE", None),
    FailReason.ISOLATED_EVENT: ("ISOLATED_EVENT", None),
    FailReason.NON_CONVEX: ("SCOPE_FUSE_PART", "UNFUSIBLE_NODE"),
    FailReason.STREAM_FUSION_OFF: ("SCOPE_FUSE_PART", "UNFUSIBLE_NODE"),
    FailReason.SYNCALL_BLOCK_MISMATCH: ("SCOPE_FUSE_PART", "SYNCALL_OP_DROP"),
    FailReason.DEADLOCK: ("EXIST_DEADLOCK", "DEADLOCK_DETECTED"),
    FailReason.RESOURCE_INSUFFICIENT: ("SCOPE_FUSE_PART", "RESOURCE_INSUFFICIENT"),
    FailReason.SINGLE_TASK: ("SCOPE_FUSE_PART", "NO_TARGET_NODE"),
    FailReason.NO_GAIN: ("SKIR_NO_GAIN", None),  # skir's own: the vendor keeps every legal scope
    FailReason.COMM_KERNEL: ("SKIR_COMM_KERNEL", None),  # skir's own: fuse-comm=0 keeps collectives apart
    FailReason.COMM_CORESIDENCY: ("SCOPE_FUSE_PART", "DEADLOCK_DETECTED"),
    FailReason.COMM_ORDER: ("SCOPE_FUSE_PART", "DEADLOCK_DETECTED"),
}

NO_GAIN_ATTR = "sk.no_gain"
"""On a launch: `select=gain` dropped the SuperKernel it was in (the value: the predicted gain),
so formation leaves it unfused (`no_gain`)."""

SELECT_CUT_ATTR = "sk.select_cut"
"""On a launch: `select=gain` cut its SuperKernel before it (the value: why), so formation closes
the SuperKernel it grows when it reaches this task (a cut `no_gain`) and the task starts the next."""

SELECT_NAME_ATTR = "sk.select_name"
"""On a launch: `select=gain` judged it as a member of the SuperKernel of this name in an earlier
round, so that `sk-outline` gives that name again to the first SuperKernel it forms around it
(names stay stable across rounds; a dropped SuperKernel's name is never reused)."""

PER_TASK_ORDER = (
    FailReason.IN_UNFUSIBLE_SCOPE,
    FailReason.NOT_IN_SCOPE,
    FailReason.DYNAMIC_TASK,
    FailReason.COMM_KERNEL,
    FailReason.OP_UNSUPPORTED,
    FailReason.EXCEED_CORE_MAX,
    FailReason.EXTERNAL_DEPEND,
)
"""Precedence of the per-task tests (docs/design.md §3 formation step 1): first match wins."""
