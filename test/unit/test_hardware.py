"""The hardware model (`skir.dialects.hardware`) against facts written out by hand: the task
ratios the descriptor's `taskRation` states, the cores a launch occupies, and how a mixed
sub-kernel takes its vector cores inside a wider SuperKernel."""

from __future__ import annotations

import pytest

from skir.dialects.aclgraph_enums import KernelType
from skir.dialects.hardware import (
    SK_KERNEL_TYPES,
    CoreClass,
    CoreType,
    core_class,
    core_demand,
    core_types,
    from_task_ratio,
    from_vendor_kernel_type,
    subtask_vector_cores,
    vendor_kernel_type,
    widened_under,
)

# kernel type -> (cube, vector) cores of a 24-block launch, its class, the vendor's name
BY_HAND = {
    KernelType.AIC_ONLY: ((24, 0), CoreClass.AIC, "AIC_ONLY"),
    KernelType.AIV_ONLY: ((0, 24), CoreClass.AIV, "AIV_ONLY"),
    KernelType.MIX_AIC_1_0: ((24, 0), CoreClass.AIC, "MIX_AIC_1_0"),
    KernelType.MIX_AIV_1_0: ((0, 24), CoreClass.AIV, "MIX_AIV_1_0"),
    KernelType.MIX_AIC_1_1: ((24, 24), CoreClass.MIX, "MIX_1_1"),
    KernelType.MIX_AIC_1_2: ((24, 48), CoreClass.MIX, "MIX_1_2"),
}


@pytest.mark.parametrize("kernel_type", list(KernelType))
def test_each_kernel_type_as_written_by_hand(kernel_type: KernelType) -> None:
    demand, cls, vendor = BY_HAND[kernel_type]
    assert core_demand(kernel_type, 24) == demand
    assert core_class(kernel_type) is cls
    assert core_types(kernel_type) == tuple(t for t, n in zip((CoreType.AIC, CoreType.AIV), demand, strict=True) if n)
    assert vendor_kernel_type(kernel_type) == vendor and from_vendor_kernel_type(vendor) is kernel_type


def test_plain_types_of_a_ratio_and_the_launch_types() -> None:
    assert from_task_ratio((1, 2)) is KernelType.MIX_AIC_1_2 and from_task_ratio((2, 1)) is None
    assert set(SK_KERNEL_TYPES) == {k for k in KernelType if k.value.startswith("mix")}


def _vector_cores_by_hand(kernel: KernelType, blocks: int, launch_ratio: int) -> int:
    """The simulator's rule before the model held it: a 1:2 kernel two vector cores a block, a
    1:1 kernel the launch's vector sub-cores of a block, anything else one core a block."""
    if kernel is KernelType.MIX_AIC_1_2:
        return blocks * 2
    if kernel is KernelType.MIX_AIC_1_1:
        return blocks * launch_ratio
    return blocks


@pytest.mark.parametrize("kernel_type", list(KernelType))
@pytest.mark.parametrize("launch_ratio", [1, 2])
def test_vector_cores_of_a_subtask(kernel_type: KernelType, launch_ratio: int) -> None:
    for blocks in (1, 7, 24):
        assert subtask_vector_cores(kernel_type, blocks, launch_ratio) == \
            _vector_cores_by_hand(kernel_type, blocks, launch_ratio)


def test_only_a_1_1_kernel_under_a_1_2_launch_is_widened() -> None:
    widened = {(k, sk) for k in KernelType for sk in SK_KERNEL_TYPES if widened_under(k, sk)}
    assert widened == {(KernelType.MIX_AIC_1_1, KernelType.MIX_AIC_1_2)}
