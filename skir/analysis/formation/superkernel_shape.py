"""SuperKernel type and launch blocks from its members: the vendor's newer launch-shape rule
(docs/design.md §3 "Launch shape").

Over the members: minCube / minVec = the largest cube / vector demand, `mix12` when any
member is 1:2. A batch-mode member (it calls SyncAll) without the `block_dim_scale_up`
capability needs an *exact* match: an aiv-class one fixes the SuperKernel's vector cores to
its vector demand, any other its cube cores to its cube demand. Candidates, in order:

- a 1:2 member -> `mix_aic_1_2`, blocks max(minCube, ceil(minVec / 2));
- only aiv work -> `mix_aiv_1_0` (minVec); only aic work -> `mix_aic_1_0` (minCube);
- both, minVec <= minCube -> `mix_aic_1_1` (max of both), then `mix_aic_1_2`;
- both, minVec > minCube -> `mix_aic_1_2`, then `mix_aic_1_1`.

The first candidate that fits the device, covers the minima and equals every exact value is
the shape; with none, `launch_shape` returns a `ShapeMismatch` whose detail names why (the
SuperKernel is cut before the kernel that caused it: `syncall_block_mismatch`). With
`feed-sync-all=1` exact values do not apply. `debug-aic-num` / `debug-aiv-num` replace the
candidates by the one shape they name, which must still meet the exact values.

```python
d = Demand().add(KernelType.AIC_ONLY, 24).add(KernelType.AIV_ONLY, 40, exact=True)
launch_shape(d, SkOptions(), (24, 48))
# ShapeMismatch('exact aiv 40, candidate mix_aic_1_2 blocks 24 gives 48; candidate
#                mix_aic_1_1 blocks 40 needs 40 aic of the device's 24')
```
"""

from __future__ import annotations

from dataclasses import dataclass

from skir.dialects.aclgraph_enums import CoreClass, KernelType, core_class, core_demand, task_ratio
from skir.errors import SkirError
from skir.options import SkOptions


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
        return max(1, task_ratio(self.kernel_type)[1])

    def demand(self) -> tuple[int, int]:
        """Cube and vector cores the launch holds (batch mode: all of them for its whole run)."""
        return core_demand(self.kernel_type, self.blocks)

    def cores_of(self, kernel_type: KernelType) -> int:
        """The block count a member of `kernel_type` sees when it runs on every core of its
        type (a `block_dim_scale_up` batch kernel): vector cores for the aiv class, blocks else."""
        return self.demand()[1] if core_class(kernel_type) is CoreClass.AIV else self.blocks


@dataclass(frozen=True)
class ShapeMismatch:
    """No valid launch shape: `detail` names the mismatch (SK meta and the summary show it)."""

    detail: str


@dataclass(frozen=True)
class Demand:
    """What the rule needs of a member set, accumulated one member at a time."""

    max_aic: int = 0
    max_aiv: int = 0
    mix12: bool = False
    exact_aic: frozenset[int] = frozenset()
    exact_aiv: frozenset[int] = frozenset()

    def add(self, kernel_type: KernelType, blocks: int, *, exact: bool = False) -> Demand:
        """Add a member; `exact`: a batch kernel without `block_dim_scale_up`."""
        aic, aiv = core_demand(kernel_type, blocks)
        exact_aic, exact_aiv = self.exact_aic, self.exact_aiv
        if exact:
            if core_class(kernel_type) is CoreClass.AIV:
                exact_aiv = exact_aiv | {aiv}
            else:
                exact_aic = exact_aic | {aic}
        return Demand(
            max(self.max_aic, aic), max(self.max_aiv, aiv), self.mix12 or kernel_type is KernelType.MIX_AIC_1_2,
            exact_aic, exact_aiv,
        )


