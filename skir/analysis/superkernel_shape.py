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


def superkernel_shape(members: Iterable[tuple[KernelType, int]]) -> SkShape:
    """The SuperKernel type and blocks for members given as (kernel type, blocks)."""
    max_aic = max_aiv = 0
    classes: set[CoreClass] = set()
    only_1_1 = True
    for kernel_type, blocks in members:
        aic, aiv = core_demand(kernel_type, blocks)
        max_aic, max_aiv = max(max_aic, aic), max(max_aiv, aiv)
        classes.add(core_class(kernel_type))
        only_1_1 = only_1_1 and kernel_type is KernelType.MIX_AIC_1_1
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
