"""The vendor's `origin_op_name` of a SuperKernel, written into the descriptor and SK meta.

`sk_<scope>_start_<first>_end_<last>` (docs/design.md §5): `scope` is the names of the named
scopes open around the SuperKernel's first member (its `sk.label`), joined by `_` in sorted
order, or, when it is in no named scope, the SuperKernel's own name; `first` / `last` are the
kernel names of its first and last sub-task in program order. Every part is a C identifier
(docs/design.md §1 "Names"), so the whole is one too.

```mlir
sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 7 attributes {sk.label = ["layer0"]} {
  %0 = sk.subtask @norm ...
  %1 = sk.subtask @mm ...
}
```
has the origin name `sk_layer0_start_norm_end_mm` (`sk_m_sk0_start_norm_end_mm` without the label).
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, StringAttr

from skir.dialects.formation_attrs import LABEL_ATTR
from skir.dialects.superkernel import SuperKernelOp
from skir.errors import SkirError, task_path


def scope_part(sk: SuperKernelOp) -> str:
    """The `<scope>` of the origin name: the label's scope names joined by `_`, or the SuperKernel's name."""
    attr = sk.attributes.get(LABEL_ATTR)
    if attr is None:
        return sk.sym_name.data
    if not isinstance(attr, ArrayAttr) or not all(isinstance(a, StringAttr) for a in attr):
        raise SkirError(f"{task_path(sk)}: {LABEL_ATTR} must be an array of strings")
    names = [a.data for a in attr if isinstance(a, StringAttr)]
    return "_".join(sorted(names)) if names else sk.sym_name.data


def origin_op_name(sk: SuperKernelOp) -> str:
    """`sk_<scope>_start_<first>_end_<last>` of a SuperKernel with at least one sub-task."""
    subtasks = list(sk.subtasks())
    if not subtasks:
        raise SkirError(f"{task_path(sk)}: a SuperKernel without sub-tasks has no origin name")
    first, last = subtasks[0].kernel.root_reference.data, subtasks[-1].kernel.root_reference.data
    return f"sk_{scope_part(sk)}_start_{first}_end_{last}"
