"""Faster IRDL verification and printing for skir's ops, which have no operands, results or
successors.

xDSL 0.74's generated `verify_` runs `OpDef.verify`, whose generic variadic-size checks of
operands, results, regions and successors cost about two thirds of the time of verifying an
op with none of them (measured on a 30k-task model: 3.7 of 5.1 s of `module.verify()`).
`fast_verify(cls)` replaces it, for such an op class, by the same checks minus that machinery:
region constraints, property and attribute constraints, traits, then the op's own verifier.
Anything unexpected (an operand, a region too many, a missing or unknown property) falls back
to `OpDef.verify`, so every error keeps xDSL's own message.

It reads the generated verifier's closure (`op_def`, `custom_verify`), which this xDSL version
builds in `irdl_op_definition`; if that shape ever differs, the class is left as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from xdsl.irdl import IRDLOperation
from xdsl.irdl.constraints import VerificationContext as _Context
from xdsl.irdl.operations import OptAttributeDef, OptPropertyDef, irdl_op_verify_regions
from xdsl.utils.exceptions import VerifyException


def fast_verify(cls: type[IRDLOperation]) -> type[IRDLOperation]:
    """Give `cls` the faster verifier (see the module docstring); returns `cls`."""
    generated = cls.verify_
    cells = dict(zip(generated.__code__.co_freevars, (c.cell_contents for c in generated.__closure__ or ()),
                     strict=True))
    op_def, custom = cells.get("op_def"), cells.get("custom_verify")
    if op_def is None or op_def.operands or op_def.results or op_def.successors:
        return cls
    props = tuple((name, d.constr, isinstance(d, OptPropertyDef)) for name, d in op_def.properties.items())
    attrs = tuple((name, d.constr, isinstance(d, OptAttributeDef)) for name, d in op_def.attributes.items())
    known = frozenset(op_def.properties)
    traits = tuple(op_def.traits)
    n_regions = len(op_def.regions)

    def verify_(self: IRDLOperation) -> None:
        if (self.operands or self.results or self.successors or len(self.regions) != n_regions
                or not known.issuperset(self.properties)):
            op_def.verify(self)
        else:
            context = _Context()
            if n_regions:
                irdl_op_verify_regions(self, op_def, context)
            for table, defs in ((self.properties, props), (self.attributes, attrs)):
                for name, constr, optional in defs:
                    value = table.get(name)
                    if value is None:
                        if not optional:
                            op_def.verify(self)  # raises xDSL's message for the missing entry
                            raise VerifyException(f"'{name}' expected in operation '{self.name}'")
                        continue
                    constr.verify(value, context)
            for trait in traits:
                trait.verify(self)
        if custom is not None:
            custom(self)

    cls.verify_ = verify_  # type: ignore[method-assign]
    return cls


def fast_verify_all(classes: Iterable[type[IRDLOperation]]) -> None:
    """`fast_verify` and `fast_print` for every op class of a dialect."""
    for cls in classes:
        fast_verify(cls)
        fast_print(cls)


_PLAIN = re.compile(r"[\x20\x21\x23-\x5b\x5d-\x7e]*\Z")


def string_literal(text: str) -> str:
    """`text` as xDSL's printer writes a string literal (printable ASCII but `"` and `\\` as
    is, `\\` doubled, every other byte of its UTF-8 as `\\XX`), in one step for plain text."""
    if _PLAIN.match(text):
        return f'"{text}"'
    out = []
    for byte in text.encode("utf-8"):
        if byte == 0x5C:
            out.append("\\\\")
        elif byte < 0x20 or byte > 0x7E or byte == 0x22:
            out.append(f"\\{byte:02X}")
        else:
            out.append(chr(byte))
    return '"' + "".join(out) + '"'


def fast_print(cls: type[IRDLOperation]) -> type[IRDLOperation]:
    """Replace the declarative-format printer of `cls` by a compiled one with the same output,
    for formats made of `$property`, `` `keyword` ``, `$region` and `attr-dict[-with-keyword]`
    only (xDSL's general printer costs about 30 us an op; an entry has a dozen ops a sub-task).
    Any other format, or a property type it does not know, leaves the class as it is."""
    from xdsl.dialects.builtin import IntegerAttr, StringAttr
    from xdsl.dialects.utils import EnumAttribute
    from xdsl.printer import Printer

    text = getattr(cls, "assembly_format", None)
    if not isinstance(text, str):
        return cls
    op_def = cls.get_irdl_definition()
    regions = {name for name, _ in op_def.regions}
    steps: list[tuple[str, str]] = []
    for token in text.split():
        if token.startswith("`") and token.endswith("`"):
            steps.append(("keyword", token[1:-1]))
        elif token in ("attr-dict", "attr-dict-with-keyword"):
            steps.append((token, ""))
        elif token.startswith("$") and token[1:] in regions:
            steps.append(("region", token[1:]))
        elif token.startswith("$") and token[1:] in op_def.properties:
            steps.append(("property", token[1:]))
        else:
            return cls
    symbol = "sym_name"

    def print_(self: IRDLOperation, printer: Printer) -> None:
        for kind, name in steps:
            if kind == "keyword":
                printer.print_string(" " + name)
            elif kind == "property":
                value = self.properties[name]
                printer.print_string(" ")
                if name == symbol and isinstance(value, StringAttr):
                    printer.print_symbol_name(value.data)
                elif isinstance(value, StringAttr):
                    printer.print_string(string_literal(value.data))
                elif isinstance(value, IntegerAttr):
                    printer.print_string(str(value.value.data))
                elif isinstance(value, EnumAttribute):
                    printer.print_string(str(value.data.value))
                else:
                    printer.print_attribute(value)
            elif kind == "region":
                printer.print_string(" ")
                printer.print_region(getattr(self, name))
            else:
                printer.print_op_attributes(self.attributes, print_keyword=kind == "attr-dict-with-keyword")

    cls.print = print_  # type: ignore[method-assign]
    return cls
