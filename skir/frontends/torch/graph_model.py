"""An FX graph with tensor metadata -> a capture JSON (v1) model.

Every op node becomes one task (see `op_table`): a kernel task with its kernel declared once
per (op, kernel type, param roles), its blocks and an estimated duration (`roofline`); views
alias their input's buffer and make no task; an op without a kernel mapping becomes an opaque
`aicpu` task and a warning. Buffers are the graph's tensors (placeholders, parameters,
results) with their byte sizes; a kernel's params are `in` for tensors it reads, `out` for
its results and `inout` for the tensor an in-place op updates. Streams and scopes come from
the `skir.stream` / `skir.super_kernel_scope` annotations on each node (`skir.marks`):

```
with skir.super_kernel_scope("mlp"):      s0: scope_begin "mlp", placeholder, placeholder,
    y = torch.relu(self.fc(x))                kernel linear, kernel relu,
                                              placeholder, placeholder, scope_end "mlp"
```

The scope markers are `skir.frontends.torch.graph_scopes`'s, a kernel's type, blocks and
duration `skir.frontends.torch.kernel_estimate`'s.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import torch
from torch import fx

import skir.frontends.torch.scope_ops as scope_ops
from skir.errors import SkirError
from skir.frontends.torch.cond_capture import capture_cond, is_cond, renumber
from skir.frontends.torch.graph_scopes import ScopeMarks
from skir.frontends.torch.kernel_estimate import estimate_kernel
from skir.frontends.torch.op_refine import attribute_view, refine
from skir.frontends.torch.op_registry import registered
from skir.frontends.torch.op_table import (
    COLLECTIVE_WAITS,
    COLLECTIVES,
    QUALIFIED_ALIASES,
    TABLE_NAMESPACES,
    OpClass,
    base_name,
    classify,
    kernel_name,
    op_name,
    op_namespace,
    qualified_name,
)
from skir.frontends.torch.roofline import DevicePeaks
from skir.frontends.torch.scope_ops import is_scope_op
from skir.frontends.torch.stream_capture import StreamCapture
from skir.frontends.torch.tensor_info import TensorInfo, UnknownSize, node_info
from skir.frontends.torch.updated_ops import group_prefix, per_step_lengths
from skir.frontends.torch.user_code import warn_at_user_line, where
from skir.marks import STREAM_KEY
from skir.names import identifier

_MODULE_OPS = {
    torch.nn.Linear: "linear", torch.nn.Conv1d: "conv1d", torch.nn.Conv2d: "conv2d", torch.nn.Conv3d: "conv3d",
    torch.nn.LayerNorm: "layer_norm", torch.nn.GroupNorm: "group_norm", torch.nn.Embedding: "embedding",
    torch.nn.BatchNorm1d: "batch_norm", torch.nn.BatchNorm2d: "batch_norm", torch.nn.Softmax: "softmax",
    torch.nn.Dropout: "dropout", torch.nn.Identity: "identity", torch.nn.Flatten: "flatten",
}


@dataclass
class GraphCapture:
    """Converts one FX graph; `model()` returns the capture JSON dict."""

    graph_module: fx.GraphModule
    name: str
    cores: tuple[int, int] = (24, 48)
    soc: str | None = None
    peaks: DevicePeaks = field(default_factory=DevicePeaks)
    input_paths: dict[str, str] | None = None
    """Placeholder name -> torch path (`param.fc.weight`, `input.x`), for an exported graph."""

    def __post_init__(self) -> None:
        self.streams = StreamCapture()
        self.buffers: dict[str, int] = {}
        self._source_paths: set[str] = set()
        """The torch paths the buffers were named after (`param.fc.weight` for `param_fc_weight`):
        a graph input whose path is taken gets a buffer of its own."""
        self.kernels: dict[str, dict[str, Any]] = {}
        self._kernel_keys: dict[tuple[Any, ...], str] = {}
        self._buffer_of: dict[fx.Node, Any] = {}
        """node -> buffer name, or a tuple of them (or None) for a tuple result."""
        self.scopes = ScopeMarks()
        """The scopes open while the graph is captured (`skir.frontends.torch.graph_scopes`)."""
        self._unmapped: dict[str, list[Any]] = {}
        """Op name without a kernel mapping -> [tasks, where the first one is]."""
        self.cells: list[str] = []
        """Condition cells (`torch.cond`, `skir.frontends.torch.cond_capture`)."""
        self.submodels: list[dict[str, Any]] = []
        """The branches of every `torch.cond`, as capture JSON sub-models."""
        self.extra_events: list[str] = []
        """The sub-models' own events (declared by the model, used only inside them)."""

    def buffer_of(self, node: fx.Node) -> Any:
        """The buffer (or tuple of them, or None) of a captured node."""
        return self._buffer_of.get(node)

    def bind(self, node: fx.Node, buffer: Any) -> None:
        """Give a placeholder of a branch graph the buffer of the operand it stands for."""
        self._buffer_of[node] = buffer

    def result_buffers(self, node: fx.Node) -> list[Any]:
        """Declare the result buffer(s) of `node` (a `torch.cond`) and return them as a list."""
        outs = self._new_buffer(f"{node.name}.out", node_info(node))
        self._buffer_of[node] = outs
        return list(outs) if isinstance(outs, tuple) else [outs]

    def op(self, node: fx.Node) -> None:
        """Capture one call node (a branch graph's, for `cond_capture`)."""
        self._op(node)

    # -- buffers -------------------------------------------------------------------------------

    def _new_buffer(self, name: str, info: Any) -> Any:
        """Declare the buffer(s) of a tensor (or tuple of tensors). `name` is a dotted torch path
        (`param.fc.weight`, `linear.out`); the buffer is its identifier (`param_fc_weight`,
        docs/design.md §1 "Names"), made unique among the model's names with `_<n>`."""
        if isinstance(info, tuple):
            return tuple(self._new_buffer(f"{name}_{i}", item) for i, item in enumerate(info))
        if not isinstance(info, TensorInfo):
            return None
        base = identifier(name)
        buffer, n = base, 1
        while buffer in self.buffers or buffer in self.kernels:
            n += 1
            buffer = f"{base}_{n}"
        self.buffers[buffer] = info.nbytes
        self._source_paths.add(name)
        return buffer

    def _tensors_in(self, args: Any) -> Iterator[fx.Node]:
        for arg in _flatten(args):
            if isinstance(arg, fx.Node) and isinstance(self._buffer_of.get(arg), str):
                yield arg

    # -- ops -----------------------------------------------------------------------------------

    def _op_name(self, node: fx.Node) -> str:
        if node.op == "call_module":
            module = self.graph_module.get_submodule(str(node.target))
            return _MODULE_OPS.get(type(module), type(module).__name__.lower())
        return op_name(node.op, node.target)

    def _kernel(self, name: str, kernel_type: str, roles: tuple[str, ...]) -> str:
        """The kernel of op `name` with this type and argument roles: the op's name, and for a
        second variant of the op (another type or layout) `<op>_v2`, `<op>_v3`, ...; never `<op>_2`,
        which reads as the kernel of TorchDynamo's node `<op>_2` (whose buffer is `<op>_2_out`)."""
        key = (name, kernel_type, roles)
        if key not in self._kernel_keys:
            base = kernel_name(name)
            symbol = base
            suffix = 2
            while symbol in self.kernels or symbol in self.buffers:
                symbol = f"{base}_v{suffix}"
                suffix += 1
            self._kernel_keys[key] = symbol
            self.kernels[symbol] = {"kernel_type": kernel_type, "params": list(roles)}
        return self._kernel_keys[key]

    def _module_params(self, node: fx.Node) -> list[tuple[str, TensorInfo]]:
        """Buffers of a leaf module's own parameters (a call_module reads them implicitly)."""
        if node.op != "call_module":
            return []
        params = []
        for pname, param in self.graph_module.get_submodule(str(node.target)).named_parameters():
            info = TensorInfo(tuple(param.shape), param.dtype)
            params.append((self._new_buffer(f"param.{node.target}.{pname}", info), info))
        return params

    def _written(self, node: fx.Node, inputs: list[fx.Node], in_place: bool) -> tuple[list[fx.Node], bool]:
        """(the tensor inputs `node` writes, whether its result is one of them): from the op's
        schema (`Tensor(a!)`, `torch.library.custom_op(..., mutates_args=...)`), else the first
        input of an in-place op (a trailing `_`, `inplace=True`, `x[i] = v`)."""
        target = getattr(node.target, "_opoverload", node.target)
        schema = getattr(target, "_schema", None)
        if schema is None and hasattr(target, "overloads"):  # a packet: its default overload
            schema = getattr(getattr(target, "default", None), "_schema", None)
        if node.op == "call_function" and schema is not None:
            written: list[fx.Node] = []
            positional = [a for a in schema.arguments if not a.kwarg_only]
            for i, arg in enumerate(schema.arguments):
                alias = arg.alias_info
                if alias is None or not alias.is_write:
                    continue
                value = node.kwargs.get(arg.name)
                if value is None and arg in positional and positional.index(arg) < len(node.args):
                    value = node.args[positional.index(arg)]
                written += [v for v in _flatten(value) if isinstance(v, fx.Node) and v in inputs and v not in written]
            aliased = bool(schema.returns) and all(r.alias_info is not None and r.alias_info.is_write
                                                   for r in schema.returns)
            return written, aliased and bool(written)
        if node.target is operator.setitem or (in_place and inputs):
            return inputs[:1], node.target is not operator.setitem
        return [], False

    def _op(self, node: fx.Node) -> None:
        if self.scopes.call(node, self.streams):
            return
        if is_cond(node):  # torch.cond: a condition task, its branches sub-models
            stream = (node.meta.get("custom") or {}).get(STREAM_KEY, self.streams.main)
            self.scopes.enter(node, stream, self.streams)
            capture_cond(self, node, stream, where(node))
            return
        raw = self._op_name(node)
        name, in_place = base_name(raw)
        in_place = in_place or node.kwargs.get("inplace") is True
        cls = classify(name)
        attribute = attribute_view(node)
        if attribute is not None:
            name, cls = attribute, OpClass.VIEW
        inputs = list(self._tensors_in((node.args, node.kwargs)))
        info = node_info(node)
        module = self.graph_module.get_submodule(str(node.target)) if node.op == "call_module" else None
        name, cls = refine(node, name, cls, [node_info(n) for n in inputs], info, module)
        qualified = qualified_name(node.target) if node.op == "call_function" else None
        if qualified in QUALIFIED_ALIASES:  # another library's op the table knows
            name = QUALIFIED_ALIASES[qualified]
            cls = classify(name)
        comm = None
        if qualified in COLLECTIVES:  # a communication kernel of the process group it names
            name, cls = COLLECTIVES[qualified], OpClass.VECTOR
            group = node.kwargs.get("group_name", node.args[-1] if node.args else "0")
            comm = {"group": identifier(f"pg{group}"), "op": name}
        elif qualified in COLLECTIVE_WAITS:
            cls = OpClass.VIEW
        custom = registered(qualified, name)
        if custom is not None:
            cls = OpClass.MATMUL_EPILOGUE if custom.cube else OpClass.VECTOR
        elif (node.op == "call_function" and op_namespace(node.op, node.target) not in TABLE_NAMESPACES
              and qualified not in QUALIFIED_ALIASES and qualified not in COLLECTIVES
              and qualified not in COLLECTIVE_WAITS):
            raw = name = qualified or f"{op_namespace(node.op, node.target)}.{raw}"
            cls = OpClass.UNSUPPORTED  # the user's op: opaque until registered
        written, aliased = self._written(node, inputs, in_place) if cls is not OpClass.VIEW else ([], False)
        if cls is OpClass.META:
            return
        if cls is OpClass.ALLOC:
            self._buffer_of[node] = self._new_buffer(f"{node.name}.out", info)
            return
        if cls is OpClass.VIEW:
            if node.target is operator.getitem and isinstance(self._buffer_of.get(node.args[0]), tuple):  # type: ignore[arg-type]
                parts = self._buffer_of[node.args[0]]  # type: ignore[index]
                index = node.args[1]
                self._buffer_of[node] = parts[index] if isinstance(index, int) and index < len(parts) else None
            elif inputs:
                base = self._buffer_of[inputs[0]]
                self._buffer_of[node] = base if info is None or isinstance(info, TensorInfo) else (base,) * len(info)
            return
        if info is None and not inputs:
            return  # arithmetic on sizes (an exported graph's SymInt checks): no device work
        if info is None and not written and cls not in (OpClass.UNSUPPORTED, OpClass.HOST_COPY):
            raise SkirError(f"{where(node)}: no tensor shape for '{node.name}' ({raw}); capture with example inputs")
        stream = (node.meta.get("custom") or {}).get(STREAM_KEY, self.streams.main)
        self.scopes.enter(node, stream, self.streams)
        params = self._module_params(node)
        reads = [self._buffer_of[n] for n in inputs] + [buffer for buffer, _ in params]
        read_infos = [node_info(n) for n in inputs] + [info for _, info in params]
        updated = [self._buffer_of[n] for n in written]
        if aliased:  # the result is the argument it wrote (`add_`, `out=`)
            self._buffer_of[node] = updated[0] if len(updated) == 1 else tuple(updated)
            writes = list(updated)
        else:
            outs = self._new_buffer(f"{node.name}.out", info)
            self._buffer_of[node] = outs
            writes = updated + [b for b in (outs if isinstance(outs, tuple) else (outs,)) if isinstance(b, str)]
        if cls is OpClass.HOST_COPY:  # data from the host: the runtime copies it in, a memcpy task
            self.streams.data_task(stream, {"type": "default", "kind": "memcpy"}, reads, writes)
            return
        if cls is OpClass.UNSUPPORTED:
            seen = self._unmapped.setdefault(raw, [0, where(node)])
            seen[0] += 1
            self.streams.data_task(stream, {"type": "default", "kind": "aicpu"}, reads, writes)
            return
        task = self._kernel_task(node, name, qualified, cls, read_infos, reads, writes, len(updated))
        if comm is not None:
            moved = [self._info_of_buffer(node, b) for b in writes[len(updated):]] or read_infos[:1]
            task["comm"] = {**comm, "bytes": sum(i.nbytes for i in moved if isinstance(i, TensorInfo))}
        prefix = None
        if per_step_lengths(node, qualified):  # re-issued before every replay (docs/design.md §3)
            event, prefix = group_prefix(task, len(self.extra_events) + 1)
            self.extra_events.append(event)
        self.streams.data_task(stream, task, reads, writes, prefix)

    def _kernel_task(self, node: fx.Node, name: str, qualified: str | None, cls: OpClass, infos: list[Any],
                     reads: list[str], writes: list[str], updated: int) -> dict[str, Any]:
        """The kernel task of a node: kernel by type and param roles, blocks, args, duration.
        `writes` starts with the `updated` inputs it writes in place, then its own results."""
        outs = [self._info_of_buffer(node, b) for b in writes[updated:]]
        kernel_type, blocks, duration = estimate_kernel(node, name, qualified, cls, infos, outs, updated > 0,
                                                        len(reads), self.cores, self.peaks)
        inout = set(writes[:updated])
        roles = tuple(["inout" if b in inout else "in" for b in reads] + ["out"] * (len(writes) - updated))
        users = (qualified is not None and qualified.split("::")[0] not in TABLE_NAMESPACES
                 and qualified not in QUALIFIED_ALIASES and qualified not in COLLECTIVES)
        kernel = self._kernel(qualified if users else name, kernel_type, roles)  # type: ignore[arg-type]
        args = reads + writes[updated:]
        return {"type": "kernel", "kernel": kernel, "blocks": blocks, "args": args, "duration_us": duration}

    def _info_of_buffer(self, node: fx.Node, buffer: str) -> Any:
        info = node_info(node)
        if isinstance(info, tuple):
            flat = list(_flatten(info))
            names = list(_flatten(self._buffer_of[node]))
            return flat[names.index(buffer)] if buffer in names else None
        return info

    # -- the whole graph -------------------------------------------------------------------------

    def _live(self) -> set[fx.Node]:
        """The nodes the graph's result or an effect needs: TorchDynamo keeps dead nodes (an
        unused `arange`, a pooler nobody reads), which must not become launches. An effect is a
        scope call, a write (in place, `x[i] = v`, a mutable schema) or what torch calls impure."""
        _CALLS = ("call_function", "call_method", "call_module")

        def effect(node: fx.Node) -> bool:
            if node.op not in _CALLS:
                return node.op in ("output", "placeholder", "get_attr")
            if is_scope_op(node.target, scope_ops.BEGIN) or is_scope_op(node.target, scope_ops.END):
                return True
            if base_name(op_name(node.op, node.target))[1] or node.kwargs.get("inplace") is True:
                return True
            if node.target is operator.setitem:
                return True
            try:
                return node.is_impure(impure_random=False)
            except Exception:  # a target torch cannot judge: keep it
                return True

        live: set[fx.Node] = set()
        stack = [n for n in self.graph_module.graph.nodes if effect(n)]
        while stack:
            node = stack.pop()
            if node not in live:
                live.add(node)
                stack.extend(node.all_input_nodes)
        return live

    def _unknown_size(self, node: fx.Node, err: UnknownSize) -> str:
        """The one-line error of a size the data decides (docs/design.md §1: no guessed shapes)."""
        routed = any(op_name(n.op, n.target) == "topk" for n in self.graph_module.graph.nodes)
        hint = ("; a MoE layer that sizes its experts by the routing captures with static_moe(model) "
                "(skir.frontends.torch.static_moe)" if routed else
                "; compute it on the host, or give the op a static size")
        return (f"{where(node)}: the size {err.size} of '{node.name}' ({self._op_name(node)}) depends on the "
                f"data (nonzero, .item() or .tolist() decide it at run time); a captured graph has static "
                f"shapes, so skir cannot know it{hint}")

    def model(self) -> dict[str, Any]:
        """The capture JSON of the graph."""
        live = self._live()
        for node in self.graph_module.graph.nodes:
            if node not in live:
                continue
            if node.op == "placeholder" and _host_scalar(node):
                self._buffer_of[node] = None  # a Python number TorchDynamo passes as a tensor: no buffer
                continue
            if node.op in ("placeholder", "get_attr"):
                name = f"param.{node.target}" if node.op == "get_attr" else _placeholder_buffer(node)
                if node.op == "placeholder" and self.input_paths and node.name in self.input_paths:
                    name = self.input_paths[node.name]
                if node.op == "placeholder" and name in self._source_paths:
                    name = f"input.{node.name}"  # every graph input is a buffer of its own
                self._buffer_of[node] = self._new_buffer(name, node_info(node))
            elif node.op in ("call_function", "call_method", "call_module"):
                try:
                    self._op(node)
                except UnknownSize as err:
                    raise SkirError(self._unknown_size(node, err)) from None
        self.scopes.finish(self.streams)
        for raw, (count, first) in self._unmapped.items():
            warn_at_user_line(f"{first}: op '{raw}' has no kernel mapping ({count} task{'s' if count > 1 else ''}, "
                              "the first here); captured as opaque aicpu tasks, which end any SuperKernel around "
                              "them (skir.frontends.torch.register_op maps it)")
        streams = self.streams.finish()
        model: dict[str, Any] = {"format": "skir.aclgraph.capture", "version": 1, "model": self.name}
        if self.soc:
            model["soc"] = self.soc
        model["cores"] = {"aic": self.cores[0], "aiv": self.cores[1]}
        model["kernels"] = self.kernels
        model["buffers"] = self.buffers
        model["events"] = [*self.streams.events, *self.extra_events]
        if self.cells:
            model["cells"] = list(self.cells)
        if self.submodels:
            model["submodels"] = self.submodels
        model["streams"] = streams
        renumber(model)
        return model


def _host_scalar(node: fx.Node) -> bool:
    """Whether a graph input is a Python number (a float attribute such as `eps` or `scaling`)
    that TorchDynamo lifted into a 0-d tensor under `dynamic=True`: its value is on the host, so
    its `.item()` is no device task."""
    return getattr(node.meta.get("grapharg"), "pass_arg_as_tensor", False) is True


def _placeholder_buffer(node: fx.Node) -> str:
    """The buffer name of a graph input: `input.x`; TorchDynamo's lifted `self.fc.weight` is `param.fc.weight`."""
    source = getattr(node.meta.get("grapharg"), "source", None)
    text = getattr(source, "name", None)
    text = text() if callable(text) else text
    if isinstance(text, str):
        keys = re.findall(r"\['([^']*)'\]", text)
        if text.startswith("L['self']") and len(keys) > 1:
            return "param." + ".".join(keys[1:])
        if keys:
            return "input." + ".".join(keys)
    return f"input.{node.name}"


def _flatten(value: Any) -> Iterator[Any]:
    if isinstance(value, (tuple, list)):
        for item in value:
            yield from _flatten(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _flatten(item)
    else:
        yield value
