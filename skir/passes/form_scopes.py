"""`sk-form-scopes`: decide which kernel tasks fuse into which SuperKernel, and why the rest do not.

Runs formation (`skir.analysis.formation.formation`, docs/design.md §3) and records the result as
attributes (`skir.patterns.formation_marks.MarkFormation`), so that each rule is visible to
FileCheck and to `sk-outline`:

- `sk.label = ["a", "b"]` on kernel tasks inside named scopes (their label);
- `sk.group = N` on every task in the range of SuperKernel N (its member kernels, the event
  tasks and spare slots between them, and the boundary events that joined it), numbered by
  the seq of the first member;
- `sk.fail = "<reason>"` (and `sk.fail_detail`) on every kernel task left unfused;
- `sk.cut = "<reason>"` on the task that closed a SuperKernel (`breaker` for a plain breaker),
  with `sk.cut_detail` when the reason has one (`syncall_block_mismatch`: the mismatch).

```mlir
aclgraph.launch seq 0 @a blocks 48
aclgraph.launch seq 1 @b blocks 48
aclgraph.opaque seq 2 memcpy
aclgraph.launch seq 3 @c blocks 48
```
becomes
```mlir
aclgraph.launch seq 0 @a blocks 48 attributes {sk.group = 0 : i64}
aclgraph.launch seq 1 @b blocks 48 attributes {sk.group = 0 : i64}
aclgraph.opaque seq 2 memcpy
aclgraph.launch seq 3 @c blocks 48 attributes {sk.cut = "default_node", sk.fail = "default_node"}
```
"""

from __future__ import annotations

import warnings
from collections import defaultdict
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp
from xdsl.ir import Attribute

from skir.analysis.formation.formation import Formation, form_superkernels
from skir.analysis.graph.happens_before import HappensBefore
from skir.analysis.graph.task_graph import TaskGraph
from skir.dialects.aclgraph import LaunchOp, ModelOp, ScopeBeginOp, StreamOp, TaskOp
from skir.dialects.syntax import string_attr
from skir.names import shown
from skir.options import SkOptions
from skir.passes.common import (
    CUT_ATTR,
    CUT_DETAIL_ATTR,
    FAIL_ATTR,
    FAIL_DETAIL_ATTR,
    GROUP_ATTR,
    LABEL_ATTR,
    OptionsPass,
    SkirWarning,
    i64,
    kernel_table,
    models,
)
from skir.patterns.formation_marks import MarkFormation
from skir.xdsl_fast.sweep import rewrite_ops


def _warn_unknown_kernels(model: ModelOp, options: SkOptions, graph: TaskGraph) -> None:
    """A dcci list naming no kernel of the model is a warning naming the names (they may be
    meant for another model compiled with the same options)."""
    kernels = kernel_table(model)
    known = set(kernels) | {k.sub_symbol for k in kernels.values()}
    texts = [options] + [options.override(op.options.data) for op in graph.ops
                         if isinstance(op, ScopeBeginOp) and op.options is not None]
    for key in ("dcci-before-kernel-start", "dcci-after-kernel-end", "dcci-disable-on-kernel"):
        # once per key: a scope's options repeat the model's lists they merge with
        unknown = dict.fromkeys(n for opts in texts for n in getattr(opts, key.replace("-", "_")) if n not in known)
        if unknown:
            warnings.warn(f"option '{key}' names no kernel of model @{model.sym_name.data}: "
                          f"{', '.join(shown(n) for n in unknown)}", SkirWarning, stacklevel=2)


def form_model(model: ModelOp, options: SkOptions) -> Formation:
    """Run formation on `model` and record it as attributes; returns the formation."""
    graph = TaskGraph(model)
    _warn_unknown_kernels(model, options, graph)
    hb = HappensBefore(graph)
    formation = form_superkernels(model, graph, hb, options, kernel_table(model))
    marks: dict[TaskOp, dict[str, Attribute]] = defaultdict(dict)
    for n, op in enumerate(graph.ops):
        label = formation.scopes.label[n]
        if isinstance(op, LaunchOp) and label:
            marks[op][LABEL_ATTR] = ArrayAttr(string_attr(name) for name in label)
    for index, sk in enumerate(formation.superkernels):
        for lo, hi in sk.ranges.values():
            for n in range(lo, hi + 1):
                marks[graph.ops[n]][GROUP_ATTR] = i64(index)
    for n, (reason, detail) in formation.fail.items():
        marks[graph.ops[n]][FAIL_ATTR] = string_attr(reason.value)
        if detail:
            marks[graph.ops[n]][FAIL_DETAIL_ATTR] = string_attr(detail)
    for cut in formation.cuts:
        marks[graph.ops[cut.trigger]][CUT_ATTR] = string_attr(cut.reason.value if cut.reason else "breaker")
        if cut.detail:
            marks[graph.ops[cut.trigger]][CUT_DETAIL_ATTR] = string_attr(cut.detail)
    tasks = [op for stream in model.body.block.ops if isinstance(stream, StreamOp) for op in stream.body.block.ops]
    rewrite_ops(tasks, [MarkFormation(marks)])
    return formation


@dataclass(frozen=True)
class FormScopesPass(OptionsPass):
    """Mark each kernel task with the SuperKernel it joins (`sk.group`) or why not (`sk.fail`)."""

    name = "sk-form-scopes"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        options = self.sk_options()
        for model in models(op):
            form_model(model, options)
