"""The context managers a PyTorch model uses to mark SuperKernel scopes and streams.

```python
import skir

class Layer(torch.nn.Module):
    def forward(self, x):
        with skir.super_kernel_scope("layer0", options="early-start=1"):
            h = self.norm(x)
            with skir.stream("side"):      # these ops are captured on stream `side`
                g = self.gate(h)
            y = self.proj(h) + g           # an event orders `gate` before the add
        with skir.super_kernel_scope(None):  # never fuse what runs here
            return self.head(y)
```

Both are plain annotations: the torch front end (`skir.frontends.torch`) reads them off
each traced op, and the ops run unchanged. Scopes nest as the vendor's do: an op's label is
the set of named scopes open around it, `None` marks a region that must not fuse, and the
innermost named scope's options win. A model traced by `torch.compile` carries them through
`torch.fx.traceback.annotate`, which TorchDynamo keeps on every node it creates; the
FX entry (`skir.frontends.torch.capture`) reads the same annotation while it traces.

They need no torch: without it they check their arguments and do nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from skir.errors import SkirError
from skir.names import name_problem
from skir.options import options_at

SCOPE_KEY = "skir.scope:"
"""Prefix of the annotation key of an open scope; the rest of the key is its name (empty for None)."""

STREAM_KEY = "skir.stream"
"""Annotation key of the current stream's name."""

SCOPE_STREAM_KEY = "skir.scope_stream:"
"""Prefix of the annotation key holding the stream a scope was entered on (its markers go there)."""

MAX_SCOPE_NAME_BYTES = 255
"""The vendor's limit on a scope name (256 bytes with the terminator)."""

_annotate: Callable[[dict[str, Any]], contextlib.AbstractContextManager[None]] | None = None
"""`torch.fx.traceback.annotate`, installed by the torch front end when it is imported."""
_current: Callable[[], dict[str, Any]] = dict
"""The annotation in force where the model runs now (torch's `current_meta["custom"]`)."""
_eager_probe: tuple[Callable[[], bool], Callable[[], Any], Callable[[Any, str], None]] | None = None
"""(is the code being traced, the frame-evaluation callback in force, the check given it and the
mark's description), installed by the torch front end: a mark entered *eagerly* while a
`torch.compile` callback is in force is one TorchDynamo gave up on (a graph break inside it)."""
_scope_calls: tuple[Callable[[str | None, str], None], Callable[[str | None], None]] | None = None
"""The torch front end's `skir::scope_begin` / `skir::scope_end` ops, once installed."""


def install_annotator(annotate: Callable[[dict[str, Any]], contextlib.AbstractContextManager[None]],
                      current: Callable[[], dict[str, Any]] | None = None) -> None:
    """Route the marks through `annotate` (the torch front end installs torch's); `current`
    returns the annotation in force (to know the stream a scope is entered on)."""
    global _annotate, _current
    _annotate = annotate
    if current is not None:
        _current = current


def install_eager_probe(probe: tuple[Callable[[], bool], Callable[[], Any], Callable[[Any, str], None]]) -> None:
    """Have every mark call `probe[2](probe[1](), description)` when `probe[0]()` is false."""
    global _eager_probe
    _eager_probe = probe


def _probe_eager(what: str) -> None:
    # The first two calls are C functions (no Python frame for TorchDynamo to trace); the
    # condition is a constant while TorchDynamo traces, so the check runs only eagerly.
    if _eager_probe is not None and not _eager_probe[0]():
        _eager_probe[2](_eager_probe[1](), what)


def _mark(annotation: dict[str, Any]) -> contextlib.AbstractContextManager[None]:
    if _annotate is None:
        return contextlib.nullcontext()
    return _annotate(annotation)


