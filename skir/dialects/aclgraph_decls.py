"""Symbol declarations of the `aclgraph` dialect: kernels, buffers, events and cells.

```mlir
aclgraph.kernel @qkv mix_aic_1_2 params(in, in, out, workspace) batch code_bytes 8192
aclgraph.kernel @opaque_k aiv_only params 3 not_sk_capable early_start(set)
aclgraph.buffer @x bytes 65536
aclgraph.event @e0
aclgraph.cell @c0
```
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects.builtin import ArrayAttr, IntAttr, StringAttr, UnitAttr
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation, irdl_op_definition, lazy_traits_def, opt_prop_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import SymbolOpInterface

from skir.dialects.aclgraph_enums import (
    KernelType,
    KernelTypeAttr,
    ParamRole,
    ParamRoleAttr,
    SchedMode,
    SchedModeAttr,
    kernel_type_attr,
    param_role_attr,
    sched_mode_attr,
)
from skir.dialects.parent_trait import HasParentNamed
from skir.dialects.syntax import int_attr, new_op, parse_enum, parse_int_in, parse_paren_list, quoted
from skir.errors import TaskVerifyException, task_path

_UNIT = UnitAttr()

_KERNEL_CLAUSES = (
    "batch", "block_dim_scale_up", "not_sk_capable", "early_start", "dcci", "code_bytes", "sk_symbol", "split_copies",
    "sync_flags", "sk_system_args",
)
# kernel clause -> ((label, property), ...) for the flag-list clauses
_FLAG_GROUPS = (
    ("early_start", (("set", "early_start_set"), ("wait", "early_start_wait"))),
    ("dcci", (("before", "dcci_before"), ("after", "dcci_after"), ("disable", "dcci_disable"))),
)


def _model_parent() -> tuple[HasParentNamed, SymbolOpInterface]:
    return HasParentNamed(("aclgraph.model",)), SymbolOpInterface()


class _SymbolDecl(IRDLOperation):
    """Shared parse / print of `<op> @name <clauses> [attributes {...}]`."""

    sym_name = prop_def(StringAttr)

    traits = lazy_traits_def(_model_parent)

    @classmethod
    def parse_clauses(cls, parser: Parser, props: dict[str, Attribute]) -> None:
        pass

    def print_clauses(self, printer: Printer) -> None:
        pass

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        props: dict[str, Attribute] = {"sym_name": parser.parse_symbol_name()}
        cls.parse_clauses(parser, props)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        return new_op(cls, props, attributes=attrs.data if attrs else None)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        self.print_clauses(printer)
        printer.print_op_attributes(self.attributes, print_keyword=True)


@irdl_op_definition
class KernelOp(_SymbolDecl):
    """A kernel binary and what skir must know about it to fuse it.

    Clauses after the kernel type, each optional and printed in this order:
    `params(<role>, ...)` or `params N` (no roles), `batch` (sched mode: all blocks
    co-resident), `block_dim_scale_up` (a batch kernel that tolerates running on more
    blocks than it asked for, the vendor's cap bit 4), `not_sk_capable`, `early_start(set, wait)` (the kernel runs the
    early-start handshake itself), `dcci(before, after, disable)`, `code_bytes N`,
    `sk_symbol "name"` (default `<kernel>_middle`), `split_copies N`, `sync_flags [ids]`
    (cross-core flag ids the kernel uses itself), `sk_system_args` (the sub-kernel takes its
    logical block index and count in an `sk::SkSystemArgs`, so it may run on any core range).
    """

    name = "aclgraph.kernel"

    kernel_type = prop_def(KernelTypeAttr)
    params = opt_prop_def(ArrayAttr[ParamRoleAttr])
    param_count = opt_prop_def(IntAttr)
    sched_mode = opt_prop_def(SchedModeAttr)
    block_dim_scale_up = opt_prop_def(UnitAttr)
    not_sk_capable = opt_prop_def(UnitAttr)
    early_start_set = opt_prop_def(UnitAttr)
    early_start_wait = opt_prop_def(UnitAttr)
    dcci_before = opt_prop_def(UnitAttr)
    dcci_after = opt_prop_def(UnitAttr)
    dcci_disable = opt_prop_def(UnitAttr)
    code_bytes = opt_prop_def(IntAttr)
    sk_symbol = opt_prop_def(StringAttr)
    split_copies = opt_prop_def(IntAttr)
    sync_flags = opt_prop_def(ArrayAttr[IntAttr])
    sk_system_args = opt_prop_def(UnitAttr)

    def __init__(
        self,
        sym_name: str,
        kernel_type: KernelType,
        params: list[ParamRole] | int,
        *,
        sched_mode: SchedMode = SchedMode.NORMAL,
        block_dim_scale_up: bool = False,
        sk_capable: bool = True,
        early_start: tuple[bool, bool] = (False, False),
        dcci: tuple[bool, bool, bool] = (False, False, False),
        code_bytes: int | None = None,
        sk_symbol: str | None = None,
        split_copies: int | None = None,
        sync_flags: list[int] | None = None,
        sk_system_args: bool = False,
    ):
        props: dict[str, Attribute] = {
            "sym_name": StringAttr(sym_name),
            "kernel_type": kernel_type_attr(kernel_type),
        }
        if isinstance(params, int):
            props["param_count"] = int_attr(params)
        else:
            props["params"] = ArrayAttr(param_role_attr(r) for r in params)
        if sched_mode is SchedMode.BATCH:
            props["sched_mode"] = sched_mode_attr(sched_mode)
        flags = {
            "block_dim_scale_up": block_dim_scale_up,
            "not_sk_capable": not sk_capable,
            "early_start_set": early_start[0],
            "early_start_wait": early_start[1],
            "dcci_before": dcci[0],
            "dcci_after": dcci[1],
            "dcci_disable": dcci[2],
            "sk_system_args": sk_system_args,
        }
        props.update({k: _UNIT for k, on in flags.items() if on})
        if code_bytes is not None:
            props["code_bytes"] = int_attr(code_bytes)
        if sk_symbol is not None:
            props["sk_symbol"] = StringAttr(sk_symbol)
        if split_copies is not None:
            props["split_copies"] = int_attr(split_copies)
        if sync_flags is not None:
            props["sync_flags"] = ArrayAttr(int_attr(f) for f in sync_flags)
        super().__init__(properties=props)

    # ---- typed accessors -------------------------------------------------------------

    @property
    def type(self) -> KernelType:
        return self.kernel_type.data

    @property
    def num_params(self) -> int:
        return len(self.params) if self.params is not None else self.param_count.data  # type: ignore

    @property
    def roles(self) -> tuple[ParamRole, ...] | None:
        return None if self.params is None else tuple(r.data for r in self.params)

    @property
    def is_batch(self) -> bool:
        return self.sched_mode is not None and self.sched_mode.data is SchedMode.BATCH

    @property
    def needs_exact_blocks(self) -> bool:
        """A batch kernel without `block_dim_scale_up`: the SuperKernel's cores of its type
        must equal its own demand (docs/design.md §3 "Launch shape")."""
        return self.is_batch and self.block_dim_scale_up is None

    @property
    def scales_up(self) -> bool:
        """A batch kernel with `block_dim_scale_up`: it runs on the SuperKernel's blocks."""
        return self.is_batch and self.block_dim_scale_up is not None

    @property
    def takes_system_args(self) -> bool:
        """The sub-kernel is called as `f(args, sk::SkSystemArgs *)` with its logical block index
        and count (the vendor's direct-launch ABI), so it may run on a core range at an offset."""
        return self.sk_system_args is not None

    @property
    def sub_symbol(self) -> str:
        """The SuperKernel sub-kernel symbol (`sk_symbol`, default `<kernel>_middle`)."""
        return self.sk_symbol.data if self.sk_symbol is not None else f"{self.sym_name.data}_middle"

    # ---- syntax ----------------------------------------------------------------------

    @classmethod
    def parse_clauses(cls, parser: Parser, props: dict[str, Attribute]) -> None:
        props["kernel_type"] = kernel_type_attr(parse_enum(parser, KernelType, "kernel type"))
        parser.parse_keyword("params")
        if (count := parser.parse_optional_integer(allow_boolean=False)) is not None:
            props["param_count"] = int_attr(count)
        else:
            roles = parse_paren_list(parser, lambda: parse_enum(parser, ParamRole, "param role"))
            props["params"] = ArrayAttr(param_role_attr(r) for r in roles)
        seen: set[str] = set()
        while True:
            start = parser.pos
            word = parser.parse_optional_keyword_in(_KERNEL_CLAUSES)
            if word is None:
                return
            if word in seen:
                parser.raise_error(f"clause '{word}' given twice", start, parser.pos)
            seen.add(word)
            if word == "batch":
                props["sched_mode"] = sched_mode_attr(SchedMode.BATCH)
            elif word == "block_dim_scale_up":
                props["block_dim_scale_up"] = _UNIT
            elif word == "not_sk_capable":
                props["not_sk_capable"] = _UNIT
            elif word in ("early_start", "dcci"):
                names = dict(dict(_FLAG_GROUPS)[word])
                for item in parse_paren_list(parser, parser.parse_identifier):
                    if item not in names:
                        parser.raise_error(
                            f"'{word}' takes {', '.join(names)}; got '{item}'", start, parser.pos
                        )
                    props[names[item]] = _UNIT
            elif word == "code_bytes":
                props["code_bytes"] = int_attr(parse_int_in(parser, 0, 1 << 40, "code_bytes"))
            elif word == "sk_symbol":
                props["sk_symbol"] = StringAttr(parser.parse_str_literal())
            elif word == "split_copies":
                props["split_copies"] = int_attr(parse_int_in(parser, 1, 64, "split_copies"))
            elif word == "sk_system_args":
                props["sk_system_args"] = _UNIT
            else:
                ids = parser.parse_comma_separated_list(
                    Parser.Delimiter.SQUARE, lambda: parse_int_in(parser, 0, 15, "sync flag id")
                )
                props["sync_flags"] = ArrayAttr(int_attr(i) for i in ids)

    def print_clauses(self, printer: Printer) -> None:
        printer.print_string(" " + self.type.value)
        if self.params is not None:
            printer.print_string(" params(" + ", ".join(r.data.value for r in self.params) + ")")
        elif self.param_count is not None:
            printer.print_string(f" params {self.param_count.data}")
        if self.is_batch:
            printer.print_string(" batch")
        if self.block_dim_scale_up is not None:
            printer.print_string(" block_dim_scale_up")
        if self.not_sk_capable is not None:
            printer.print_string(" not_sk_capable")
        for word, items in _FLAG_GROUPS:
            on = [label for label, prop in items if prop in self.properties]
            if on:
                printer.print_string(f" {word}({', '.join(on)})")
        if self.code_bytes is not None:
            printer.print_string(f" code_bytes {self.code_bytes.data}")
        if self.sk_symbol is not None:
            printer.print_string(" sk_symbol " + quoted(self.sk_symbol.data))
        if self.split_copies is not None:
            printer.print_string(f" split_copies {self.split_copies.data}")
        if self.sync_flags is not None:
            printer.print_string(" sync_flags [" + ", ".join(str(f.data) for f in self.sync_flags) + "]")
        if self.sk_system_args is not None:
            printer.print_string(" sk_system_args")

    def verify_(self) -> None:
        where = task_path(self)
        if (self.params is None) == (self.param_count is None):
            self._fail(f"{where}: give exactly one of 'params' (roles) and 'param_count'")
        if self.param_count is not None and self.param_count.data < 0:
            self._fail(f"{where}: param_count must be >= 0")
        if self.split_copies is not None and not 1 <= self.split_copies.data <= 64:
            self._fail(f"{where}: split_copies must be in [1, 64]")
        for flag in self.sync_flags or ():
            if not 0 <= flag.data <= 15:
                self._fail(f"{where}: sync flag id {flag.data} is not in [0, 15]")
        symbol = self.sub_symbol
        if not symbol or not (symbol[0].isalpha() or symbol[0] == "_") or not all(
            c.isalnum() or c == "_" for c in symbol
        ):
            self._fail(
                f"{where}: sub-kernel symbol '{symbol}' is not a C identifier; rename the kernel or give sk_symbol"
            )

    def _fail(self, message: str) -> None:
        raise TaskVerifyException(self, message)


