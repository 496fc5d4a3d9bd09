"""The vendor comparison's printers: `OUT/vendor_compare.json` and the table `sk-compile
--vendor` prints after the summary, from the document `skir.vendor_comparison` builds.
"""

from __future__ import annotations

from typing import Any

from skir.names import shown
from skir.targets.json_text import dumps_indented

_MAX_LISTED = 10


def dump_compare(doc: dict[str, Any]) -> str:
    return dumps_indented(doc) + "\n"


def _text(name: str | None) -> str:
    """A name from the vendor's files, safe on one terminal line."""
    if name is None:
        return "-"
    return name if name.isprintable() else shown(name)


def render_compare(doc: dict[str, Any]) -> str:
    """The side-by-side table `sk-compile --vendor` prints after the summary."""
    sks, span, summary = doc["superkernels"], doc["makespan_us"], doc["summary"]
    fused = {who: sum(len(sk["members"]) for sk in sks[who]) for who in ("vendor", "skir")}

    def ms(value: float | None) -> str:
        return f"{value:.1f}" if value is not None else "n/a"

    lines = [f"vendor comparison ({_text(doc['vendor_result'])}, membership: {doc['membership']}):",
             f"  {'':8}{'SuperKernels':>13}{'fused tasks':>13}{'launches saved':>16}{'makespan us':>13}",
             f"  {'original':8}{'':>13}{'':>13}{'':>16}{ms(span['original']):>13}"]
    for who in ("vendor", "skir"):
        lines.append(f"  {who:8}{len(sks[who]):>13}{fused[who]:>13}{doc['launches_saved'][who]:>16}"
                     f"{ms(span[who]):>13}")
    lines.append(f"  same {summary['same']}, only vendor {summary['only_vendor']}, only skir {summary['only_skir']}; "
                 f"kernel tasks agree {summary['tasks_agree']}, differ {summary['tasks_differ']}")
    if span["vendor_note"]:
        lines.append(f"  vendor makespan: {span['vendor_note']}")
    found = doc.get("vendor_warnings", [])
    lines.extend(f"  {_text(w)}" for w in found[:_MAX_LISTED])
    if len(found) > _MAX_LISTED:
        lines.append(f"  ... {len(found) - _MAX_LISTED} more warnings in vendor_compare.json")
    differ = [t for t in doc["tasks"] if not t["agree"]]
    for t in differ[:_MAX_LISTED]:
        why = f" (skir: {t['skir_reason']})" if t["skir_reason"] else ""
        vwhy = f" (vendor: {t['vendor_reason']})" if t["vendor_reason"] else ""
        lines.append(f"  @{t['stream']} seq {t['seq']} @{t['kernel']}: vendor {_text(t['vendor'])}{vwhy}, "
                     f"skir {_text(t['skir'])}{why}")
    if len(differ) > _MAX_LISTED:
        lines.append(f"  ... {len(differ) - _MAX_LISTED} more in vendor_compare.json")
    return "\n".join(lines) + "\n"
