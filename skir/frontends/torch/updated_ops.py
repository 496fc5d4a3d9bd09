"""NPU attention captured with per-step sequence lengths -> an updated kernel (docs/design.md §3
"Updated kernels").

A decode step's fused attention takes the current sequence lengths (`actual_seq_lengths`,
`actual_seq_lengths_kv`); its tiling depends on them, so a serving runtime captures it in a task
group and re-issues its parameters before every replay (torch_npu: `ExternalEvent.wait` and
`reset`, `graph_task_group_begin`, the op, `graph_task_group_end`; before a replay
`graph_task_update_begin` / `_end` and the event's record). The capture then holds, on the op's
stream:

```
event_wait @update1 external      (the group's external wait)
event_reset @update1
kernel npu_fused_infer_attention_score ... task_group 1 update args
```

The update changes the arguments only: the launch shape stays. Without per-step lengths the
op is a plain kernel.
"""

from __future__ import annotations

from typing import Any

from torch import fx

UPDATED_OPS: dict[str, tuple[str, ...]] = {
    "npu::npu_fused_infer_attention_score": ("actual_seq_lengths", "actual_seq_lengths_kv"),
    "npu::npu_incre_flash_attention": ("actual_seq_lengths",),
    "npu::npu_prompt_flash_attention": ("actual_seq_lengths", "actual_seq_lengths_kv"),
}
"""Qualified op -> the arguments that carry per-step sequence lengths."""


def per_step_lengths(node: fx.Node, qualified: str | None) -> bool:
    """Whether `node` is an attention op of `UPDATED_OPS` given per-step sequence lengths."""
    keys = UPDATED_OPS.get(qualified or "")
    return keys is not None and any(node.kwargs.get(key) is not None for key in keys)


def group_prefix(task: dict[str, Any], group: int) -> tuple[str, list[dict[str, Any]]]:
    """Make `task` a member of task group `group` whose update changes its arguments; returns
    the group's external event and the tasks the capture puts right before it."""
    event = f"update{group}"
    task["task_group"] = group
    task["update"] = "args"
    return event, [{"type": "event_wait", "event": event, "external": True}, {"type": "event_reset", "event": event}]
