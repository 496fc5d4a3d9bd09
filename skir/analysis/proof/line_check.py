"""The line check beside `sk-check`: no two cores write different words of one 64-byte line
without an order between them (docs/design.md §6 "The line check").

A core's `dcci` cleans a whole 64-byte line: when two cores write different words of one line
in parallel, the later clean writes back the other's word as it stood before (docs/design.md
§5 "Memory layout"). The check derives from the IR every GM word skir's code writes and who
writes it:

- a cell: each `sk.notify` / `sk.reset_lock` writes it from block 0 of its core type
  (`NotifyFunc` / `ResetFunc` run on the first block only); each stream `aclgraph.value_write`
  from that stream's engine;
- the feed-sync-all workspace (`ascendc.feed_workspace`): `ascendc.zero_workspace` gives each
  core of its type 512-byte steps in turn; `ascendc.feed_begin ... offset o` makes the cores of
  its type write the 64-byte config word at `o`;
- the profiling area (`ascendc.profiling_helpers per_core p aic_offset a`): the area of core
  `i` (an AIV's block index, an AIC's `a` + its block index) is `p` bytes at `64 + i * p`;
- the progress area (`ascendc.progress_helpers aiv_lines n`, `debug-progress=1`): core `i` (an
  AIV's logical block index, an AIC's `n` + its block index) stores its word at `64 * i`.

It places the words by a layout (default: the plan's rule, every cell and workspace from a
line of its own; a test may pass another, e.g. cells 8 bytes apart) and reports every line
that holds words of two different writers, one line each:

```
line: 0x0 holds c0 (+0, by stream s1), c1 (+0, by m_sk0 aiv0): different cores write one 64-byte
line without an order; give each its own line
```

What it assumes (conservative): writes of two different writers are unordered — only one
core's own program order orders its writes, and one writer's words never conflict with each
other. One word written by several writers (a lock word: notify, then reset) is the lock
protocol's, proved by `sk-check`, not a line conflict. The zeroing of the feed workspace is
compared only with itself: `sk-to-ascendc` puts a whole-SuperKernel barrier after it, which
orders it before every later write.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp

from skir.dialects.aclgraph import ModelOp, StreamOp, ValueWriteOp
from skir.dialects.ascendc import SourceOp, enclosing_core
from skir.dialects.ascendc_feed import FeedBeginOp, FeedWorkspaceOp, ZeroWorkspaceOp
from skir.dialects.ascendc_profiling import ProfilingHelpersOp, ProfilingInitOp
from skir.dialects.ascendc_progress import ProgressHelpersOp, ProgressOp
from skir.dialects.hardware import GM_LINE_BYTES, CoreType, line_bytes
from skir.dialects.superkernel import NotifyOp, ResetLockOp, SuperKernelOp

ZERO_STEP = 512
"""Bytes `ascendc.zero_workspace` clears a step (one core's share, taken in turn)."""

Layout = Mapping[str, int]
"""Byte address of each region: a cell by its name, a workspace as `<superkernel>:<slot>`."""


@dataclass(frozen=True)
class Word:
    """Bytes `offset .. offset + size` of a region, written by `writer` in `phase`."""

    region: str
    offset: int
    size: int
    writer: str
    phase: str = "run"


def cell_words(model: ModelOp) -> Iterator[Word]:
    """The cell words the model's streams and SuperKernels write."""
    for op in model.body.block.ops:
        if isinstance(op, StreamOp):
            for task in op.body.block.ops:
                if isinstance(task, ValueWriteOp):
                    yield Word(task.cell.root_reference.data, 0, 8, f"stream {op.sym_name.data}")
        elif isinstance(op, SuperKernelOp):
            for lock in op.program():
                if isinstance(lock, NotifyOp | ResetLockOp):
                    yield Word(lock.cell.root_reference.data, 0, 8, f"{op.sym_name.data} {lock.core.data.value}0")


def workspace_words(source: SourceOp, sk: SuperKernelOp) -> Iterator[Word]:
    """The workspace words an entry writes, from the offsets and strides of its IR."""
    name = sk.sym_name.data
    cores = sk.cores()
    feed_slot = prof_slot = progress = None
    per_core = aic_offset = aiv_lines = 0
    zero: list[tuple[int, CoreType]] = []
    feeds: list[tuple[int, CoreType]] = []
    for op in source.walk():
        if isinstance(op, FeedWorkspaceOp):
            feed_slot = op.slot.value.data
        elif isinstance(op, ZeroWorkspaceOp):
            zero.append((op.bytes.value.data, enclosing_core(op) or CoreType.AIV))
        elif isinstance(op, FeedBeginOp):
            feeds.append((op.offset.value.data, enclosing_core(op) or CoreType.AIV))
        elif isinstance(op, ProfilingHelpersOp):
            per_core, aic_offset = op.per_core.value.data, op.aic_offset.value.data
        elif isinstance(op, ProfilingInitOp):
            prof_slot = op.slot.value.data
        elif isinstance(op, ProgressHelpersOp):
            aiv_lines = op.aiv_lines.value.data
        elif isinstance(op, ProgressOp):
            progress = op.slot.value.data
    if progress is not None:  # each core stores its progress word at the start of its own line
        key = f"{name}:{progress}"
        for core, first in ((CoreType.AIV, 0), (CoreType.AIC, aiv_lines)):
            for block in range(cores[core]):
                yield Word(key, GM_LINE_BYTES * (first + block), 8, f"{name} {core.value}{block}")
    if feed_slot is not None:
        key = f"{name}:{feed_slot}"
        for size, core in zero:
            count = max(1, cores[core])
            for step, offset in enumerate(range(0, size, ZERO_STEP)):
                yield Word(key, offset, min(ZERO_STEP, size - offset), f"{name} {core.value}{step % count}", "zero")
        for offset, core in feeds:
            yield Word(key, offset, GM_LINE_BYTES, f"{name} {core.value} cores")
    if prof_slot is not None and per_core:
        key = f"{name}:{prof_slot}"
        for core, first in ((CoreType.AIV, 0), (CoreType.AIC, aic_offset)):
            for block in range(cores[core]):
                yield Word(key, 64 + (first + block) * per_core, per_core, f"{name} {core.value}{block}")


def model_words(model: ModelOp) -> list[Word]:
    """Every GM word skir's code writes for the model: its cells and, once `sk-to-ascendc` has
    run, its entries' workspaces."""
    words = list(cell_words(model))
    module = model.parent_op()
    while module is not None and not isinstance(module, ModuleOp):
        module = module.parent_op()
    if module is not None:
        sources = {op.sym_name.data: op for op in module.ops if isinstance(op, SourceOp)}
        for sk in model.body.block.ops:
            if isinstance(sk, SuperKernelOp) and sk.sym_name.data in sources:
                words += workspace_words(sources[sk.sym_name.data], sk)
    return words


def plan_layout(words: list[Word]) -> dict[str, int]:
    """The plan's rule: each region from a line of its own, as many lines as its words need."""
    ends: dict[str, int] = {}
    for word in words:
        ends[word.region] = max(ends.get(word.region, 0), word.offset + word.size)
    layout: dict[str, int] = {}
    address = 0
    for region, end in ends.items():
        layout[region] = address
        address += line_bytes(end)
    return layout


def line_violations(words: list[Word], layout: Layout | None = None) -> list[str]:
    """One line per 64-byte line that holds different words of two writers in one phase."""
    where = plan_layout(words) if layout is None else layout
    lines: dict[tuple[str, int], dict[tuple[str, int], set[str]]] = {}
    for word in words:
        if word.region not in where:
            continue
        start = where[word.region] + word.offset
        for line in range(start // GM_LINE_BYTES, (start + word.size - 1) // GM_LINE_BYTES + 1):
            lo = max(start, line * GM_LINE_BYTES) - where[word.region]
            held = lines.setdefault((word.phase, line), {})
            held.setdefault((word.region, lo), set()).add(word.writer)
    out = []
    for (_, line), held in lines.items():
        writers = {w for ws in held.values() for w in ws}
        if len(held) < 2 or len(writers) < 2:
            continue
        parts = [f"{region} (+{offset}, by {', '.join(sorted(ws))})" for (region, offset), ws in sorted(held.items())]
        out.append(f"line: {line * GM_LINE_BYTES:#x} holds {', '.join(parts)}: different cores write one "
                   f"{GM_LINE_BYTES}-byte line without an order; give each its own line")
    return out


def check_lines(model: ModelOp, layout: Layout | None = None) -> list[str]:
    """The line check of one model (see the module docstring)."""
    return line_violations(model_words(model), layout)
