"""The vendor's result: its SuperKernels, read from the updated dump and its logs.

`sk_graph_updated.json` is re-read from the model after `aclmdlRIUpdate` (docs/design.md §11
"The vendor's result"): a slot that launches a vendor SuperKernel carries `skinfos` (its
kernel is the SuperKernel, named `sk_<scopeId>_<scope>_start_<first>_end_<last>`), every
disabled slot is gone, and a kernel slot the rewrite turned into sync is a VALUE task with the
same seq. `sk_fused_nodes.log`, when present, lists each SuperKernel's members exactly, by node
identity in the original graph (`skir.frontends.vendor.fused_log`); a log block belongs to the
SuperKernel whose slot is one of its members, else to the one with its scope id. Without the log
each removed or converted kernel task is given to the latest SuperKernel slot before it (said as
`membership: inferred`). `sk_fusion_fail_reasons.log` gives the vendor's reasons. What of the log
matches nothing is a located warning (`VendorResult.warnings`).

```python
result = read_result("sk_meta/4711/model_48_1", original_module)
result.superkernels[0].members     # [("s0", 3), ("s0", 4), ("s1", 6)]
```
"""

from __future__ import annotations

import os
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xdsl.dialects.builtin import ModuleOp

from skir.dialects.aclgraph import LaunchOp, ModelOp, StreamOp
from skir.dialects.vendor_provenance import vendor_info
from skir.errors import SkirError
from skir.frontends.vendor.fail_log import read_fail_log
from skir.frontends.vendor.fused_log import LogBlock, TaskIdentity, VendorLogWarning, read_fused_log
from skir.frontends.vendor.graph_dump import GraphDump, layout_of, read_graph
from skir.json_reader import JsonReader, parse_json
from skir.names import shown
from skir.source_text import read_model

UPDATED_FILES = ("sk_graph_updated.json", "sk_raw_tasks_after.json")
FUSED_LOG = "sk_fused_nodes.log"
FAIL_LOG = "sk_fusion_fail_reasons.log"
_SK_NAME = re.compile(r"sk_(\d+)_.*_start_.*_end_")


@dataclass
class VendorSuperKernel:
    name: str
    host: tuple[str, int]
    """(stream, seq) of the slot that launches it."""
    members: list[tuple[str, int]] = field(default_factory=list)
    scope_id: int | None = None
    """The vendor's scope id (`skinfos.scopeId`, or the `sk_<id>_` of a legacy name)."""


@dataclass
class VendorResult:
    source: str
    superkernels: list[VendorSuperKernel]
    membership: str  # "log" or "inferred"
    reasons: dict[tuple[str, int], str]
    """(stream, seq) of a kernel task -> the vendor's fail reason, from its log."""
    removed: list[tuple[str, int]]
    converted: list[tuple[str, int]]
    """Kernel slots the vendor turned into value tasks."""
    warnings: list[str] = field(default_factory=list)
    """`<log>:<line>: warning: ...` for what of the logs matches nothing of the model."""


def read_result(path: str | os.PathLike[str], original: ModuleOp) -> VendorResult:
    """The vendor's result for the model `original` (the module before skir's rewrite)."""
    folder = Path(path)
    logs: dict[str, tuple[str, str]] = {}
    if folder.is_dir():
        updated = next((folder / name for name in UPDATED_FILES if (folder / name).is_file()), None)
        if updated is None:
            raise SkirError(f"{os.fspath(path)}: no {' / '.join(UPDATED_FILES)} in this folder; --vendor takes the "
                            "vendor's updated dump or its sk_meta/<pid>/model_<id>_<n> folder")
        for name in (FUSED_LOG, FAIL_LOG):
            if (folder / name).is_file():
                logs[name] = read_model(folder / name, "log")
        source, text = read_model(updated)
    else:
        source, text = read_model(path)
    data = parse_json(text, source)
    if layout_of(data) not in ("graph", "raw"):
        raise SkirError(f"{source}: not the vendor's updated SK graph dump (sk_graph_updated.json)")
    dump = read_graph(data, source)
    info = vendor_info(_model(original))
    expected = (info or {}).get("model_id")
    if expected is not None and dump.model_id is not None and dump.model_id != expected:
        JsonReader(source).fail("modelId", f"{shown(dump.model_id)} is not the model's {shown(expected)}; give the "
                                "updated dump of the same model")
    return _result(dump, source, original, logs)


