"""The vendor's dump files as input models (docs/design.md §11).

With `ASCEND_OP_COMPILE_SAVE_KERNEL_META` set, the vendor's AOT SuperKernel writes per model a
folder `sk_meta/<pid>/model_<id>_<n>/`. skir reads from it:

- `sk_graph_origin.json` (the SK graph: the primary source), or the legacy
  `sk_raw_tasks_before.json` / `sk_graph_before.json`;
- `sk_mdl_origin.json` (the runtime trace), when present: the real kind of every DEFAULT
  task and the sched mode of kernels.

```python
from skir.frontends import vendor
module, info = vendor.load("sk_meta/4711/model_48_1", cores=(24, 48))
info.notes        # what the dumps did not say, once each
info.options      # the dump's options as a skir option string
```

Any one of the files can be given alone; the kind is read from the content. The module's
model carries `skir.vendor` (provenance and notes) and each kernel `skir.vendor_name` (the
dump's `funcName`), which the summary and SK meta show (`skir.dialects.vendor_provenance`).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from xdsl.dialects.builtin import ArrayAttr, BoolAttr, DictionaryAttr, IntegerAttr, ModuleOp, StringAttr, UnitAttr

from skir.dialects.aclgraph import ModelOp
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.options_attr import SkOptionsAttr
from skir.dialects.vendor_provenance import ARGS_UNKNOWN_ATTR, NAME_ATTR, NO_BIND_MAP_ATTR, VENDOR_ATTR
from skir.errors import SkirError
from skir.frontends.vendor.graph_dump import GraphDump, layout_of, read_graph
from skir.frontends.vendor.runtime_trace import RuntimeTrace, is_trace, parse_trace_text, read_trace
from skir.frontends.vendor.to_capture import DEFAULT_CORES, VendorInfo, to_capture
from skir.gc_pause import paused_gc
from skir.json_reader import parse_json
from skir.options import options_at
from skir.readers import ModelReader
from skir.source_text import read_model

__all__ = ["DEFAULT_CORES", "READER", "VendorInfo", "from_data", "from_text", "is_vendor_json", "load",
           "parse_dump_text"]

ORIGIN_FILES = ("sk_graph_origin.json", "sk_raw_tasks_before.json", "sk_graph_before.json")
TRACE_FILE = "sk_mdl_origin.json"
_CAPTURE_PATH = re.compile(r"streams\[(\d+)\]\.tasks\[(\d+)\](\.[A-Za-z_]+)?")
_KEY_OF = {".seq": ".nodeId", ".event": ".taskInfo[0].eventParams.eventId"}


def is_vendor_json(data: Any) -> bool:
    """Whether a parsed JSON value is one of the vendor's dumps skir reads as a model."""
    return layout_of(data) is not None or is_trace(data)


def load(path: str | os.PathLike[str], cores: tuple[int, int] | None = None) -> tuple[ModuleOp, VendorInfo]:
    """Import a dump folder or one dump file (`-`: standard input)."""
    folder = Path(path)
    if os.fspath(path) != "-" and folder.is_dir():
        origin = next((folder / name for name in ORIGIN_FILES if (folder / name).is_file()), None)
        if origin is None:
            raise SkirError(f"{os.fspath(path)}: no {' / '.join(ORIGIN_FILES)} in this folder; give the "
                            "vendor's sk_meta/<pid>/model_<id>_<n> folder")
        trace = None
        if (folder / TRACE_FILE).is_file():
            trace_source, text = read_model(folder / TRACE_FILE)
            trace = read_trace(parse_trace_text(text, trace_source), trace_source)
        source, text = read_model(origin)
        return from_data(parse_json(text, source), source, cores, trace, os.fspath(folder / TRACE_FILE))
    source, text = read_model(path)
    return from_text(text, source, cores)


