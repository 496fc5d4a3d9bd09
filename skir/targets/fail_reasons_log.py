"""`sk_fusion_fail_reasons.log`: SK meta (`skir.targets.sk_meta`) read out for people.

Why each kernel task stayed unfused, which SuperKernel each fused one went into, and the
summary, then the same for each sub-model (docs/design.md §5):

```
# SuperKernel fusion report of model @m (skir.sk_meta version 1)
# unfused kernel tasks: 1
@s0 seq 6 kernel ns: op_unsupported (OP_UNSUPPORT, not_sk_capable)
# fused nodes: 1 SuperKernel
m_sk0 <- @s0 seq 0, 1
# summary
kernel tasks 3, fused 2, unfused 1, pending 0, SuperKernels 1, launches saved 1
by reason: op_unsupported 1
```
"""

from __future__ import annotations

from typing import Any


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def render_fail_reasons(meta: dict[str, Any]) -> str:
    """`sk_fusion_fail_reasons.log`: why each kernel stayed unfused, what fused, and a summary."""
    summary = meta["summary"]
    lines = [f"# SuperKernel fusion report of model @{meta['model']} ({meta['format']} version {meta['version']})"]
    if meta["note"]:
        lines.append(f"# note: {meta['note']}")
    lines.append(f"# unfused kernel tasks: {len(meta['unfused'])}")
    for u in meta["unfused"]:
        vendor = u["vendor_reason"] + (f", {u['detail']}" if u["detail"] else "")
        lines.append(f"@{u['stream']} seq {u['seq']} kernel {u['kernel']}: {u['reason']} ({vendor})")
    lines.append(f"# fused nodes: {_plural(len(meta['superkernels']), 'SuperKernel')}")
    for sk in meta["superkernels"]:
        by_stream: dict[str, list[int]] = {}
        for m in sk["members"]:
            by_stream.setdefault(m["stream"], []).append(m["seq"])
        where = "; ".join(f"@{s} seq {', '.join(map(str, sorted(q)))}" for s, q in by_stream.items())
        lines.append(f"{sk['name']} <- {where}")
    lines.append("# summary")
    lines.append(
        f"kernel tasks {summary['kernel_tasks']}, fused {summary['fused']}, unfused {summary['unfused']}, "
        f"pending {summary['pending']}, SuperKernels {summary['superkernels']}, "
        f"launches saved {summary['launches_saved']}"
    )
    if summary["by_reason"]:
        lines.append("by reason: " + ", ".join(f"{r} {n}" for r, n in summary["by_reason"].items()))
    text = "\n".join(lines) + "\n"
    for sub in meta.get("submodels", []):  # each sub-model's own report, under its name
        cond = sub["cond"]
        text += f"# sub-model @{sub['name']}: branch {sub['branch']} of the {sub['kind']} condition at " \
                f"@{cond['stream']} seq {cond['seq']}\n"
        text += render_fail_reasons({**sub, "model": sub["name"], "format": meta["format"],
                                     "version": meta["version"]}).split("\n", 1)[1]
    return text
