"""The discardable attributes formation records on tasks (`sk-form-scopes`), read by
`sk-outline`, the summary and FileCheck tests.

```mlir
aclgraph.launch seq 0 @a blocks 48 attributes {sk.group = 0 : i64, sk.label = ["layer0"]}
aclgraph.launch seq 3 @c blocks 48 attributes {sk.cut = "default_node", sk.fail = "default_node"}
```
"""

GROUP_ATTR = "sk.group"
"""On a kernel task: the index of the SuperKernel formation put it in."""
FAIL_ATTR = "sk.fail"
"""On a kernel task left unfused: the reason (docs/design.md §3 fail reasons)."""
FAIL_DETAIL_ATTR = "sk.fail_detail"
"""On a kernel task left unfused: more detail on the reason, when there is some."""
LABEL_ATTR = "sk.label"
"""On a kernel task inside named scopes: the sorted scope names."""
CUT_ATTR = "sk.cut"
"""On the task that closed a SuperKernel: the reason of the cut."""
CUT_DETAIL_ATTR = "sk.cut_detail"
"""Beside `sk.cut`, when the reason has one: what made the cut (e.g. the launch-shape mismatch)."""
FORMATION_ATTRS = (CUT_ATTR, CUT_DETAIL_ATTR, FAIL_ATTR, FAIL_DETAIL_ATTR, GROUP_ATTR, LABEL_ATTR)
"""Every attribute formation records on a task."""