def parse_dump_text(text: str, source: str) -> Any:
    """The JSON value of a dump file's text (an array, the runtime trace, may end in a comma)."""
    with paused_gc():
        return parse_trace_text(text, source) if text.lstrip()[:1] == "[" else parse_json(text, source)


def from_text(text: str, source: str, cores: tuple[int, int] | None = None) -> tuple[ModuleOp, VendorInfo]:
    """Import the text of one dump file (an SK graph dump or the runtime trace alone)."""
    return from_data(parse_dump_text(text, source), source, cores)


def from_data(data: Any, source: str, cores: tuple[int, int] | None = None, trace: RuntimeTrace | None = None,
              trace_source: str = TRACE_FILE) -> tuple[ModuleOp, VendorInfo]:
    """Import a parsed dump: an SK graph dump (with the runtime trace, if given), or the trace alone."""
    from skir.frontends import capture as capture_importer

    if is_trace(data):
        if trace is not None:
            raise SkirError(f"{source}: a runtime trace is the model, and another trace was given too")
        from skir.frontends.vendor.trace_model import graph_of_trace

        # the trace alone is the model and its own enrichment (task kinds, sched mode, args size)
        trace, trace_source = read_trace(data, source), source
        dump = graph_of_trace(trace, source)
    else:
        dump = read_graph(data, source)
    capture, info = to_capture(dump, trace, source, cores, trace_source)
    try:
        module = capture_importer.from_dict(capture, source)
    except SkirError as err:
        raise SkirError(_vendor_path(str(err), info, dump), err.code) from None
    _annotate(module, info)
    return module, info


def _vendor_path(message: str, info: VendorInfo, dump: GraphDump) -> str:
    """A capture importer's message, its `streams[i].tasks[j]` path turned into the dump's."""
    def node_path(match: re.Match[str]) -> str:
        base = info.paths.get((int(match.group(1)), int(match.group(2))))
        if base is None:
            return match.group(0)
        key = match.group(3) or ""
        suffix = _KEY_OF.get(key, "")
        if key == ".seq" and dump.layout != "graph":
            suffix = ".taskId"
        return base + suffix

    return _CAPTURE_PATH.sub(node_path, message, count=1)


def _annotate(module: ModuleOp, info: VendorInfo) -> None:
    model = next(op for op in module.ops if isinstance(op, ModelOp))  # the capture importer made one
    fields: dict[str, Any] = {
        "layout": StringAttr(info.layout), "cores_given": BoolAttr.from_bool(info.cores_given),
        "notes": ArrayAttr(tuple(StringAttr(n) for n in info.notes)),
    }
    if info.model_id is not None:
        fields["model_id"] = StringAttr(info.model_id)
    if info.options:  # parsed once, here, where the dump's options enter
        fields["options"] = SkOptionsAttr(options_at(info.options, "the options the vendor's dump recorded"))
    if any(sid is not None for sid in info.stream_ids):  # the runtime's streamId of each stream, -1: not given
        fields["stream_ids"] = ArrayAttr(tuple(IntegerAttr(-1 if sid is None else sid, 64) for sid in info.stream_ids))
    model.attributes[VENDOR_ATTR] = DictionaryAttr(fields)
    for op in model.body.block.ops:
        if isinstance(op, KernelOp) and op.sym_name.data in info.func_names:
            op.attributes[NAME_ATTR] = StringAttr(info.func_names[op.sym_name.data])
            if op.sym_name.data in info.no_bind_map:
                op.attributes[NO_BIND_MAP_ATTR] = UnitAttr()
            if op.sym_name.data in info.args_unknown:
                op.attributes[ARGS_UNKNOWN_ATTR] = UnitAttr()


READER = ModelReader("vendor", is_vendor_json, lambda data, source, cores: from_data(data, source, cores)[0],
                     takes_cores=True, from_folder=lambda path, cores: load(path, cores)[0],
                     parse_text=parse_dump_text)
"""The vendor's dumps as a model reader (`skir.registry.get_all_readers`)."""
