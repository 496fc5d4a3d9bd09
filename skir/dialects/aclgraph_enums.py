"""Symbolic enumerations of the `aclgraph` dialect and their attributes. The kernel types and
every fact about them (task ratio, class, core demand and types, vendor names) live in the one
hardware model, `skir.dialects.hardware`; this module re-exports them (`__all__`).

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

from skir.dialects.hardware import (
    SK_KERNEL_TYPES,
    CoreClass,
    CoreType,
    KernelType,
    class_types,
    core_class,
    core_demand,
    core_types,
    from_task_ratio,
    from_vendor_kernel_type,
    task_ratio,
    types_class,
    vendor_kernel_type,
)


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


__all__ = [
    "SK_KERNEL_TYPES",
    "CommOp",
    "CommOpAttr",
    "CoreClass",
    "CoreType",
    "KernelType",
    "KernelTypeAttr",
    "OpaqueKind",
    "OpaqueKindAttr",
    "ParamRole",
    "ParamRoleAttr",
    "SchedMode",
    "SchedModeAttr",
    "WaitRule",
    "WaitRuleAttr",
    "class_types",
    "comm_op_attr",
    "core_class",
    "core_demand",
    "core_types",
    "from_task_ratio",
    "from_vendor_kernel_type",
    "kernel_type_attr",
    "opaque_kind_attr",
    "param_role_attr",
    "rule_holds",
    "sched_mode_attr",
    "task_ratio",
    "types_class",
    "vendor_kernel_type",
    "wait_rule_attr",
]