def _candidates(d: Demand) -> list[SkShape]:
    def shape(kernel_type: KernelType, blocks: int) -> SkShape:
        return SkShape(kernel_type, blocks, d.max_aic, d.max_aiv)

    mix12 = shape(KernelType.MIX_AIC_1_2, max(d.max_aic, -(-d.max_aiv // 2)))
    mix11 = shape(KernelType.MIX_AIC_1_1, max(d.max_aic, d.max_aiv))
    if d.mix12:
        return [mix12]
    if not d.max_aic:
        return [shape(KernelType.MIX_AIV_1_0, d.max_aiv)]
    if not d.max_aiv:
        return [shape(KernelType.MIX_AIC_1_0, d.max_aic)]
    return [mix11, mix12] if d.max_aiv <= d.max_aic else [mix12, mix11]


def _why_not(s: SkShape, d: Demand, cores: tuple[int, int], exact: bool) -> str | None:
    """Why candidate `s` is not valid (None: it is)."""
    aic, aiv = s.demand()
    where = f"candidate {s.kernel_type.value} blocks {s.blocks}"
    if aic > cores[0]:
        return f"{where} needs {aic} aic of the device's {cores[0]}"
    if aiv > cores[1]:
        return f"{where} needs {aiv} aiv of the device's {cores[1]}"
    if aic < d.max_aic or aiv < d.max_aiv:
        return f"{where} gives {aic} aic and {aiv} aiv, members need {d.max_aic} and {d.max_aiv}"
    if exact:
        for kind, values, have in (("aic", d.exact_aic, aic), ("aiv", d.exact_aiv, aiv)):
            for value in sorted(values):
                if value != have:
                    return f"exact {kind} {value}, {where} gives {have}"
    return None


def _conflict(d: Demand) -> str | None:
    for kind, values in (("aic", d.exact_aic), ("aiv", d.exact_aiv)):
        if len(values) > 1:
            return f"exact {kind} {' and '.join(map(str, sorted(values)))} conflict"
    return None


def launch_shape(d: Demand, options: SkOptions, cores: tuple[int, int]) -> SkShape | ShapeMismatch:
    """The shape of a SuperKernel with demand `d` on a device of `cores` (cube, vector),
    or why there is none (see the module docstring). Bad debug-aic/aiv-num values raise."""
    if not d.max_aic and not d.max_aiv:
        raise ValueError("a SuperKernel needs at least one member")
    exact = not options.feed_sync_all
    if exact and (conflict := _conflict(d)) is not None:
        return ShapeMismatch(conflict)
    forced = _forced_shape(d, options, cores)
    candidates = [forced] if forced is not None else _candidates(d)
    reasons = []
    for s in candidates:
        why = _why_not(s, d, cores, exact)
        if why is None:
            return s
        reasons.append(why)
    if forced is not None:
        reasons[0] += " (debug-aic-num / debug-aiv-num)"
    return ShapeMismatch("; ".join(reasons))


def _forced_shape(d: Demand, options: SkOptions, cores: tuple[int, int]) -> SkShape | None:
    """The shape `debug-aic-num` / `debug-aiv-num` name, checked as the vendor does: aic only ->
    `mix_aic_1_0`, aiv only -> `mix_aiv_1_0`, equal -> `mix_aic_1_1`, aiv = 2 x aic ->
    `mix_aic_1_2`; another ratio, more than the device has, or fewer than a member needs is an
    error naming the option that is short."""
    aic, aiv = options.debug_aic_num, options.debug_aiv_num
    if not aic and not aiv:
        return None
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
    for key, given, need, kind, other in (
        ("debug-aic-num", aic, d.max_aic, "cube", "debug-aiv-num"),
        ("debug-aiv-num", aiv, d.max_aiv, "vector", "debug-aic-num"),
    ):
        if need > given:
            if given:
                raise SkirError(f"option '{key}': {given} is fewer than the {need} {kind} cores a member needs")
            raise SkirError(
                f"option '{other}' alone makes a SuperKernel without {kind} cores, but a member needs {need}; "
                f"give '{key}' too"
            )
    return SkShape(kernel_type, aic or aiv, d.max_aic, d.max_aiv)

