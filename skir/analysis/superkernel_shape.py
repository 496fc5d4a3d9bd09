"""SuperKernel type and launch blocks from its members, as the vendor decides (DESIGN §3).

- only aiv work -> `mix_aiv_1_0`, blocks = max aiv demand;
- only aic work -> `mix_aic_1_0`, blocks = max aic demand;
- only 1:1 members -> `mix_aic_1_1`, blocks = max aic;
- otherwise `mix_aic_1_1` with blocks = max aic when max aiv <= max aic, else
  `mix_aic_1_2` with blocks = max(max aic, ceil(max aiv / 2)).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from skir.dialects.aclgraph_enums import CoreClass, KernelType, core_class, core_demand
from skir.errors import SkirError
from skir.options import SkOptions

_HAS_AIC = (KernelType.MIX_AIC_1_0, KernelType.MIX_AIC_1_1, KernelType.MIX_AIC_1_2)
_HAS_AIV = (KernelType.MIX_AIV_1_0, KernelType.MIX_AIC_1_1, KernelType.MIX_AIC_1_2)


@dataclass(frozen=True)
class SkShape:
    """The launch shape of a SuperKernel."""

    kernel_type: KernelType
    blocks: int
    max_aic: int
    max_aiv: int

    @property
    def aiv_per_block(self) -> int:
        """AIV sub-cores per block of the launch (2 under a 1:2 SuperKernel)."""
        return 2 if self.kernel_type is KernelType.MIX_AIC_1_2 else 1

    def demand(self) -> tuple[int, int]:
        """Cube and vector cores the launch holds (batch mode: all of them for its whole run)."""
        aic = self.blocks if self.kernel_type in _HAS_AIC else 0
        aiv = self.blocks * self.aiv_per_block if self.kernel_type in _HAS_AIV else 0
        return aic, aiv


@dataclass(frozen=True)
class Demand:
    """What the table needs of a member set, accumulated one member at a time."""

    max_aic: int = 0
    max_aiv: int = 0
    classes: frozenset[CoreClass] = frozenset()
    only_1_1: bool = True

    def add(self, kernel_type: KernelType, blocks: int) -> Demand:
        aic, aiv = core_demand(kernel_type, blocks)
        return Demand(
            max(self.max_aic, aic),
            max(self.max_aiv, aiv),
            self.classes | {core_class(kernel_type)},
            self.only_1_1 and kernel_type is KernelType.MIX_AIC_1_1,
        )


def superkernel_shape(members: Iterable[tuple[KernelType, int]] | Demand) -> SkShape:
    """The SuperKernel type and blocks for members given as (kernel type, blocks)."""
    demand = members if isinstance(members, Demand) else Demand()
    if not isinstance(members, Demand):
        for kernel_type, blocks in members:
            demand = demand.add(kernel_type, blocks)
    max_aic, max_aiv, classes, only_1_1 = demand.max_aic, demand.max_aiv, demand.classes, demand.only_1_1
    if not classes:
        raise ValueError("a SuperKernel needs at least one member")
    if classes == {CoreClass.AIV}:
        return SkShape(KernelType.MIX_AIV_1_0, max_aiv, max_aic, max_aiv)
    if classes == {CoreClass.AIC}:
        return SkShape(KernelType.MIX_AIC_1_0, max_aic, max_aic, max_aiv)
    if only_1_1 or max_aiv <= max_aic:
        return SkShape(KernelType.MIX_AIC_1_1, max_aic, max_aic, max_aiv)
    return SkShape(KernelType.MIX_AIC_1_2, max(max_aic, -(-max_aiv // 2)), max_aic, max_aiv)


TASK_RATIO = {
    KernelType.MIX_AIV_1_0: (0, 1),
    KernelType.AIV_ONLY: (0, 1),
    KernelType.MIX_AIC_1_0: (1, 0),
    KernelType.AIC_ONLY: (1, 0),
    KernelType.MIX_AIC_1_1: (1, 1),
    KernelType.MIX_AIC_1_2: (1, 2),
}
"""(aic, aiv) sub-cores per block of a launch of each kernel type."""


def shape_with_options(
    members: Iterable[tuple[KernelType, int]] | Demand, options: SkOptions, cores: tuple[int, int]
) -> SkShape:
    """`superkernel_shape`, overridden by `debug-aic-num` / `debug-aiv-num` when given.

    As the vendor validates: aic only -> `mix_aic_1_0`, aiv only -> `mix_aiv_1_0`, equal ->
    `mix_aic_1_1`, aiv = 2 x aic -> `mix_aic_1_2`; any other ratio, more than the device's
    cores, or fewer than a member needs is an error naming the option.
    """
    shape = superkernel_shape(members)
    aic, aiv = options.debug_aic_num, options.debug_aiv_num
    if not aic and not aiv:
        return shape
    if aic and aiv:
        if aiv == aic:
            kernel_type = KernelType.MIX_AIC_1_1
        elif aiv == 2 * aic:
            kernel_type = KernelType.MIX_AIC_1_2
        else:
            raise SkirError(
                f"options 'debug-aic-num' ({aic}) and 'debug-aiv-num' ({aiv}): the ratio must be 1:1 or 1:2"
            )
    else:
        kernel_type = KernelType.MIX_AIC_1_0 if aic else KernelType.MIX_AIV_1_0
    if aic > cores[0]:
        raise SkirError(f"option 'debug-aic-num': {aic} is more than the device's {cores[0]} cube cores")
    if aiv > cores[1]:
        raise SkirError(f"option 'debug-aiv-num': {aiv} is more than the device's {cores[1]} vector cores")
    if shape.max_aic > aic:
        raise SkirError(f"option 'debug-aic-num': {aic} is fewer than the {shape.max_aic} cube cores a member needs")
    if shape.max_aiv > aiv:
        raise SkirError(f"option 'debug-aiv-num': {aiv} is fewer than the {shape.max_aiv} vector cores a member needs")
    return SkShape(kernel_type, aic or aiv, shape.max_aic, shape.max_aiv)
