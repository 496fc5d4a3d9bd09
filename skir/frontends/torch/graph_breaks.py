"""A graph break inside a SuperKernel scope is an error, not a silent eager run.

TorchDynamo cannot resume inside `torch.fx.traceback.annotate` (what `skir.super_kernel_scope`
and `skir.stream` enter), so a graph break inside one makes it give up on the whole frame and run
it eagerly: the `"skir"` backend never sees those ops and nothing would say so. Every mark
therefore probes, when it is entered *eagerly*, whether a `torch.compile` frame callback with the
`"skir"` backend is in force; if so, TorchDynamo has just dropped the frame, and the mark raises an
error naming its scope, the line that entered it and the graph break TorchDynamo recorded:

```
with skir.super_kernel_scope("layer0"):     SkirError: model.py:12: a graph break inside
    y = torch.relu(x)                       super_kernel_scope('layer0') made TorchDynamo run the
    print(y.sum())   # graph break          frame eagerly, so the "skir" backend never saw it:
                                            Failed to trace builtin operator (print); move the
                                            break out of the scope
```

`super_kernel_scope_begin` / `_end` are graph ops, so a break between them splits the scope over
two graphs; the backend then names the break with the unbalanced scope (`newest_break`).

Under another backend, or when the model runs without `torch.compile`, the marks do nothing.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import torch
from torch._C._dynamo.eval_frame import get_eval_frame_callback

import skir.marks
from skir.errors import SkirError

_seen_breaks: dict[str, int] = {}
"""The graph-break reasons counted so far (TorchDynamo's counter), to find the newest."""
_break_at: dict[tuple[str, int], str] = {}
"""The break first reported for a mark's line (a cached eager frame records no new break)."""


def _innermost(fn: Any) -> Any:
    """The function a TorchDynamo callback or backend wrapper finally calls."""
    for _ in range(16):
        inner = getattr(fn, "_torchdynamo_orig_backend", None) or getattr(fn, "compiler_fn", None)
        if inner is None or inner is fn:
            return fn
        fn = inner
    return fn


BREAK_COUNTERS = ("graph_break", "unimplemented")
"""TorchDynamo's counters of graph breaks: `graph_break` holds explicit breaks and unsupported calls
(`torch._dynamo.graph_break()`, `print`), `unimplemented` what it cannot trace at all, a data-dependent
branch (`if x.sum() > 0:`) among them; each break is counted in one of the two."""


def newest_break() -> str | None:
    """The graph break TorchDynamo counted since the previous look, summarised on one line. Where
    one look finds several (a break inside a mark also counts TorchDynamo's refusal to resume inside
    the mark), the cause is the one named: the first new one, `graph_break` before `unimplemented`."""
    newest = None
    for counter in BREAK_COUNTERS:
        for reason, count in torch._dynamo.utils.counters[counter].items():
            if _seen_breaks.get(f"{counter}\0{reason}") != count:
                newest = newest or reason
                _seen_breaks[f"{counter}\0{reason}"] = count
    return None if newest is None else _summary(newest)


def _summary(reason: str) -> str:
    """The first line of a break reason and its explanation, on one line."""
    lines = [line.strip() for line in reason.splitlines() if line.strip()]
    head = lines[0] if lines else reason.strip()
    explained = next((line.removeprefix("Explanation:").strip() for line in lines
                      if line.startswith("Explanation:")), "")
    return f"{head} ({explained})" if explained else head


def _user_line() -> tuple[str, int]:
    """The file and line of the model code that entered the mark (the first frame outside skir.marks)."""
    frame = sys._getframe(1)
    marks_file = skir.marks.__file__
    while frame is not None and (frame.f_code.co_filename in (marks_file, __file__)
                                 or "torch/_dynamo" in frame.f_code.co_filename.replace("\\", "/")):
        frame = frame.f_back  # type: ignore[assignment]
    if frame is None:
        return ("<unknown>", 0)
    return (frame.f_code.co_filename, frame.f_lineno)


def install(skir_backend: Callable[..., Any]) -> None:
    """Make each mark check, when entered eagerly, that no `"skir"` compile gave up on it."""

    @torch._dynamo.disable
    def check(callback: Any, what: str) -> None:
        if callback is None or callback is False or _innermost(callback) is not skir_backend:
            return
        at = _user_line()
        reason = newest_break()
        if reason is not None:
            _break_at.setdefault(at, reason)
        cause = _break_at.get(at)
        because = (f"a graph break inside {what} made TorchDynamo run the frame eagerly"
                   if cause else f"TorchDynamo ran the frame entering {what} eagerly")
        detail = f": {cause}; move the break out of the scope" if cause else " (TORCH_LOGS=graph_breaks says why)"
        raise SkirError(f"{at[0]}:{at[1]}: {because}, so the \"skir\" backend never saw it{detail}")

    skir.marks.install_eager_probe((torch.compiler.is_compiling, get_eval_frame_callback, check))