@irdl_op_definition
class BufferOp(_SymbolDecl):
    """A device buffer passed as a kernel argument: `aclgraph.buffer @x bytes 65536`.

    `bytes` is optional (size unknown).
    """

    name = "aclgraph.buffer"

    size = opt_prop_def(IntAttr, prop_name="bytes")

    def __init__(self, sym_name: str, size: int | None = None):
        props: dict[str, Attribute] = {"sym_name": StringAttr(sym_name)}
        if size is not None:
            props["bytes"] = int_attr(size)
        super().__init__(properties=props)

    @classmethod
    def parse_clauses(cls, parser: Parser, props: dict[str, Attribute]) -> None:
        if parser.parse_optional_keyword("bytes"):
            props["bytes"] = int_attr(parse_int_in(parser, 0, (1 << 63) - 1, "bytes"))

    def print_clauses(self, printer: Printer) -> None:
        if self.size is not None:
            printer.print_string(f" bytes {self.size.data}")


@irdl_op_definition
class EventOp(_SymbolDecl):
    """An event, recorded / waited / reset by tasks: `aclgraph.event @e0`."""

    name = "aclgraph.event"

    def __init__(self, sym_name: str):
        super().__init__(properties={"sym_name": StringAttr(sym_name)})


@irdl_op_definition
class CellOp(_SymbolDecl):
    """A 64-bit device memory cell (initially 0) for value_write / value_wait."""

    name = "aclgraph.cell"

    def __init__(self, sym_name: str):
        super().__init__(properties={"sym_name": StringAttr(sym_name)})
