"""Faster IRDL verification and printing for skir's ops, which have no successors and at most
one variadic operand group and single results (the `!sk.token`s of a program).

xDSL 0.74's generated `verify_` runs `OpDef.verify`, whose generic variadic-size checks of
operands, results, regions and successors cost about two thirds of the time of verifying an
op (measured on a 30k-task model: 3.7 of 5.1 s of `module.verify()`). `fast_verify(cls)`
replaces it, for such an op class, by the same checks minus that machinery: the operand and
result types, region constraints (for plain regions only that a single-block region has one
block), property and attribute constraints, traits, then the op's own verifier. Constraints of the
shapes skir uses (any, base type, equality, base type with such parameters) are checked by a
compiled predicate first. The class's `verify` skips `Operation.verify`'s
operand and successor checks, which such an op cannot fail. Anything unexpected (an operand,
a region too many, a missing or unknown property, a value a predicate does not accept) falls
back to xDSL's own code, so every error keeps xDSL's own message.

It reads the generated verifier's closure (`op_def`, `custom_verify`), which this xDSL version
builds in `irdl_op_definition`; if that shape ever differs, it fails loudly
(`skir.xdsl_fast.XdslShortcutError`), as the package's probe does.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from xdsl.dialects.builtin import ArrayAttr, ArrayOfConstraint, StringAttr, SymbolNameConstraint
from xdsl.ir import Attribute, Operation, Region
from xdsl.irdl import IRDLOperation
from xdsl.irdl.constraints import (
    AnyAttr,
    AttrConstraint,
    BaseAttr,
    EqAttrConstraint,
    ParamAttrConstraint,
    RangeOf,
    SingleOf,
)
from xdsl.irdl.constraints import VerificationContext as _Context
from xdsl.irdl.operations import (
    OpDef,
    OptAttributeDef,
    OptPropertyDef,
    RegionDef,
    ResultDef,
    SingleBlockRegionDef,
    VarOperandDef,
    irdl_op_verify_regions,
)
from xdsl.utils.exceptions import VerifyException


def _quick_check(constr: AttrConstraint) -> Callable[[Attribute], bool] | None:
    """A predicate that is true only for a value `constr` accepts, for the constraint shapes
    skir's ops use (any, base type, symbol name, equality, an array of such, a base type with
    such parameters); None for any other shape. A value it does not accept goes to
    `constr.verify`, for xDSL's message."""
    if isinstance(constr, AnyAttr):
        return lambda value: True
    if isinstance(constr, BaseAttr):
        base = constr.attr
        return lambda value: isinstance(value, base)
    if isinstance(constr, SymbolNameConstraint):
        return lambda value: isinstance(value, StringAttr)
    if isinstance(constr, ArrayOfConstraint) and type(constr.elem_range_constraint) is RangeOf:
        element = _quick_check(constr.elem_range_constraint.constr)
        if element is None:
            return None
        return lambda value: isinstance(value, ArrayAttr) and all(element(e) for e in value.data)
    if isinstance(constr, EqAttrConstraint):
        expected = constr.attr
        return lambda value: value is expected or value == expected
    if isinstance(constr, ParamAttrConstraint):
        checks = [_quick_check(c) for c in constr.param_constrs]
        if any(c is None for c in checks):
            return None
        base, n = constr.base_attr, len(checks)

        def params_ok(value: Attribute) -> bool:
            if not isinstance(value, base):
                return False
            params = value.parameters
            return len(params) == n and all(c(p) for c, p in zip(checks, params, strict=True))  # type: ignore[misc]

        return params_ok
    return None


def _plain_regions(op_def: OpDef) -> tuple[bool, ...] | None:
    """For region definitions that are plain `region_def()` / `region_def("single_block")` with
    any entry arguments, whether each must hold one block; None for any other shape (variadic,
    optional, constrained entry arguments), which xDSL checks."""
    out = []
    for _, region_def in op_def.regions:
        args = region_def.entry_args
        if type(region_def) not in (RegionDef, SingleBlockRegionDef) or type(args) is not RangeOf \
                or type(args.constr) is not AnyAttr:
            return None
        out.append(type(region_def) is SingleBlockRegionDef)
    return tuple(out)


