"""Symbolic enumerations of the `aclgraph` dialect and the facts derived from them, among them
the one hardware model of kernel types (task ratio, class, core demand and types, vendor names).

Kernel types, parameter roles, schedule modes, value-wait rules and opaque task kinds
are never numbers in skir: each is a `StrEnum` with an `EnumAttribute` wrapper, printed
as a bare keyword inside the custom syntax of the ops and as `#aclgraph<kernel_type
aiv_only>` in the generic form.
"""

from __future__ import annotations

from enum import auto
from functools import cache

from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.utils.str_enum import StrEnum

from skir.dialects.hardware import CoreType


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


class ParamRole(StrEnum):
    """How a kernel uses one of its parameters."""

    IN = auto()
    OUT = auto()
    INOUT = auto()
    WORKSPACE = auto()
    TILING = auto()


class SchedMode(StrEnum):
    """`batch`: all blocks must be co-resident (the kernel calls SyncAll)."""

    NORMAL = auto()
    BATCH = auto()


class WaitRule(StrEnum):
    """The condition a `value_wait` waits for, with `*cell` the current value."""

    GEQ = auto()
    EQ = auto()
    AND = auto()
    NOR = auto()


MASK64 = (1 << 64) - 1


def rule_holds(rule: WaitRule, current: int, target: int) -> bool:
    """Whether a `value_wait` with `rule` and `target` passes when the cell holds `current`."""
    if rule is WaitRule.GEQ:
        return current >= target
    if rule is WaitRule.EQ:
        return current == target
    if rule is WaitRule.AND:
        return (current & target) != 0
    return (~(current | target) & MASK64) != 0


class OpaqueKind(StrEnum):
    """Kinds of the runtime's DEFAULT tasks, which skir never fuses."""

    MEMCPY = auto()
    MEMSET = auto()
    AICPU = auto()
    NOTIFY_RECORD = auto()
    NOTIFY_WAIT = auto()
    HCCL = auto()
    CMO = auto()
    HOST_FUNC = auto()
    OTHER = auto()


class CommOp(StrEnum):
    """What a communication kernel does across the ranks of its group (docs/design.md §3)."""

    ALL_REDUCE = auto()
    ALL_GATHER = auto()
    REDUCE_SCATTER = auto()
    ALL_TO_ALL = auto()
    DISPATCH = auto()
    COMBINE = auto()
    OTHER = auto()


@irdl_attr_definition
class CommOpAttr(EnumAttribute[CommOp], SpacedOpaqueSyntaxAttribute):
    """A collective, e.g. `#aclgraph<comm_op all_reduce>`."""

    name = "aclgraph.comm_op"


@irdl_attr_definition
class KernelTypeAttr(EnumAttribute[KernelType], SpacedOpaqueSyntaxAttribute):
    """A kernel type, e.g. `#aclgraph<kernel_type mix_aic_1_2>`."""

    name = "aclgraph.kernel_type"


@irdl_attr_definition
class ParamRoleAttr(EnumAttribute[ParamRole], SpacedOpaqueSyntaxAttribute):
    """A parameter role, e.g. `#aclgraph<param_role in>`."""

    name = "aclgraph.param_role"


@irdl_attr_definition
class SchedModeAttr(EnumAttribute[SchedMode], SpacedOpaqueSyntaxAttribute):
    """A launch schedule mode, e.g. `#aclgraph<sched_mode batch>`."""

    name = "aclgraph.sched_mode"


@irdl_attr_definition
class WaitRuleAttr(EnumAttribute[WaitRule], SpacedOpaqueSyntaxAttribute):
    """A value-wait rule, e.g. `#aclgraph<wait_rule eq>`."""

    name = "aclgraph.wait_rule"


@irdl_attr_definition
class OpaqueKindAttr(EnumAttribute[OpaqueKind], SpacedOpaqueSyntaxAttribute):
    """An opaque task kind, e.g. `#aclgraph<opaque_kind memcpy>`."""

    name = "aclgraph.opaque_kind"


@cache
def comm_op_attr(value: CommOp) -> CommOpAttr:
    return CommOpAttr(value)


@cache
def kernel_type_attr(value: KernelType) -> KernelTypeAttr:
    return KernelTypeAttr(value)


@cache
def param_role_attr(value: ParamRole) -> ParamRoleAttr:
    return ParamRoleAttr(value)


@cache
def sched_mode_attr(value: SchedMode) -> SchedModeAttr:
    return SchedModeAttr(value)


@cache
def wait_rule_attr(value: WaitRule) -> WaitRuleAttr:
    return WaitRuleAttr(value)


@cache
def opaque_kind_attr(value: OpaqueKind) -> OpaqueKindAttr:
    return OpaqueKindAttr(value)
