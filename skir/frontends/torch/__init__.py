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
result = skir.compile(module, out_dir="out/mlp")

compiled = torch.compile(Mlp(), backend="skir", options={"sk_options": "early-start=1"})
compiled(torch.randn(8, 1024))          # runs eagerly; skir.frontends.torch.results() has the result
```

`capture` traces with `torch.fx` (through every `nn` module) and propagates the example inputs'
shapes (meta tensors work and need no memory); the backend takes the graph TorchDynamo gives
it. Both go through `GraphCapture` (one kernel task per op, see `op_table` and `roofline`).
torch is an optional dependency: `pip install 'skir[torch]'`.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import torch
import torch.fx.traceback as fx_traceback
from torch import fx
from torch.fx.passes.shape_prop import ShapeProp
from xdsl.dialects.builtin import ModuleOp

import skir.marks
from skir.errors import SkirError
from skir.frontends import capture as capture_json
from skir.frontends.capture_export import format_json
from skir.frontends.torch.graph_model import GraphCapture, where
from skir.frontends.torch.roofline import DevicePeaks
from skir.frontends.torch.tracer import MarkTracer

__all__ = ["DevicePeaks", "GraphCapture", "capture", "capture_dict", "graph_model", "results", "skir_backend"]

skir.marks.install_annotator(fx_traceback.annotate)


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
    """Trace `module` on `example_inputs` and return its capture JSON (format v1) as a dict."""
    tracer = MarkTracer()
    try:
        graph = tracer.trace(module)
    except SkirError:
        raise
    except Exception as err:  # tracing runs arbitrary user code
        raise SkirError(f"cannot trace {type(module).__name__}: {_first_line(err)}") from None
    graph_module = fx.GraphModule(tracer.root, graph, type(module).__name__)
    _LocatedShapeProp(graph_module).propagate(*example_inputs)
    return graph_model(graph_module, name or _model_name(module), cores=cores, soc=soc, peaks=peaks)


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


class _LocatedShapeProp(ShapeProp):
    """ShapeProp whose failures are one-line errors naming the user's line and the op."""

    def __init__(self, graph_module: fx.GraphModule) -> None:
        super().__init__(graph_module)
        self.extra_traceback = False  # the interpreter would append the node and a traceback

    def run_node(self, n: fx.Node) -> Any:
        try:
            return super().run_node(n)
        except Exception as err:
            cause = err.__cause__ or err
            raise SkirError(f"{where(n)}: cannot run '{n.name}' on the example inputs: {_first_line(cause)}") from None


_RESULTS: list[Any] = []


def results() -> list[Any]:
    """The `skir.CompileResult` of every graph the `"skir"` backend compiled in this process."""
    return list(_RESULTS)


def skir_backend(graph_module: fx.GraphModule, example_inputs: list[Any],
                 options: dict[str, Any] | None = None) -> Any:
    """The `torch.compile` backend `"skir"`: capture the graph, compile it with sk-check, run eagerly.

    `torch.compile(model, backend="skir", options={...})` keys: `sk_options` (SuperKernel
    options), `out_dir` (write sk-compile's products to OUT_DIR/<model>), `name` (model name
    prefix, default `graph`), `cores` ((AI cores, vector cores)). Each graph TorchDynamo hands
    over (one per graph break; `fullgraph=True` forbids breaks) becomes model `<name><N>`.
    """
    import skir

    opts = dict(options or {})
    unknown = set(opts) - {"sk_options", "out_dir", "name", "cores"}
    if unknown:
        raise SkirError(f"skir backend: unknown option(s) {', '.join(sorted(unknown))}")
    name = f"{opts.get('name', 'graph')}{len(_RESULTS)}"
    data = graph_model(graph_module, name, cores=tuple(opts.get("cores", (24, 48))))  # type: ignore[arg-type]
    out_dir = opts.get("out_dir")
    result = skir.compile(
        data, options=opts.get("sk_options", ""), out_dir=None if out_dir is None else Path(out_dir) / name, check=True
    )
    _RESULTS.append(result)
    return graph_module.forward


def _first_line(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return f"{type(err).__name__}: {text[0]}" if text else type(err).__name__
