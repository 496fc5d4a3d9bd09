"""The parsed SuperKernel options as one attribute (docs/design.md §4).

`sk.kernel` carries the options of its scope as an `SkOptionsAttr`: parsed and checked once,
when the IR is built or parsed, and read by every pass after `sk-outline` as typed fields. It
prints in the vendor's syntax, the explicitly given keys in canonical `key=value:...` form:

```mlir
// custom form, on sk.kernel
sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 7 options "early-start=1:split-mode=2" {...}
// generic form
"sk.kernel"() <{..., options = #sk.options<"early-start=1:split-mode=2">}> ({...}) : () -> ()
```

A bad string is an error at its location when the IR is parsed:

```
m.mlir:3:52: options: option 'split-mode': expected an integer in 1..64, got '0'
```
"""

from __future__ import annotations

from xdsl.ir import Data
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer

from skir.dialects.syntax import quoted
from skir.errors import SkirError
from skir.options import SkOptions, parse_options


@irdl_attr_definition
class SkOptionsAttr(Data[SkOptions]):
    """SuperKernel options, typed (`skir.options.SkOptions`); the string form exists only in
    the IR text."""

    name = "sk.options"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> SkOptions:
        with parser.in_angle_brackets():
            return parse_options_literal(parser)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{quoted(self.data.to_string())}>")

    def text(self) -> str:
        """The options in the vendor's syntax (the given keys, canonical order)."""
        return self.data.to_string()


def parse_options_literal(parser: AttrParser) -> SkOptions:
    """A string literal holding vendor options, parsed; a bad one is an error at the literal."""
    start = parser.pos
    text = parser.parse_str_literal()
    try:
        options, _ = parse_options(text)
    except SkirError as err:
        parser.raise_error(f"options: {err}", start, parser.pos)
    return options
