"""Synchronisation, lock, preload and cache ops of the `sk` dialect (the flag ops live in
`skir.dialects.superkernel_flags`).

Each op says the core types that run it (`on aic|aiv`; a barrier by its kind, `pipe_all`
with `on aic|aiv|mix`).

```mlir
sk.barrier all_aiv                             // every AIV reaches it (mode-0 flag 14)
sk.early_start_set on aiv idle 8               // SetNextTaskStart on blocks >= 8
sk.early_start_wait cfg 5 on aiv               // WaitPreTaskEndImpl<5>
sk.notify @cell slot 4 on aiv after %a         // block 0 stores 1 to a GM lock (after: its deps)
%w = sk.wait_lock @cell slot 5 on aic          // block 0 polls it (a sub-task names %w to wait)
sk.reset_lock @cell slot 5 on aic              // block 0 stores 0 at exit
sk.preload @rms_norm units 3 blocks 48 on aiv
sk.dcci on aiv                                 // pipe barrier + whole data-cache clean
```
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import IntAttr, SymbolRefAttr
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Operation, OpResult, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.irdl import irdl_attr_definition, irdl_op_definition, opt_prop_def, prop_def, result_def, var_operand_def
from xdsl.parser import Parser
from xdsl.printer import Printer

from skir.dialects.aclgraph_enums import CoreClass, class_types
from skir.dialects.hardware import BARRIER_TYPE, BarrierKind, CoreType
from skir.dialects.superkernel_base import (
    CLASS_ATTRS,
    CORE_ATTRS,
    TOKEN,
    SkClassAttr,
    SkCoreAttr,
    SkProgramOp,
    TokenType,
    parse_on,
    parse_on_class,
    parse_tokens,
    print_attrs,
    print_tokens,
)
from skir.dialects.superkernel_flags import SetFlagOp, SkPipeAttr, WaitFlagOp
from skir.dialects.syntax import (
    build_op,
    int_attr,
    parse_enum,
    parse_int_in,
    parse_symbol,
    print_symbol,
    symbol_ref,
    with_attrs,
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
    """A barrier: `sk.barrier all_aiv`.

    `all_aiv` runs on the AIVs, `all_aic` on the AICs, `sync_all` on both; `pipe_all`
    (`pipe_barrier(PIPE_ALL)`, one core's pipes only) names the core types that run it:
    `sk.barrier pipe_all on mix`.
    """

    name = "sk.barrier"

    kind = prop_def(BarrierKindAttr)
    cores = opt_prop_def(SkClassAttr)

    def __init__(self, kind: BarrierKind, cores: CoreClass | None = None):
        props: dict[str, Attribute] = {"kind": _BARRIER_KINDS[kind]}
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
        kind = parse_enum(parser, BarrierKind, "barrier kind")
        cores = parse_on_class(parser) if kind is BarrierKind.PIPE_ALL else None
        return with_attrs(parser, cls(kind, cores))

    def print(self, printer: Printer) -> None:
        on = f" on {self.cores.data.value}" if self.cores is not None else ""
        printer.print_string(f" {self.kind.data.value}{on}")
        print_attrs(printer, self)

    def verify_(self) -> None:
        if (self.kind.data is BarrierKind.PIPE_ALL) != (self.cores is not None):
            raise TaskVerifyException(
                self, "barrier: a pipe_all barrier, and only it, names its core types (on aic|aiv|mix)")


BARRIER_TYPES = {**{kind: (core,) for kind, core in BARRIER_TYPE.items()},
                 BarrierKind.SYNC_ALL: (CoreType.AIC, CoreType.AIV)}
"""The core types that run a barrier of each kind but `pipe_all`."""


class LockOp(SkProgramOp):
    """Base of the GM-lock ops: `sk.<op> @cell slot K on aic|aiv`.

    `slot` is the arg-table slot holding the cell's address; block 0 of the core type `on`
    performs the access. A notify may name the sub-tasks it follows (`after %a, %b`); a lock
    wait yields a token that the sub-tasks it holds back name: see each op.
    """

    cell = prop_def(SymbolRefAttr)
    slot = prop_def(IntAttr)
    core = prop_def(SkCoreAttr)

    def __init__(self, cell: str, slot: int, core: CoreType, deps: Sequence[SSAValue] = ()):
        props = {"cell": symbol_ref(cell), "slot": int_attr(slot), "core": CORE_ATTRS[core]}
        build_op(self, props, operands=deps, result_types=self.RESULTS)

    RESULTS: ClassVar[tuple[Attribute, ...]] = ()
    """The types the op yields (a lock wait: one token)."""

    @classmethod
    def parse(cls, parser: Parser) -> LockOp:
        cell = parse_symbol(parser)
        parser.parse_keyword("slot")
        slot = parse_int_in(parser, 1, 1 << 31, "slot")
        core = parse_on(parser)
        deps = parse_tokens(parser, "after") if cls is NotifyOp else []
        return with_attrs(parser, cls(cell.root_reference.data, slot, core, deps))

    def print(self, printer: Printer) -> None:
        print_symbol(printer, self.cell)
        printer.print_string(f" slot {self.slot.data} on {self.core.data.value}")
        print_tokens(printer, "after", self.operands)
        print_attrs(printer, self)


@irdl_op_definition
class NotifyOp(LockOp):
    """Block 0 of the core type stores 1 to the cell and cleans the line (an in-kernel record).

    It follows a full barrier of the producing sub-task's class (docs/design.md §3 (f)). In a
    queue SuperKernel it depends on the sub-task before it in the program, or, with `after %a,
    %b`, on those sub-tasks: a record that follows members of several streams that do not
    follow one another (`sk.notify @e_cell slot 1 on aiv after %a, %b`).
    """

    name = "sk.notify"

    deps = var_operand_def(TokenType)

    def dep_subtasks(self) -> tuple[Operation, ...]:
        """The sub-tasks it names in `after`."""
        return tuple(v.owner for v in self.operands if isinstance(v, OpResult))


@irdl_op_definition
class WaitLockOp(LockOp):
    """Block 0 of the core type polls the cell until it holds 1 (an in-kernel wait).

    A barrier of the consumer's class follows, so every core of it waits (docs/design.md §3 (g)).
    In a queue SuperKernel the sub-task after it depends on it, and so does each sub-task that
    names its token in `after`: a wait that precedes members of several streams
    (`%w = sk.wait_lock @e_cell slot 1 on aiv` ... `sk.subtask ... after %w`).
    """

    name = "sk.wait_lock"

    token = result_def(TokenType)
    RESULTS: ClassVar[tuple[Attribute, ...]] = (TOKEN,)


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

    def __init__(self, core: CoreType, idle: int | None = None):
        props: dict[str, Attribute] = {"core": CORE_ATTRS[core]}
        if idle is not None:
            props["idle"] = int_attr(idle)
        build_op(self, props)

    @classmethod
    def parse(cls, parser: Parser) -> EarlyStartSetOp:
        return with_attrs(parser, cls(parse_on(parser), _parse_idle(parser)))

    def print(self, printer: Printer) -> None:
        self.print_tail(printer)


@irdl_op_definition
class EarlyStartWaitOp(_EarlyStartOp):
    """`WaitPreTaskEndImpl<cfg>()`: wait until the previous sub-task's cores have all set."""

    name = "sk.early_start_wait"

    cfg = prop_def(IntAttr)

    def __init__(self, cfg: int, core: CoreType, idle: int | None = None):
        props: dict[str, Attribute] = {"cfg": int_attr(cfg), "core": CORE_ATTRS[core]}
        if idle is not None:
            props["idle"] = int_attr(idle)
        build_op(self, props)

    @classmethod
    def parse(cls, parser: Parser) -> EarlyStartWaitOp:
        parser.parse_keyword("cfg")
        cfg = parse_int_in(parser, 0, 10, "early-start cfg")
        return with_attrs(parser, cls(cfg, parse_on(parser), _parse_idle(parser)))

    def print(self, printer: Printer) -> None:
        printer.print_string(f" cfg {self.cfg.data}")
        self.print_tail(printer)

    def verify_(self) -> None:
        if self.cfg.data not in EARLY_START_CFGS:
            raise TaskVerifyException(
                self, f"early_start_wait: cfg {self.cfg.data} is not 4 x class(prev) + class(cur)"
            )


@irdl_op_definition
class PreloadOp(SkProgramOp):
    """Prefetch a sub-kernel's code into the instruction cache on its blocks.

    `sk.preload @k units 3 blocks 48 on aiv`, or `sk.preload max on aiv` for
    `AscendC::PreLoad(8)` at the top of the entry; `blocks 8 at 40` for a placed sub-task's
    cores `[40, 48)`.
    """

    name = "sk.preload"

    kernel = opt_prop_def(SymbolRefAttr)
    units = opt_prop_def(IntAttr)
    blocks = opt_prop_def(IntAttr)
    first = opt_prop_def(IntAttr)
    core = prop_def(SkCoreAttr)

    def __init__(self, core: CoreType, kernel: str | None = None, units: int = 0, blocks: int = 0,
                 first: int = 0):
        props: dict[str, Attribute] = {"core": CORE_ATTRS[core]}
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
        if parser.parse_optional_keyword("max"):
            return with_attrs(parser, cls(parse_on(parser)))
        kernel = parse_symbol(parser).root_reference.data
        parser.parse_keyword("units")
        units = parse_int_in(parser, 1, 16, "units")
        parser.parse_keyword("blocks")
        blocks = parse_int_in(parser, 1, 65535, "blocks")
        first = parse_int_in(parser, 0, 65535, "first block") if parser.parse_optional_keyword("at") else 0
        return with_attrs(parser, cls(parse_on(parser), kernel, units, blocks, first))

    def print(self, printer: Printer) -> None:
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
            raise TaskVerifyException(self, "preload: give a kernel with units and blocks, or max")
        cap = ICACHE_UNITS[self.core.data]
        if self.units is not None and not 1 <= self.units.data <= cap:
            raise TaskVerifyException(
                self, f"preload: {self.units.data} units do not fit the {self.core.data.value} "
                f"instruction cache ({cap} units of 2 KiB)"
            )


@irdl_op_definition
class DcciOp(SkProgramOp):
    """`pipe_barrier(PIPE_ALL)` then a clean and invalidate of the whole data cache: `sk.dcci on aiv`."""

    name = "sk.dcci"

    core = prop_def(SkCoreAttr)

    def __init__(self, core: CoreType):
        build_op(self, {"core": CORE_ATTRS[core]})

    @classmethod
    def parse(cls, parser: Parser) -> DcciOp:
        return with_attrs(parser, cls(parse_on(parser)))

    def print(self, printer: Printer) -> None:
        printer.print_string(f" on {self.core.data.value}")
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
