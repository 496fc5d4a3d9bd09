"""Synchronisation, lock, preload and cache ops of the `sk` dialect (the flag ops live in
`skir.dialects.superkernel_flags`).

Each op says the core types that run it (`on aic|aiv`; a barrier by its kind, `pipe_all`
with `on aic|aiv|mix`).

```mlir
sk.barrier id 3 all_aiv                        // every AIV reaches it (mode-0 flag 14)
sk.early_start_set id 6 on aiv idle 8          // SetNextTaskStart on blocks >= 8
sk.early_start_wait id 7 cfg 5 on aiv          // WaitPreTaskEndImpl<5>
sk.notify id 8 @cell slot 4 on aiv             // block 0 stores 1 to a GM lock (after [ids]: its deps)
sk.wait_lock id 9 @cell slot 5 on aic          // block 0 polls it (before [ids]: its dependents)
sk.reset_lock id 10 @cell slot 5 on aic        // block 0 stores 0 at exit
sk.preload id 0 @rms_norm units 3 blocks 48 on aiv
sk.dcci id 11 on aiv                           // pipe barrier + whole data-cache clean
```
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr, IntAttr, SymbolRefAttr
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition, irdl_op_definition, opt_prop_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer

from skir.dialects.aclgraph_enums import CoreClass, class_types
from skir.dialects.hardware import BARRIER_TYPE, BarrierKind, CoreType
from skir.dialects.superkernel_base import (
    CLASS_ATTRS,
    CORE_ATTRS,
    SkClassAttr,
    SkCoreAttr,
    SkProgramOp,
    parse_id,
    parse_on,
    parse_on_class,
    print_attrs,
)
from skir.dialects.superkernel_flags import SetFlagOp, SkPipeAttr, WaitFlagOp
from skir.dialects.syntax import (
    build_op,
    dep_ids,
    int_attr,
    parse_enum,
    parse_int_in,
    parse_symbol,
    print_symbol,
    symbol_ref,
    with_attrs,
    with_deps,
)
from skir.errors import TaskVerifyException

EARLY_START_CFGS = (0, 1, 2, 4, 5, 6, 8, 9, 10)
"""`WaitPreTaskEndImpl<cfg>` configurations: 4 x class(prev) + class(cur), aic 0 / aiv 1 / mix 2."""
ICACHE_UNITS = {CoreType.AIC: 16, CoreType.AIV: 8}
"""Preload units (2 KiB each) that fit in each core type's instruction cache."""


@irdl_attr_definition
class BarrierKindAttr(EnumAttribute[BarrierKind], SpacedOpaqueSyntaxAttribute):
    name = "sk.barrier_kind"


_BARRIER_KINDS = {kind: BarrierKindAttr(kind) for kind in BarrierKind}


@irdl_op_definition
class BarrierOp(SkProgramOp):
    """A barrier: `sk.barrier id 3 all_aiv`.

    `all_aiv` runs on the AIVs, `all_aic` on the AICs, `sync_all` on both; `pipe_all`
    (`pipe_barrier(PIPE_ALL)`, one core's pipes only) names the core types that run it:
    `sk.barrier id 6 pipe_all on mix`.
    """

    name = "sk.barrier"

    kind = prop_def(BarrierKindAttr)
    cores = opt_prop_def(SkClassAttr)

    def __init__(self, ident: int, kind: BarrierKind, cores: CoreClass | None = None):
        props: dict[str, Attribute] = {"id": int_attr(ident), "kind": _BARRIER_KINDS[kind]}
        if cores is not None:
            props["cores"] = CLASS_ATTRS[cores]
        build_op(self, props)

    def core_set(self) -> tuple[CoreType, ...]:
        kind = self.kind.data
        if kind is BarrierKind.PIPE_ALL:
            return class_types(self.cores.data) if self.cores is not None else ()
        return BARRIER_TYPES[kind]

    @classmethod
    def parse(cls, parser: Parser) -> BarrierOp:
        ident = parse_id(parser)
        kind = parse_enum(parser, BarrierKind, "barrier kind")
        cores = parse_on_class(parser) if kind is BarrierKind.PIPE_ALL else None
        return with_attrs(parser, cls(ident, kind, cores))

    def print(self, printer: Printer) -> None:
        on = f" on {self.cores.data.value}" if self.cores is not None else ""
        printer.print_string(f" id {self.id.data} {self.kind.data.value}{on}")
        print_attrs(printer, self)

    def verify_(self) -> None:
        if (self.kind.data is BarrierKind.PIPE_ALL) != (self.cores is not None):
            raise TaskVerifyException(
                self, f"barrier {self.ident}: a pipe_all barrier, and only it, names its core types (on aic|aiv|mix)")


