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
from skir.options import parse_options

SCOPE_KEY = "skir.scope:"
"""Prefix of the annotation key of an open scope; the rest of the key is its name (empty for None)."""

STREAM_KEY = "skir.stream"
"""Annotation key of the current stream's name."""

MAX_SCOPE_NAME_BYTES = 255
"""The vendor's limit on a scope name (256 bytes with the terminator)."""

_annotate: Callable[[dict[str, Any]], contextlib.AbstractContextManager[None]] | None = None
"""`torch.fx.traceback.annotate`, installed by the torch front end when it is imported."""


def install_annotator(annotate: Callable[[dict[str, Any]], contextlib.AbstractContextManager[None]]) -> None:
    """Route the marks through `annotate` (the torch front end installs torch's)."""
    global _annotate
    _annotate = annotate


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
    parse_options(options)
    return _mark({SCOPE_KEY + (scope or ""): options})


def stream(name: str) -> contextlib.AbstractContextManager[None]:
    """Capture the ops run inside on stream `name` (the model's first stream is `s0`)."""
    if not isinstance(name, str):
        raise SkirError(f"stream: the stream name must be a string, not {type(name).__name__}")
    problem = name_problem(name)
    if problem is not None:
        raise SkirError(f"stream: {problem}")
    return _mark({STREAM_KEY: name})


def scopes_of(annotation: dict[str, Any]) -> tuple[tuple[str | None, str], ...]:
    """The open scopes of an annotation, outermost first, as (name or None, options)."""
    return tuple(
        (key[len(SCOPE_KEY):] or None, value) for key, value in annotation.items() if key.startswith(SCOPE_KEY)
    )