def _result(dump: GraphDump, source: str, original: ModuleOp, logs: dict[str, tuple[str, str]]) -> VendorResult:
    model = _model(original)
    tasks = TaskIdentity.of(model)
    kernels: set[tuple[str, int]] = {(stream.sym_name.data, op.seq.data) for stream in model.body.block.ops
               if isinstance(stream, StreamOp) for op in stream.body.block.ops if isinstance(op, LaunchOp)}
    by_seq = {seq: stream for stream, seq in kernels}
    reader = JsonReader(source)
    survived: dict[tuple[str, int], str] = {}
    sks: list[VendorSuperKernel] = []
    for si, nodes in enumerate(dump.streams):
        stream_name = tasks.streams[si] if si < len(tasks.streams) else f"s{si}"
        for node in nodes:
            key = (stream_name, node.seq)
            if node.seq is not None and key not in kernels and node.seq in by_seq and by_seq[node.seq] != key[0]:
                reader.fail(f"{node.path}.nodeId", f"seq {node.seq} is on stream {key[0]} here but on "
                            f"{by_seq[node.seq]} in the model; give the updated dump of the same model")
            survived[key] = node.task_type  # type: ignore[index]
            func = node.kernel.func if node.kernel is not None else ""
            if node.skinfo is not None or (dump.layout == "raw" and _SK_NAME.match(func)):
                if key not in kernels:
                    reader.fail(node.path, f"a SuperKernel slot at seq {node.seq}, which is not a kernel task of the "
                                "model; give the updated dump of the same model")
                sks.append(_superkernel(node.skinfo, func, key))
    removed = sorted(k for k in kernels if k not in survived)
    converted = sorted(k for k in kernels if survived.get(k) in ("VALUE_WRITE", "VALUE_WAIT"))
    membership = "inferred"
    notes: list[str] = []
    if FUSED_LOG in logs and sks:
        membership = "log"
        blocks, notes = read_fused_log(logs[FUSED_LOG][1], FUSED_LOG, tasks)
        notes += _members_from_log(sks, blocks, Path(source).name)
    else:
        hosts = sorted(sks, key=lambda sk: sk.host[1])
        for sk in hosts:
            sk.members.append(sk.host)
        for key in sorted({*removed, *converted}, key=lambda k: k[1]):
            owner = None
            for sk in hosts:
                if sk.host[1] <= key[1]:
                    owner = sk
            if owner is not None and key != owner.host:
                owner.members.append(key)
    reasons: dict[tuple[str, int], str] = {}
    if FAIL_LOG in logs:
        fail_log = read_fail_log(logs[FAIL_LOG][1], FAIL_LOG)
        notes += fail_log.warnings
        for entry in fail_log.unfusible:
            if entry.node_id in by_seq:
                reasons[(by_seq[entry.node_id], entry.node_id)] = entry.reason
            else:
                notes.append(f"{FAIL_LOG}:{entry.line}: warning: unfusible nodeId {entry.node_id} is no kernel task of "
                             "the model; left out of the comparison")
    for sk in sks:
        sk.members.sort(key=lambda m: m[1])
    for note in notes:  # also on stderr: `sk-compile: warning: sk_fused_nodes.log:12: ...`
        warnings.warn(note.replace(": warning: ", ": ", 1), VendorLogWarning, stacklevel=2)
    return VendorResult(source, sks, membership, reasons, removed, converted, notes)


def _superkernel(skinfo: dict[str, Any] | None, func: str, host: tuple[str, int]) -> VendorSuperKernel:
    """A vendor SuperKernel launched from slot `host`, named as the vendor names it
    (`sk_<scopeId>_<scopeName>_start_<first>_end_<last>`, from `skinfos`) where the dump says."""
    legacy = _SK_NAME.match(func)
    scope_id = int(legacy.group(1)) if legacy is not None else None
    name = func or f"sk_{host[1]}"
    if skinfo is not None:
        sid, scope = skinfo.get("scopeId"), skinfo.get("scopeName")
        first, last = skinfo.get("startKernelFuncName"), skinfo.get("endKernelFuncName")
        if type(sid) is int:
            scope_id = sid
            if isinstance(first, str) and isinstance(last, str) and (scope is None or isinstance(scope, str)):
                name = f"sk_{sid}_{scope or ''}_start_{first}_end_{last}"
    return VendorSuperKernel(name, host, scope_id=scope_id)


def _model(module: ModuleOp) -> ModelOp:
    found = [op for op in module.ops if isinstance(op, ModelOp)]
    if len(found) != 1:
        raise SkirError(f"--vendor: expected exactly one aclgraph.model in the model, found {len(found)}")
    return found[0]


def _members_from_log(sks: list[VendorSuperKernel], blocks: list[LogBlock], updated: str) -> list[str]:
    """Give each log block's members to its SuperKernel: the one whose slot is among the
    members (node identity), else the one with the block's scope id, else the one of its name.
    Returns the warnings for blocks that name none and SuperKernels no block names."""
    by_host = {sk.host: sk for sk in sks}
    by_scope = {sk.scope_id: sk for sk in sks if sk.scope_id is not None}
    by_name = {sk.name: sk for sk in sks}
    named: set[int] = set()
    notes = []
    for block in blocks:
        sk = next((by_host[m] for m in block.members if m in by_host), None)
        sk = sk or by_scope.get(block.scope_id) or by_name.get(block.name)
        if sk is None or id(sk) in named:
            why = "no SuperKernel slot of" if sk is None else "a SuperKernel an earlier block gave, in"
            notes.append(f"{FUSED_LOG}:{block.line}: warning: SK Function {shown(block.name)} (scope id "
                         f"{block.scope_id}) matches {why} {updated}; its {len(block.members)} member(s) left out")
            continue
        named.add(id(sk))
        sk.members.extend(block.members)
    for sk in sks:
        if id(sk) not in named:
            notes.append(f"{FUSED_LOG}: warning: no block for the SuperKernel of @{sk.host[0]} seq {sk.host[1]}: "
                         "taken as that slot's kernel alone")
        if not sk.members:  # the log named none of its kernels: its host slot at least
            sk.members.append(sk.host)
    return notes