def _value_checks(op_def: OpDef) -> tuple[Callable[[Attribute], bool], int, Callable[[Attribute], bool]] | None:
    """For an op whose operands are none or one variadic group and whose results are single
    values, each of a type a quick predicate decides: (the operands' predicate, the number of
    results, their predicate); None for any other shape, which xDSL checks."""
    operand_ok: Callable[[Attribute], bool] = lambda value: False  # noqa: E731 (no operand is expected)
    if op_def.operands:
        if len(op_def.operands) != 1:
            return None
        (_, operand), = op_def.operands
        if type(operand) is not VarOperandDef or type(operand.constr) is not RangeOf:
            return None
        quick = _quick_check(operand.constr.constr)
        if quick is None:
            return None
        operand_ok = quick
    checks = []
    for _, result in op_def.results:
        if type(result) is not ResultDef or type(result.constr) is not SingleOf:
            return None
        quick = _quick_check(result.constr.constr)
        if quick is None:
            return None
        checks.append(quick)
    if len(set(map(id, checks))) > 1:
        return None
    return operand_ok, len(checks), checks[0] if checks else (lambda value: False)


def _one_block(region: Region) -> bool:
    first = region.first_block
    return first is not None and first.next_block is None


def fast_verify(cls: type[IRDLOperation]) -> type[IRDLOperation]:
    """Give `cls` the faster verifier (see the module docstring); returns `cls`."""
    generated = cls.verify_
    cells = dict(zip(generated.__code__.co_freevars, (c.cell_contents for c in generated.__closure__ or ()),
                     strict=True))
    if "op_def" not in cells or "custom_verify" not in cells:
        from skir.xdsl_fast import _fail

        raise _fail(f"the closure cells 'op_def' and 'custom_verify' in {cls.__name__}'s generated verifier")
    op_def, custom = cells["op_def"], cells["custom_verify"]
    values = _value_checks(op_def)
    if values is None or op_def.successors:
        return cls  # another shape of operands or results keeps xDSL's own verifier
    operand_ok, n_results, result_ok = values

    def compiled(defs: dict[str, Any], optional_kind: type) -> tuple[tuple[str, Any, Any, bool], ...]:
        return tuple((name, d.constr, _quick_check(d.constr), isinstance(d, optional_kind)) for name, d in defs.items())

    props = compiled(op_def.properties, OptPropertyDef)
    attrs = compiled(op_def.attributes, OptAttributeDef)
    known = frozenset(op_def.properties)
    traits = tuple(op_def.traits)
    n_regions = len(op_def.regions)
    single_block = _plain_regions(op_def)

    def verify_(self: IRDLOperation) -> None:
        if (self._successors or len(self.regions) != n_regions or not known.issuperset(self.properties)
                or len(self.results) != n_results
                or (self._operands and not all(operand_ok(v.type) for v in self._operands))
                or (n_results and not all(result_ok(r.type) for r in self.results))):
            op_def.verify(self)
        else:
            context = None
            if n_regions and (single_block is None or not all(
                    _one_block(r) for r, one in zip(self.regions, single_block, strict=True) if one)):
                context = _Context()
                irdl_op_verify_regions(self, op_def, context)
            for table, defs in ((self.properties, props), (self.attributes, attrs)):
                for name, constr, quick, optional in defs:
                    value = table.get(name)
                    if value is None:
                        if not optional:
                            op_def.verify(self)  # raises xDSL's message for the missing entry
                            raise VerifyException(f"'{name}' expected in operation '{self.name}'")
                        continue
                    if quick is None or not quick(value):
                        constr.verify(value, context or _Context())
            for trait in traits:
                trait.verify(self)
        if custom is not None:
            custom(self)

    def verify(self: IRDLOperation, verify_nested_ops: bool = True) -> None:
        # Operation.verify minus its operand and successor checks, for an op with neither
        if self._operands or self._successors:
            Operation.verify(self, verify_nested_ops)
            return
        block = self.parent
        if block is not None and block.last_op is self and block.parent is not None:
            Operation.verify(self, verify_nested_ops)  # the terminator rules, as xDSL words them
            return
        if verify_nested_ops:
            for region in self.regions:
                region.verify()
        try:
            self.verify_()
        except VerifyException as err:
            self.emit_error(f"Operation does not verify: {err}", err)

    setattr(cls, "verify_", verify_)  # replaces the generated method
    setattr(cls, "verify", verify)
    return cls


def fast_verify_all(classes: Iterable[type[Operation]]) -> None:
    """`fast_verify` and `fast_print` for every op class of a dialect (all IRDL ops)."""
    for cls in classes:
        assert issubclass(cls, IRDLOperation), cls
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

    setattr(cls, "print", print_)  # replaces the generated method
    return cls
