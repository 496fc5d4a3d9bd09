"""PyTorch front end: an FX entry and a `torch.compile` backend that capture an aclgraph model.

```python
import torch, skir
from skir.frontends.torch import capture

class Mlp(torch.nn.Module):
    ...
    def forward(self, x):
        with skir.super_kernel_scope("mlp"):
            return self.down(torch.nn.functional.silu(self.up(x)))

module = capture(Mlp(), torch.randn(8, 1024), name="mlp", json_path="mlp.json")
result = skir.compile(module).write("out/mlp")

compiled = torch.compile(Mlp(), backend="skir", options={"sk_options": "early-start=1"})
compiled(torch.randn(8, 1024))          # runs eagerly; skir.frontends.torch.results() has the result
```

`capture` exports the module with `torch.export` (non-strict, so any Python runs; shapes are
the example inputs', so shape-based branches resolve at capture; meta tensors work and need no
memory); the backend takes the graph TorchDynamo gives it. Both go through `GraphCapture`
(one kernel task per op, see `op_table`, `op_refine` and `roofline`).
torch is an optional dependency: `pip install 'skir[torch]'`.
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path
from typing import Any

import torch
import torch.fx.traceback as fx_traceback
from torch import fx
from xdsl.dialects.builtin import ModuleOp

import skir.frontends.torch.graph_breaks as graph_breaks
import skir.frontends.torch.npu_ops
import skir.marks
from skir.errors import SkirError, did_you_mean
from skir.frontends import capture as capture_json
from skir.frontends.capture_export import format_json
from skir.frontends.torch.graph_model import GraphCapture
from skir.frontends.torch.graph_scopes import UnbalancedScopeError
from skir.frontends.torch.inline_wrappers import inline_wrappers
from skir.frontends.torch.layer_scopes import scope_layers
from skir.frontends.torch.op_registry import register_op
from skir.frontends.torch.roofline import DevicePeaks
from skir.frontends.torch.static_moe import static_moe
from skir.frontends.torch.user_code import warn_at_user_line
from skir.names import NAME_MAX_BYTES, name_problem

__all__ = ["DevicePeaks", "GraphCapture", "capture", "capture_dict", "export_program", "graph_model", "register_op",
           "results", "scope_layers", "skir_backend", "static_moe"]

skir.marks.install_annotator(fx_traceback.annotate, lambda: fx_traceback.current_meta.get("custom") or {})


def _model_name(module: torch.nn.Module) -> str:
    snake = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", type(module).__name__).lower()
    return re.sub(r"\W", "_", snake) or "model"


def graph_model(graph_module: fx.GraphModule, name: str, *, cores: tuple[int, int] = (24, 48),
                soc: str | None = None, peaks: DevicePeaks | None = None) -> dict[str, Any]:
    """The capture JSON dict of a graph whose nodes carry tensor metadata."""
    return GraphCapture(graph_module, name, cores, soc, peaks or DevicePeaks()).model()


def capture_dict(module: torch.nn.Module, *example_inputs: Any, name: str | None = None,
                 cores: tuple[int, int] = (24, 48), soc: str | None = None,
                 peaks: DevicePeaks | None = None) -> dict[str, Any]:
    """Export `module` on `example_inputs` (`torch.export`, non-strict) and return its capture
    JSON (format v1) as a dict. Shapes are those of the example inputs, so shape-based Python
    (`B, T, C = x.size()`, `x.shape[0] != 1`) is resolved at capture; meta tensors work."""
    program = export_program(module, example_inputs)
    paths: dict[str, str] = {}
    for spec in program.graph_signature.input_specs:
        arg_name = getattr(spec.arg, "name", None)
        if arg_name is None:
            continue
        paths[arg_name] = f"input.{arg_name}" if spec.target is None else f"param.{spec.target}"
    graph_module = inline_wrappers(program.graph_module)
    capture = GraphCapture(graph_module, name or _model_name(module), cores, soc, peaks or DevicePeaks(),
                           input_paths=paths)
    return capture.model()


def export_program(module: torch.nn.Module, example_inputs: tuple[Any, ...]) -> Any:
    """`torch.export.export(module, example_inputs, strict=False)` with skir's marks kept on
    every node; a failure is one line naming the user's line."""
    import io
    import logging
    import sys

    quiet = [logging.getLogger(n) for n in ("torch", "torch._subclasses.fake_tensor", "torch.export", "torch._export",
                                            "torch.fx.experimental.symbolic_shapes", "torch._dynamo")]
    levels = [lg.level for lg in quiet]
    held = io.StringIO()
    try:
        for lg in quiet:
            lg.setLevel(logging.CRITICAL)
        # under no_grad a model's own no_grad regions change nothing, so export wraps none of them
        # in a `wrap_with_set_grad_enabled` sub-graph: a captured graph is inference
        # torch writes the failing graph to stderr before raising; the error is our one line
        with fx_traceback.preserve_node_meta(), torch.no_grad(), contextlib.redirect_stderr(held), \
                _autocast_on_meta():
            program = torch.export.export(module, tuple(example_inputs), strict=False)
        sys.stderr.write(held.getvalue())  # what the model itself printed
        return program
    except SkirError:
        raise
    except Exception as err:  # export runs arbitrary user code
        raise SkirError(_export_error(module, err)) from None
    finally:
        for lg, level in zip(quiet, levels, strict=True):
            lg.setLevel(level)


