"""Whether a compile's `predicted_slower` warning needs the three-mode simulation at all.

The warning names each SuperKernel formed with `select=all` that the simulator predicts slower
than its members in the fair baseline (docs/design.md §7). Simulating aclgraph, aclgraph_es and
superkernel over the whole model costs about a third of a compile; `cannot_be_slower` first
tries to prove, without the simulation, that no such SuperKernel is predicted slower:

- where one stream alone holds the kernel and SuperKernel launches, in both models, and no
  model has sub-models, no task ever waits for cores in any mode (a task starts after its
  stream predecessor ended, and nothing else holds cores);
- then a member's time from ready to end is, in each baseline, its dispatch gap (less what
  early start hides), instruction-cache miss and duration, so its members' span is at least
  their sum (they run one after another on that stream);
- and a SuperKernel's time is its dispatch gap, its entry and its programs' run, which is the
  same alone as in the model (`SuperKernelRun` from time 0); a program that waits for a cell
  set outside it leaves the question open.

Each sum is compared with a margin for rounding. When any SuperKernel is left undecided the
caller simulates, so the warnings are those the simulation gives.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

from skir.dialects.aclgraph import LaunchOp, LaunchSkOp, ModelOp, StreamOp
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import core_demand
from skir.dialects.hardware import CoreType
from skir.dialects.model_lookup import submodels, the_model
from skir.dialects.superkernel import SuperKernelOp
from skir.dialects.superkernel_sync import ICACHE_UNITS
from skir.sim.costs import Costs
from skir.sim.engine import comm_durations, durations_of
from skir.sim.sk_run import SuperKernelRun
from skir.sim.stamp import ZERO

MARGIN = 1e-6
"""Margin for the rounding of the simulation's sums, relative to a bound on the makespan."""


def _core_stream(model: ModelOp) -> StreamOp | bool | None:
    """The one stream holding kernel or SuperKernel launches (None: no stream does), or False
    when several do."""
    found: StreamOp | None = None
    for stream in model.body.block.ops:
        if isinstance(stream, StreamOp) and any(isinstance(t, LaunchOp | LaunchSkOp) for t in stream.body.block.ops):
            if found is not None:
                return False
            found = stream
    return found


def cannot_be_slower(original: ModuleOp, rewritten: ModuleOp, names: set[str], costs: Costs,
                     measured: dict[tuple[str, int], float] | None = None) -> bool:
    """True when none of the SuperKernels `names` of `rewritten` can be predicted slower than its
    members (the module docstring); False when the simulation must decide."""
    before, after = the_model(original), the_model(rewritten)
    if submodels(before) or submodels(after):
        return False
    stream = _core_stream(before)
    if stream is False or _core_stream(after) is False or not isinstance(stream, StreamOp):
        return False
    durations = {**durations_of(before), **comm_durations(before, costs)}
    if measured:
        durations.update(measured)
    name = stream.sym_name.data

    def duration(stream_name: str, seq: int) -> float:
        return durations.get((stream_name, seq), costs.default_duration_us)

    kernels = {op.sym_name.data: op for op in before.body.block.ops if isinstance(op, KernelOp)}
    cores = (before.aic_cores.data, before.aiv_cores.data)
    plain: dict[int, float] = {}
    early: dict[int, float] = {}
    previous: object = None
    total = 0.0
    for task in stream.body.block.ops:
        if isinstance(task, LaunchOp):
            kernel = kernels[task.kernel.root_reference.data]
            aic, _ = core_demand(kernel.type, task.blocks.data)
            code = None if kernel.code_bytes is None else kernel.code_bytes.data
            cap = ICACHE_UNITS[CoreType.AIC if min(aic, cores[0]) else CoreType.AIV] * 2048
            miss, d = costs.icache_miss(code, cap), duration(name, task.seq.data)
            plain[task.seq.data] = costs.dispatch_gap_us + miss + d
            early[task.seq.data] = plain[task.seq.data]
            if isinstance(previous, LaunchOp):  # aclgraph_es: as `Engine._early_start` and `_take`
                hide = min(costs.early_start_overlap_us, duration(name, previous.seq.data) / 2)
                early[task.seq.data] = (max(0.0, costs.dispatch_gap_us - hide) + costs.early_start_us
                                        + max(0.0, miss - max(0.0, hide - costs.dispatch_gap_us)) + d)
            total += plain[task.seq.data]
        else:
            total += costs.event_us + costs.value_task_us + costs.opaque_us  # the scale of the margin
        previous = task
    sk_kernels = {op.sym_name.data: op for op in after.body.block.ops if isinstance(op, KernelOp)}
    for sk in after.body.block.ops:
        if not isinstance(sk, SuperKernelOp) or sk.sym_name.data not in names:
            continue
        members = [(s.stream.root_reference.data, s.seq.data) for s in sk.subtasks()]
        if any(stream_name != name or seq not in plain for stream_name, seq in members):
            return False
        lower = min(sum(plain[seq] for _, seq in members), sum(early[seq] for _, seq in members))
        run = SuperKernelRun(sk, sk_kernels, duration, costs, ZERO, lambda cell: None)
        run.advance()
        if run.finished is None:  # it waits for a cell set outside it
            return False
        upper = costs.dispatch_gap_us + costs.sk_entry_us + run.finished[0]
        if upper > lower - MARGIN * (1.0 + total):
            return False
    return True


__all__ = ["cannot_be_slower"]