BARRIER_TYPES = {**{kind: (core,) for kind, core in BARRIER_TYPE.items()},
                 BarrierKind.SYNC_ALL: (CoreType.AIC, CoreType.AIV)}
"""The core types that run a barrier of each kind but `pipe_all`."""


class LockOp(SkProgramOp):
    """Base of the GM-lock ops: `sk.<op> id N @cell slot K on aic|aiv`.

    `slot` is the arg-table slot holding the cell's address; block 0 of the core type `on`
    performs the access. A notify may name the sub-tasks it follows (`after [ids]`), a lock
    wait those that follow it (`before [ids]`): see each op.
    """

    cell = prop_def(SymbolRefAttr)
    slot = prop_def(IntAttr)
    core = prop_def(SkCoreAttr)
    deps = opt_prop_def(ArrayAttr[IntAttr])

    DEPS_KEYWORD: ClassVar[str | None] = None
    """The keyword of `deps` in the syntax (None: the op takes none)."""

    def __init__(self, ident: int, cell: str, slot: int, core: CoreType, deps: tuple[int, ...] = ()):
        build_op(self, with_deps({"id": int_attr(ident), "cell": symbol_ref(cell), "slot": int_attr(slot),
                                  "core": CORE_ATTRS[core]}, deps))

    @property
    def dep_ids(self) -> tuple[int, ...]:
        """The sub-tasks a notify follows or a lock wait precedes, when the op names them."""
        return dep_ids(self.deps)

    @classmethod
    def parse(cls, parser: Parser) -> LockOp:
        ident = parse_id(parser)
        cell = parse_symbol(parser)
        parser.parse_keyword("slot")
        slot = parse_int_in(parser, 1, 1 << 31, "slot")
        core = parse_on(parser)
        deps: tuple[int, ...] = ()
        if cls.DEPS_KEYWORD is not None and parser.parse_optional_keyword(cls.DEPS_KEYWORD):
            deps = tuple(parser.parse_comma_separated_list(
                Parser.Delimiter.SQUARE, lambda: parse_int_in(parser, 0, 1 << 31, "id")))
        return with_attrs(parser, cls(ident, cell.root_reference.data, slot, core, deps))

    def print(self, printer: Printer) -> None:
        printer.print_string(f" id {self.id.data}")
        print_symbol(printer, self.cell)
        printer.print_string(f" slot {self.slot.data} on {self.core.data.value}")
        if self.deps is not None:
            printer.print_string(f" {self.DEPS_KEYWORD} [" + ", ".join(str(d.data) for d in self.deps) + "]")
        print_attrs(printer, self)

    def verify_(self) -> None:
        if self.deps is not None and self.DEPS_KEYWORD is None:
            raise TaskVerifyException(self, f"{self.name} {self.ident} names sub-tasks; only a notify "
                                      "(after) and a lock wait (before) take them")


@irdl_op_definition
class NotifyOp(LockOp):
    """Block 0 of the core type stores 1 to the cell and cleans the line (an in-kernel record).

    It follows a full barrier of the producing sub-task's class (docs/design.md §3 (f)). In a
    queue SuperKernel it depends on the sub-task before it in the program, or, with `after
    [ids]`, on those sub-tasks: a record that follows members of several streams that do not
    follow one another (`sk.notify id 5 @e_cell slot 1 on aiv after [2, 3]`).
    """

    name = "sk.notify"
    DEPS_KEYWORD: ClassVar[str | None] = "after"


