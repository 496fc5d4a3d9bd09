"""The SuperKernel scopes open while one FX graph is captured, and the markers they put on the
streams (docs/design.md §1, §3 "Scopes and candidates").

A scope comes from a node's `skir.super_kernel_scope` annotation (`skir.marks`) or from a
`skir::scope_begin` / `skir::scope_end` call node (`scope_ops`); calls are outermost. When the
scopes wanted at a node differ from the ones open, the inner ones that differ are closed and
the new ones opened, each marker on the stream its scope was entered on, with spare slots as
the vendor's markers have:

```
with skir.super_kernel_scope("mlp"):      s0: scope_begin "mlp", placeholder, placeholder,
    y = torch.relu(self.fc(x))                kernel linear, kernel relu,
                                              placeholder, placeholder, scope_end "mlp"
```
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from torch import fx

import skir.frontends.torch.scope_ops as scope_ops
from skir.errors import SkirError
from skir.frontends.torch.scope_ops import is_scope_op
from skir.frontends.torch.stream_capture import StreamCapture
from skir.frontends.torch.user_code import where
from skir.marks import STREAM_KEY, scope_stream, scopes_of

PLACEHOLDERS_PER_MARK = 2
"""Spare slots captured after a scope begin and before a scope end, as the vendor's markers do."""


class UnbalancedScopeError(SkirError):
    """A `super_kernel_scope_end` without its begin, or a begin never ended, in one graph."""

    def __init__(self, message: str, at: str, scope: str | None) -> None:
        super().__init__(message)
        self.at = at
        self.scope = scope


@dataclass
class ScopeMarks:
    """The scopes open in one graph's capture; the markers go to the `StreamCapture` given."""

    open: list[tuple[str | None, str, str]] = field(default_factory=list)
    """Open scopes, outermost first: (name, options, stream of the begin)."""
    called: list[tuple[str | None, str, str, str]] = field(default_factory=list)
    """Scopes open by super_kernel_scope_begin calls: (name, options, stream, where)."""

    def call(self, node: fx.Node, streams: StreamCapture) -> bool:
        """Open or close a scope at a `skir::scope_begin` / `skir::scope_end` node."""
        if is_scope_op(node.target, scope_ops.BEGIN):
            scope, options = node.args[0], node.args[1] if len(node.args) > 1 else node.kwargs.get("options", "")
            stream = (node.meta.get("custom") or {}).get(STREAM_KEY, streams.main)
            self.called.append((scope, str(options), stream, where(node)))  # type: ignore[arg-type]
            return True
        if is_scope_op(node.target, scope_ops.END):
            scope = node.args[0] if node.args else node.kwargs.get("scope")
            if not self.called or self.called[-1][0] != scope:
                innermost = f"the innermost is {self.called[-1][0]!r}" if self.called else "none is open"
                raise UnbalancedScopeError(
                    f"{where(node)}: super_kernel_scope_end({scope!r}) closes no open scope ({innermost}); "
                    "end scopes in the reverse order of super_kernel_scope_begin", where(node),
                    scope if isinstance(scope, str) else None)
            self.called.pop()
            return True
        return False

    def enter(self, node: fx.Node, stream: str, streams: StreamCapture) -> None:
        """Make the open scopes the ones `node` (captured on `stream`) is in."""
        annotation = node.meta.get("custom") or {}
        # scopes opened by calls are outermost; each knows the stream it was entered on
        wanted = tuple((scope, options) for scope, options, _, _ in self.called) + scopes_of(annotation)
        keep = 0
        while keep < min(len(wanted), len(self.open)) and wanted[keep] == self.open[keep][:2]:
            keep += 1
        self.close(keep, streams)
        for i, (scope, options) in enumerate(wanted[keep:], start=keep):
            # the markers go where the scope was entered
            recorded = scope_stream(annotation, scope)
            entered = (self.called[i][2] if i < len(self.called)
                       else streams.main if recorded == "" else recorded or stream)
            begin: dict[str, Any] = {"type": "scope_begin", "scope": scope}
            if options:
                begin["options"] = options
            streams.append(entered, begin)
            for _ in range(PLACEHOLDERS_PER_MARK):
                streams.append(entered, {"type": "placeholder"})
            self.open.append((scope, options, entered))

    def close(self, keep: int, streams: StreamCapture) -> None:
        """Close the open scopes but the `keep` outermost."""
        while len(self.open) > keep:
            scope, _, stream = self.open.pop()
            for _ in range(PLACEHOLDERS_PER_MARK):
                streams.append(stream, {"type": "placeholder"})
            streams.append(stream, {"type": "scope_end", "scope": scope})

    def finish(self, streams: StreamCapture) -> None:
        """At the end of the graph: refuse a scope begun by a call and never ended, close the rest."""
        if self.called:
            scope, _, _, at = self.called[-1]
            raise UnbalancedScopeError(f"{at}: super_kernel_scope_begin({scope!r}) is never ended; call "
                                       f"super_kernel_scope_end({scope!r}) before the model returns", at, scope)
        self.close(0, streams)
