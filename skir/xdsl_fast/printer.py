"""`ir_text`: the text `str(op)` gives, written straight into a buffer.

```python
text = ir_text(module)   # == str(module)
```
xDSL's printer writes every token through the `print` builtin (`print(text, end="",
file=stream)`), about a third of printing a lowered model with a million tokens. This printer
is xDSL's `Printer` with the two writing methods (`print_string` for text without a newline,
`_print_new_line`) writing to the stream directly, in the same order, with the same line and
column bookkeeping; text with newlines goes through xDSL's own method. An op of skir's goes
straight to its own printer (see `DirectPrinter`).
"""

from __future__ import annotations

from io import StringIO

from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Operation
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove

_PLAIN: dict[type[Operation], bool] = {}


class DirectPrinter(Printer):
    """`Printer`, writing with `stream.write` instead of the `print` builtin, and printing an op
    with a custom format, no diagnostic and no SSA scope of its own (skir's ops) without the
    checks that find that out (the same text as `Printer.print_op`; its results through
    `Printer._print_results`)."""

    def print_op(self, op: Operation) -> None:
        cls = type(op)
        plain = _PLAIN.get(cls)
        if plain is None:
            plain = _PLAIN[cls] = (cls.print is not Operation.print and not isinstance(op, UnregisteredOp)
                                   and not op.get_traits_of_type(IsolatedFromAbove))
        if (not plain or self.print_generic_format or self.print_debuginfo
                or op in self.diagnostic.op_messages):
            super().print_op(op)
            return
        if op.results:
            self._print_results(op)
        self._current_column += len(op.name)
        self.stream.write(op.name)  # type: ignore[union-attr]
        op.print(self)

    def print_string(self, text: str, *, indent: int | None = None) -> None:
        if "\n" in text:
            super().print_string(text, indent=indent)
            return
        self._current_column += len(text)
        self.stream.write(text)  # type: ignore[union-attr]

    def _print_new_line(self, indent: int | None = None, print_message: bool = True) -> None:
        indent = self._indent if indent is None else indent
        self.stream.write("\n")  # type: ignore[union-attr]
        self._current_line += 1
        if print_message and self._next_line_callback:
            for callback in self._next_line_callback:
                callback()
            self._next_line_callback = []
        spaces = indent * self.indent_num_spaces
        self.stream.write(" " * spaces)  # type: ignore[union-attr]
        self._current_column = spaces


def ir_text(op: Operation) -> str:
    """`str(op)`, faster."""
    out = StringIO()
    DirectPrinter(stream=out).print_op(op)
    return out.getvalue()