@irdl_op_definition
class WaitLockOp(LockOp):
    """Block 0 of the core type polls the cell until it holds 1 (an in-kernel wait).

    A barrier of the consumer's class follows, so every core of it waits (docs/design.md §3 (g)).
    In a queue SuperKernel the sub-task after it depends on it, and, with `before [ids]`, so
    does each sub-task named: a wait that precedes members of several streams
    (`sk.wait_lock id 5 @e_cell slot 1 on aiv before [7, 9]`).
    """

    name = "sk.wait_lock"
    DEPS_KEYWORD: ClassVar[str | None] = "before"


@irdl_op_definition
class ResetLockOp(LockOp):
    """Block 0 of the core type stores 0 to the cell at exit, so the model can be replayed."""

    name = "sk.reset_lock"



def _parse_idle(parser: Parser) -> int | None:
    return parse_int_in(parser, 1, 65535, "idle bound") if parser.parse_optional_keyword("idle") else None


class _EarlyStartOp(SkProgramOp):
    """Base of the early-start handshake ops; `idle N`: only the cores with block index >= N."""

    core = prop_def(SkCoreAttr)
    idle = opt_prop_def(IntAttr)

    def print_tail(self, printer: Printer) -> None:
        printer.print_string(f" on {self.core.data.value}")
        if self.idle is not None:
            printer.print_string(f" idle {self.idle.data}")
        print_attrs(printer, self)


@irdl_op_definition
class EarlyStartSetOp(_EarlyStartOp):
    """`SetNextTaskStart()`: lets the next sub-task start once every core of the type has set.

    With `idle N` only the cores that did not run the sub-task (it sets itself) run it.
    """

    name = "sk.early_start_set"

    def __init__(self, ident: int, core: CoreType, idle: int | None = None):
        props = {"id": int_attr(ident), "core": CORE_ATTRS[core]}
        if idle is not None:
            props["idle"] = int_attr(idle)
        build_op(self, props)

    @classmethod
    def parse(cls, parser: Parser) -> EarlyStartSetOp:
        ident = parse_id(parser)
        return with_attrs(parser, cls(ident, parse_on(parser), _parse_idle(parser)))

    def print(self, printer: Printer) -> None:
        printer.print_string(f" id {self.id.data}")
        self.print_tail(printer)


@irdl_op_definition
class EarlyStartWaitOp(_EarlyStartOp):
    """`WaitPreTaskEndImpl<cfg>()`: wait until the previous sub-task's cores have all set."""

    name = "sk.early_start_wait"

    cfg = prop_def(IntAttr)

    def __init__(self, ident: int, cfg: int, core: CoreType, idle: int | None = None):
        props = {"id": int_attr(ident), "cfg": int_attr(cfg), "core": CORE_ATTRS[core]}
        if idle is not None:
            props["idle"] = int_attr(idle)
        build_op(self, props)

    @classmethod
    def parse(cls, parser: Parser) -> EarlyStartWaitOp:
        ident = parse_id(parser)
        parser.parse_keyword("cfg")
        cfg = parse_int_in(parser, 0, 10, "early-start cfg")
        return with_attrs(parser, cls(ident, cfg, parse_on(parser), _parse_idle(parser)))

    def print(self, printer: Printer) -> None:
        printer.print_string(f" id {self.id.data} cfg {self.cfg.data}")
        self.print_tail(printer)

    def verify_(self) -> None:
        if self.cfg.data not in EARLY_START_CFGS:
            raise TaskVerifyException(
                self, f"early_start_wait {self.ident}: cfg {self.cfg.data} is not 4 x class(prev) + class(cur)"
            )


