"""The FX tracer of `skir.frontends.torch.capture`.

It traces through every `torch.nn` module (so ops reach the graph as functions whose
parameters are `get_attr` nodes), keeps the `skir.super_kernel_scope` / `skir.stream` marks on
each node as TorchDynamo does (`node.meta["custom"]`), records where in the user's code each
node was made, and stops with a located error at data-dependent control flow:

```
decoder.py:41: data-dependent control flow on the value of 'gt' (gt_1) cannot be captured: ...
```
"""

from __future__ import annotations

import os
import traceback
from typing import Any

import torch
import torch.fx.traceback as fx_traceback
from torch import fx

import skir
from skir.errors import SkirError

_LIBRARY_DIRS = tuple(os.path.dirname(os.path.abspath(m.__file__ or "")) + os.sep for m in (torch, skir))


def is_user_file(path: str) -> bool:
    """Whether a source file is the user's (not torch's, not skir's, not generated)."""
    return not path.startswith("<") and not os.path.abspath(path).startswith(_LIBRARY_DIRS)


def _user_frame() -> str:
    """`file:line` of the innermost frame of the user's code."""
    for frame in reversed(traceback.extract_stack()):
        if is_user_file(frame.filename):
            return f"{frame.filename}:{frame.lineno}"
    return "<model>"


class MarkTracer(fx.Tracer):
    """An FX tracer that keeps skir's marks and refuses data-dependent control flow."""

    def __init__(self) -> None:
        super().__init__()
        self.record_stack_traces = True

    def is_leaf_module(self, m: torch.nn.Module, module_qualified_name: str) -> bool:
        return False

    def create_node(self, kind: str, target: Any, args: Any, kwargs: Any, name: str | None = None,
                    type_expr: Any | None = None) -> fx.Node:
        node = super().create_node(kind, target, args, kwargs, name, type_expr)
        custom = fx_traceback.current_meta.get("custom")
        if custom:
            node.meta["custom"] = dict(custom)
        return node

    def _data_dependent(self, obj: fx.Proxy, use: str) -> SkirError:
        node = obj.node
        what = node.target if isinstance(node.target, str) else getattr(node.target, "__name__", str(node.target))
        return SkirError(
            f"{_user_frame()}: data-dependent control flow ({use}) on the value of '{what}' ({node.name}) cannot "
            "be captured: a captured graph runs the same tasks every time; move the decision out of the model "
            "or make it on shapes"
        )

    def to_bool(self, obj: fx.Proxy) -> bool:
        raise self._data_dependent(obj, "a branch")

    def iter(self, obj: fx.Proxy) -> Any:
        raise self._data_dependent(obj, "iteration")

    def keys(self, obj: fx.Proxy) -> Any:
        raise self._data_dependent(obj, "unpacking")
