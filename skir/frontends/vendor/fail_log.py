"""Reading `sk_fusion_fail_reasons.log`: the vendor's unfusible kernels and its scopes before and
after fusion (docs/design.md §11 "The vendor's result").

The log has three sections, each opened by its header line:

```
unfusible kernel:
Node [nodeId:7, streamId:0, ...] - KernelInfos{...}: reason: OP_UNSUPPORT, reasonDetail: ...
original scopes before fusion:
  scopeId=0, scopeFlags=1, scopeNames=[layer0], totalNodes=9
    nodeIds: [0, 1, 2, 3, 4, 5, 6, 7, 8]
scopes after fusion:
  scopeId=0, scopeBitFlag=1
    fusedNodeIds=[0, 1, 2, 3, 4];
    scopeStatus=SUCCESS
    breakReason=[breakReason=UNFUSIBLE_NODE, triggerNode=7, triggerStream=0], breakReasonDetail=..., scopeName=[layer0]
```

The vendor's logger may put a time stamp and `[...] ` groups (pid, level, file, function) before
each message; they are skipped. Node-id lists may go on in `continued: ` lines, and a scope's
fields may stand on one line as `key: value` pairs (the form the published description gives).
A reason is `NAME` or `NAME [SUB]`. A line of none of these forms is a located warning
(`<log>:<line>: warning: ...`), never an error: the log is evidence for a comparison, not input.

```python
log = read_fail_log(text, "sk_fusion_fail_reasons.log")
log.unfusible[0].node_id, log.unfusible[0].reason, log.fused[0].node_ids
```
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_PREFIX = re.compile(r"(?:\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)? )?(?:\[[^\]\n]*\] )*")
_NODE = re.compile(r"Node \[nodeId:\s*(\d+)(?:,\s*streamId:\s*-?\d+)?(?:,\s*streamIdxInGraph:\s*(\d+))?"
                   r"(?:,\s*nodeIdxInStream:\s*(\d+))?\]")
_REASON = re.compile(r": reason: ([A-Z_]+)(?: \[([A-Z_]+)\])?(?:, reasonDetail: (.*))?\Z")
_SCOPE_ID = re.compile(r"\bscopeId[=:]\s*(\d+)")
_FLAGS = re.compile(r"\bscope(?:Flags|BitFlag)[=:]\s*([01]+)")
_NAMES = re.compile(r"\bscopeNames?[=:]\s*\[?([^\],]*)\]?")
_IDS = re.compile(r"\b(nodeIds|fusedNodeIds)[=:]\s*\[([^\]]*)")
_CONTINUED = re.compile(r"\s*continued:\s*([\d,\s]*)\]?;?\s*\Z")
_STATUS = re.compile(r"\bscopeStatus[=:]\s*([A-Z_]+)")
_BREAK = re.compile(r"\bbreakReason=\[(?:breakReason=)?([A-Z_]*)(?:,\s*triggerNode=(\d+))?")
SECTIONS = {"unfusible kernel:": "unfusible", "original scopes before fusion:": "original",
            "scopes after fusion:": "fused"}


@dataclass
class FailEntry:
    """One line of "unfusible kernel:"."""

    line: int
    node_id: int
    stream_index: int | None
    index_in_stream: int | None
    reason: str
    sub: str | None = None
    detail: str = ""


@dataclass
class LogScope:
    """One scope of "original scopes before fusion:" or "scopes after fusion:"."""

    line: int
    scope_id: int
    flags: str = ""
    names: str = ""
    node_ids: list[int] = field(default_factory=list)
    status: str | None = None
    break_reason: str | None = None
    trigger: int | None = None


@dataclass
class FailLog:
    unfusible: list[FailEntry] = field(default_factory=list)
    original: list[LogScope] = field(default_factory=list)
    fused: list[LogScope] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _ids(text: str) -> list[int]:
    return [int(part) for part in text.replace(",", " ").split()]


def read_fail_log(text: str, log: str) -> FailLog:
    """The log's sections (see the module docstring), with a located warning per line not read."""
    out = FailLog()
    section: str | None = None
    scope: LogScope | None = None
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw[_PREFIX.match(raw).end():].rstrip()  # type: ignore[union-attr]
        body = line.strip()
        if not body:
            continue
        header = next((name for key, name in SECTIONS.items() if body.startswith(key)), None)
        if header is not None:
            section, scope = header, None
            continue
        where = f"{log}:{lineno}: warning: "
        if section == "unfusible":
            node, reason = _NODE.search(body), _REASON.search(body)
            if node is None or reason is None:
                out.warnings.append(f"{where}not a 'Node [...]: reason: ...' line: left out")
                continue
            stream, index = (int(g) if g is not None else None for g in node.group(2, 3))
            out.unfusible.append(FailEntry(lineno, int(node.group(1)), stream, index, reason.group(1),
                                           reason.group(2), reason.group(3) or ""))
            continue
        if section is None:
            out.warnings.append(f"{where}before any section header: left out")
            continue
        scope_id = _SCOPE_ID.search(body)
        if scope_id is not None:
            scope = LogScope(lineno, int(scope_id.group(1)))
            (out.original if section == "original" else out.fused).append(scope)
        if scope is None:
            out.warnings.append(f"{where}not within a scope: left out")
            continue
        if not _read_fields(body, scope):
            out.warnings.append(f"{where}not a line of a scope: left out")
    return out


def _read_fields(body: str, scope: LogScope) -> bool:
    """Fill `scope` from one of its lines; False when the line says nothing of a scope."""
    found = False
    if (m := _FLAGS.search(body)) is not None:
        scope.flags, found = m.group(1), True
    if (m := _NAMES.search(body)) is not None:
        scope.names, found = m.group(1).strip(), True
    if (m := _IDS.search(body)) is not None:
        scope.node_ids += _ids(m.group(2))
        found = True
    elif (m := _CONTINUED.match(body)) is not None:
        scope.node_ids += _ids(m.group(1))
        found = True
    if (m := _STATUS.search(body)) is not None:
        scope.status, found = m.group(1), True
    if (m := _BREAK.search(body)) is not None:
        scope.break_reason = m.group(1) or None
        scope.trigger = int(m.group(2)) if m.group(2) else None
        found = True
    return found or _SCOPE_ID.search(body) is not None or body.startswith("totalNodes")
