"""Symbolic enumerations of the `aclgraph` dialect and the facts derived from them.

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


_CLASS_OF = {
    KernelType.AIC_ONLY: CoreClass.AIC,
    KernelType.MIX_AIC_1_0: CoreClass.AIC,
    KernelType.AIV_ONLY: CoreClass.AIV,
    KernelType.MIX_AIV_1_0: CoreClass.AIV,
    KernelType.MIX_AIC_1_1: CoreClass.MIX,
    KernelType.MIX_AIC_1_2: CoreClass.MIX,
}


def core_class(kernel_type: KernelType) -> CoreClass:
    """The class (aic, aiv or mix) of `kernel_type`."""
    return _CLASS_OF[kernel_type]


def core_demand(kernel_type: KernelType, blocks: int) -> tuple[int, int]:
    """Cube and vector cores that a launch of `blocks` blocks occupies."""
    cls = _CLASS_OF[kernel_type]
    if cls is CoreClass.AIC:
        return blocks, 0
    if cls is CoreClass.AIV:
        return 0, blocks
    if kernel_type is KernelType.MIX_AIC_1_1:
        return blocks, blocks
    return blocks, 2 * blocks


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