@irdl_op_definition
class PreloadOp(SkProgramOp):
    """Prefetch a sub-kernel's code into the instruction cache on its blocks.

    `sk.preload id 0 @k units 3 blocks 48 on aiv`, or `sk.preload id 0 max on aiv` for
    `AscendC::PreLoad(8)` at the top of the entry; `blocks 8 at 40` for a placed sub-task's
    cores `[40, 48)`.
    """

    name = "sk.preload"

    kernel = opt_prop_def(SymbolRefAttr)
    units = opt_prop_def(IntAttr)
    blocks = opt_prop_def(IntAttr)
    first = opt_prop_def(IntAttr)
    core = prop_def(SkCoreAttr)

    def __init__(self, ident: int, core: CoreType, kernel: str | None = None, units: int = 0, blocks: int = 0,
                 first: int = 0):
        props: dict[str, Attribute] = {"id": int_attr(ident), "core": CORE_ATTRS[core]}
        if kernel is not None:
            props.update(kernel=symbol_ref(kernel), units=int_attr(units), blocks=int_attr(blocks))
            if first:
                props["first"] = int_attr(first)
        build_op(self, props)

    @property
    def first_block(self) -> int:
        """The first core of the preloaded range (0 unless it preloads a placed sub-task)."""
        return 0 if self.first is None else self.first.data

    @classmethod
    def parse(cls, parser: Parser) -> PreloadOp:
        ident = parse_id(parser)
        if parser.parse_optional_keyword("max"):
            return with_attrs(parser, cls(ident, parse_on(parser)))
        kernel = parse_symbol(parser).root_reference.data
        parser.parse_keyword("units")
        units = parse_int_in(parser, 1, 16, "units")
        parser.parse_keyword("blocks")
        blocks = parse_int_in(parser, 1, 65535, "blocks")
        first = parse_int_in(parser, 0, 65535, "first block") if parser.parse_optional_keyword("at") else 0
        return with_attrs(parser, cls(ident, parse_on(parser), kernel, units, blocks, first))

    def print(self, printer: Printer) -> None:
        printer.print_string(f" id {self.id.data}")
        if self.kernel is None:
            printer.print_string(" max")
        else:
            print_symbol(printer, self.kernel)
            printer.print_string(f" units {self.units.data} blocks {self.blocks.data}")  # type: ignore[union-attr]
            if self.first is not None:
                printer.print_string(f" at {self.first.data}")
        printer.print_string(f" on {self.core.data.value}")
        print_attrs(printer, self)

    def verify_(self) -> None:
        if (self.kernel is None) != (self.units is None) or (self.kernel is None) != (self.blocks is None) or (
                self.kernel is None and self.first is not None):
            raise TaskVerifyException(self, f"preload {self.ident}: give a kernel with units and blocks, or max")
        cap = ICACHE_UNITS[self.core.data]
        if self.units is not None and not 1 <= self.units.data <= cap:
            raise TaskVerifyException(
                self, f"preload {self.ident}: {self.units.data} units do not fit the {self.core.data.value} "
                f"instruction cache ({cap} units of 2 KiB)"
            )


@irdl_op_definition
class DcciOp(SkProgramOp):
    """`pipe_barrier(PIPE_ALL)` then a clean and invalidate of the whole data cache: `sk.dcci id 9 on aiv`."""

    name = "sk.dcci"

    core = prop_def(SkCoreAttr)

    def __init__(self, ident: int, core: CoreType):
        build_op(self, {"id": int_attr(ident), "core": CORE_ATTRS[core]})

    @classmethod
    def parse(cls, parser: Parser) -> DcciOp:
        ident = parse_id(parser)
        return with_attrs(parser, cls(ident, parse_on(parser)))

    def print(self, printer: Printer) -> None:
        printer.print_string(f" id {self.id.data} on {self.core.data.value}")
        print_attrs(printer, self)


SYNC_OPS = (
    BarrierOp,
    NotifyOp,
    WaitLockOp,
    ResetLockOp,
    SetFlagOp,
    WaitFlagOp,
    EarlyStartSetOp,
    EarlyStartWaitOp,
    PreloadOp,
    DcciOp,
)
SYNC_ATTRS = (BarrierKindAttr, SkPipeAttr)