def super_kernel_scope(scope: str | None, options: str = "") -> contextlib.AbstractContextManager[None]:
    """Mark the ops run inside as SuperKernel scope `scope` (`None`: do not fuse them).

    `options` are SuperKernel options in the vendor's syntax (`"early-start=1:split-mode=2"`);
    they are checked here, so a bad key fails at the `with` line. The name must be a non-empty
    string of at most 255 bytes, as the vendor requires.
    """
    if scope is not None:
        if not isinstance(scope, str):
            raise SkirError(f"super_kernel_scope: the scope must be a string or None, not {type(scope).__name__}")
        if not scope or len(scope.encode()) > MAX_SCOPE_NAME_BYTES:
            raise SkirError(
                f"super_kernel_scope: scope name '{scope[:40]}' must be 1 to {MAX_SCOPE_NAME_BYTES} bytes long"
            )
    if not isinstance(options, str):
        raise SkirError(f"super_kernel_scope: options must be a string, not {type(options).__name__}")
    options_at(options, f"super_kernel_scope({scope!r}) options")
    _probe_eager(f"super_kernel_scope({scope!r})")
    mark: dict[str, Any] = {SCOPE_KEY + (scope or ""): options}
    current = _current()
    if current:  # the tracer shows the annotation in force (torch.export does; TorchDynamo does not)
        entered_on = current.get(STREAM_KEY)
        mark[SCOPE_STREAM_KEY + (scope or "")] = entered_on if isinstance(entered_on, str) else ""
    return _mark(mark)


def super_kernel(scope: str | None, options: str = "") -> contextlib.AbstractContextManager[None]:
    """torchair's spelling of `super_kernel_scope`: `with super_kernel("layer0", "early-start=1"):`."""
    return super_kernel_scope(scope, options)


def install_scope_calls(begin: Callable[[str | None, str], None], end: Callable[[str | None], None]) -> None:
    """Route `super_kernel_scope_begin` / `_end` to the torch front end's scope ops."""
    global _scope_calls
    _scope_calls = (begin, end)


def _check_scope(scope: str | None, what: str) -> None:
    if scope is not None and (not isinstance(scope, str) or not scope
                              or len(scope.encode()) > MAX_SCOPE_NAME_BYTES):
        raise SkirError(f"{what}: the scope must be None or a string of 1 to {MAX_SCOPE_NAME_BYTES} bytes")


def super_kernel_scope_begin(scope: str | None = None, options: str = "") -> None:
    """Open scope `scope` until `super_kernel_scope_end(scope)`, as torch_npu's function of that
    name (what vllm-ascend calls around a whole captured forward, scope "full_model"). The
    capture checks that ends match begins, innermost first."""
    _check_scope(scope, "super_kernel_scope_begin")
    if not isinstance(options, str):
        raise SkirError(f"super_kernel_scope_begin: options must be a string, not {type(options).__name__}")
    options_at(options, f"super_kernel_scope_begin({scope!r}) options")
    if _scope_calls is not None:
        _scope_calls[0](scope, options)


def super_kernel_scope_end(scope: str | None = None) -> None:
    """Close scope `scope`, opened by `super_kernel_scope_begin`."""
    _check_scope(scope, "super_kernel_scope_end")
    if _scope_calls is not None:
        _scope_calls[1](scope)


def scope_stream(annotation: dict[str, Any], scope: str | None) -> str | None:
    """The stream scope `scope` of an annotation was entered on, when known ("": the main stream)."""
    value = annotation.get(SCOPE_STREAM_KEY + (scope or ""))
    return value if isinstance(value, str) else None


def stream(name: str) -> contextlib.AbstractContextManager[None]:
    """Capture the ops run inside on stream `name` (the model's first stream is `s0`)."""
    if not isinstance(name, str):
        raise SkirError(f"stream: the stream name must be a string, not {type(name).__name__}")
    problem = name_problem(name)
    if problem is not None:
        raise SkirError(f"stream: {problem}")
    _probe_eager(f"stream({name!r})")
    return _mark({STREAM_KEY: name})


def scopes_of(annotation: dict[str, Any]) -> tuple[tuple[str | None, str], ...]:
    """The open scopes of an annotation, outermost first, as (name or None, options)."""
    return tuple(
        (key[len(SCOPE_KEY):] or None, value) for key, value in annotation.items() if key.startswith(SCOPE_KEY)
    )