class _MetaAutocast(torch.autocast):
    """`torch.autocast` that takes the meta device for the CPU (which it is, for shapes)."""

    def __init__(self, device_type: str, *args: Any, **kwargs: Any) -> None:
        super().__init__("cpu" if device_type == "meta" else device_type, *args, **kwargs)


@contextlib.contextmanager
def _autocast_on_meta() -> Any:
    """While capturing, let models that open `torch.autocast(device_type=x.device.type)` (HF's
    rotary embedding does) run on meta tensors, which autocast refuses."""
    original = torch.autocast
    torch.autocast = _MetaAutocast  # type: ignore[misc]
    try:
        yield
    finally:
        torch.autocast = original  # type: ignore[misc]


def _export_error(module: torch.nn.Module, err: BaseException) -> str:
    import traceback

    from skir.frontends.torch.user_code import is_user_file

    frames = [f for f in traceback.extract_tb(err.__traceback__) if is_user_file(f.filename)]
    at = f"{frames[-1].filename}:{frames[-1].lineno}: " if frames else ""
    cause = err.__cause__ or err
    text = str(cause).strip().splitlines()
    first = text[0] if text else type(cause).__name__
    if "data-dependent" in first or type(cause).__name__ in ("GuardOnDataDependentSymNode", "UserError"):
        return (f"{at}data-dependent control flow cannot be captured ({first[:160]}): a captured graph runs the "
                "same tasks every time; move the decision out of the model or make it on shapes")
    return f"{at}cannot capture {type(module).__name__} on the example inputs: {type(cause).__name__}: {first[:240]}"


def capture(module: torch.nn.Module, *example_inputs: Any, name: str | None = None,
            cores: tuple[int, int] = (24, 48), soc: str | None = None, peaks: DevicePeaks | None = None,
            json_path: str | os.PathLike[str] | None = None,
            mlir_path: str | os.PathLike[str] | None = None) -> ModuleOp:
    """Trace `module` on `example_inputs` into a verified `aclgraph` module.

    `name` names the model (default: the module's class in snake case); `cores` is (AI cores,
    vector cores); `json_path` / `mlir_path` also write the capture JSON / the `.mlir`.
    """
    data = capture_dict(module, *example_inputs, name=name, cores=cores, soc=soc, peaks=peaks)
    result = capture_json.from_dict(data, f"<{data['model']}>")
    if json_path is not None:
        Path(json_path).write_text(format_json(data))
    if mlir_path is not None:
        Path(mlir_path).write_text(str(result) + "\n")
    return result


_RESULTS: list[Any] = []
_NAMES: set[str] = set()
"""The model names the backend has given in this process."""


def _free_name(name: str) -> str:
    """`name`, or `name_2`, `name_3`, ... when the backend gave it already."""
    chosen, n = name, 1
    while chosen in _NAMES:
        n += 1
        chosen = f"{name}_{n}"
    _NAMES.add(chosen)
    return chosen


def results() -> list[Any]:
    """The `skir.CompileResult` of every graph the `"skir"` backend compiled in this process."""
    return list(_RESULTS)


def skir_backend(graph_module: fx.GraphModule, example_inputs: list[Any],
                 options: dict[str, Any] | None = None) -> Any:
    """The `torch.compile` backend `"skir"`: capture the graph, compile it with sk-check, run eagerly.

    `torch.compile(model, backend="skir", options={...})` keys: `sk_options` (SuperKernel
    options), `out_dir` (write sk-compile's products to OUT_DIR/<model>), `name` (the model's
    name, default `graph`), `cores` ((AI cores, vector cores)). Each graph TorchDynamo hands over
    (one per graph break; `fullgraph=True` forbids breaks) is a model named `name`, or `name_2`,
    `name_3`, ... when the name is taken already in this process. A graph break outside every
    scope is a warning: the forward ran as several graphs around it, and `results()[-1]` is only
    the last of them.
    """
    import skir

    opts = dict(options or {})
    valid = ("sk_options", "out_dir", "name", "cores")
    unknown = sorted(set(opts) - set(valid), key=str)
    if unknown:
        first = str(unknown[0])
        raise SkirError(f"skir backend: unknown option(s) {', '.join(map(str, unknown))}"
                        f"{did_you_mean(first, valid)} "
                        f"(valid keys: {', '.join(valid)})")
    problem = name_problem(str(opts.get("name", "graph")), NAME_MAX_BYTES - 12)  # room for `_<n>` and `_sk<n>`
    if problem is not None:
        raise SkirError(f"skir backend: option 'name': {problem}")
    name = _free_name(str(opts.get("name", "graph")))
    split_by = graph_breaks.newest_break()  # a break just before this graph's end, if any
    try:
        data = graph_model(graph_module, name, cores=tuple(opts.get("cores", (24, 48))))
    except UnbalancedScopeError as unbalanced:
        if split_by is None:
            raise
        raise SkirError(f"{unbalanced.at}: a graph break inside super_kernel_scope_begin({unbalanced.scope!r}) split "
                        f"the scope over two graphs: {split_by}; move the break out of the scope") from None
    if split_by is not None:
        warn_at_user_line(f"skir backend: a graph break split the forward into several graphs ({split_by}); "
                          f"model @{name} is one of them, and results()[-1] only the last; fullgraph=True makes "
                          "a break an error")
    out_dir = opts.get("out_dir")
    result = skir.compile(data, options=opts.get("sk_options", "")).check()
    if out_dir is not None:
        result.write(Path(out_dir) / name)
    _RESULTS.append(result)
    return graph_module.forward


graph_breaks.install(skir_backend)

