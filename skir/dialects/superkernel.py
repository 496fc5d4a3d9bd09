"""The `sk` dialect: the program of one SuperKernel.

An `sk.kernel` lives in the `aclgraph.model` after the declarations and streams. Its one
region holds its program in order; each op says which core types run
it (`on aic|aiv|mix` on a sub-task: the class of its kernel; a barrier by its kind; a sync op
by its `on`). The program each core type runs is the sub-sequence of the ops it runs
(`SuperKernelOp.program_for`). In a `chain` SuperKernel both core types follow that one order
through barriers; in a `queue` SuperKernel each core type runs its own sub-sequence, ordered
against the other's by cross-core flag pairs.

```mlir
sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 7 {
  %0 = sk.subtask @norm blocks 48 offset 1 from @s0 seq 2 on aiv
  sk.barrier sync_all
  %1 = sk.subtask @matmul blocks 24 offset 4 from @s0 seq 3 on aic after %0
}
```

A sub-task (and a lock wait) yields a `!sk.token`; a dependency is an operand naming one
(`after %0`), and the order of the program is the order of the region: no op carries an id.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import auto

from xdsl.dialects.builtin import IntAttr, StringAttr, SymbolRefAttr
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Block, Dialect, Operation, OpResult, Region, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, NoTerminator, SymbolOpInterface
from xdsl.utils.str_enum import StrEnum

from skir.dialects.aclgraph import MAX_BLOCKS, ModelOp
from skir.dialects.aclgraph_enums import (
    CoreClass,
    KernelType,
    KernelTypeAttr,
    core_demand,
    core_types,
    kernel_type_attr,
)
from skir.dialects.hardware import BarrierKind, CoreType, Pipe, index_type
from skir.dialects.options_attr import SkOptionsAttr, parse_options_literal
from skir.dialects.superkernel_base import (
    CLASS_ATTRS,
    TOKEN,
    SkClassAttr,
    SkCoreAttr,
    SkProgramOp,
    TokenType,
    parse_on_class,
    parse_tokens,
    print_tokens,
)
from skir.dialects.superkernel_depend import (
    DEPEND_OPS,
    DependBarrierOp,
    DependEarlyStartOp,
    DependFlagAwaitOp,
    DependFlagSignalOp,
    DependLockAcquireOp,
    DependLockReleaseOp,
    DependOp,
    DependPipeOp,
)
from skir.dialects.superkernel_flags import SetFlagOp, WaitFlagOp
from skir.dialects.superkernel_sync import (
    BARRIER_TYPES,
    SYNC_ATTRS,
    SYNC_OPS,
    BarrierKindAttr,
    BarrierOp,
    DcciOp,
    EarlyStartSetOp,
    EarlyStartWaitOp,
    LockOp,
    NotifyOp,
    PreloadOp,
    ResetLockOp,
    WaitLockOp,
)
from skir.dialects.syntax import (
    build_op,
    int_attr,
    new_op,
    parse_body,
    parse_enum,
    parse_int_in,
    parse_symbol,
    print_symbol,
    quoted,
    symbol_ref,
)
from skir.errors import TaskVerifyException, task_path
from skir.options import SkOptions
from skir.xdsl_fast.verify import fast_verify_all

__all__ = [
    "BARRIER_TYPES",
    "BarrierKind",
    "BarrierKindAttr",
    "BarrierOp",
    "CoreType",
    "DcciOp",
    "DependBarrierOp",
    "DependEarlyStartOp",
    "DependFlagAwaitOp",
    "DependFlagSignalOp",
    "DependLockAcquireOp",
    "DependLockReleaseOp",
    "DependOp",
    "DependPipeOp",
    "EarlyStartSetOp",
    "EarlyStartWaitOp",
    "LockOp",
    "NotifyOp",
    "Pipe",
    "PreloadOp",
    "ResetLockOp",
    "SetFlagOp",
    "SkCoreAttr",
    "SkForm",
    "SkOptionsAttr",
    "SkProgramOp",
    "SubtaskOp",
    "SuperKernelOp",
    "TokenType",
    "WaitFlagOp",
    "WaitLockOp",
]


class SkForm(StrEnum):
    """`chain`: members totally ordered, one program order; `queue`: one queue per core type."""

    CHAIN = auto()
    QUEUE = auto()


@irdl_attr_definition
class SkFormAttr(EnumAttribute[SkForm], SpacedOpaqueSyntaxAttribute):
    name = "sk.form"


_FORMS = {form: SkFormAttr(form) for form in SkForm}


@irdl_op_definition
class SubtaskOp(SkProgramOp):
    """A call of one original kernel task; it yields a token that later ops name to depend on it.

    `@kernel` is the `aclgraph.kernel`, `blocks` the task's blocks (the call is guarded
    to them), `at F` (placement, a kernel that takes `sk::SkSystemArgs`) that they are the
    cores `[F, F + blocks)` of its index instead of `[0, blocks)` (AIV index for an aiv-class
    kernel, block index otherwise), `offset` the first arg-table slot of its params, `from @stream seq N` the
    original task, `on` the class of its kernel (the core types that run it), `after %a, %b`
    the earlier sub-tasks it directly depends on and the lock waits that hold it back, `feed N`
    (with feed-sync-all) that the sub-kernel calls `SyncAll` on fewer cores than the SuperKernel
    has, so the idle cores mirror its rounds, with config slot N of the workspace.

    ```mlir
    %0 = sk.subtask @norm blocks 48 offset 1 from @s0 seq 2 on aiv
    %1 = sk.subtask @matmul blocks 24 offset 4 from @s0 seq 3 on aic after %0
    ```
    """

    name = "sk.subtask"

    kernel = prop_def(SymbolRefAttr)
    blocks = prop_def(IntAttr)
    offset = prop_def(IntAttr)
    stream = prop_def(SymbolRefAttr)
    seq = prop_def(IntAttr)
    cores = prop_def(SkClassAttr)
    feed = opt_prop_def(IntAttr)
    first = opt_prop_def(IntAttr)
    deps = var_operand_def(TokenType)
    token = result_def(TokenType)

    def __init__(
        self, kernel: str, blocks: int, offset: int, stream: str, seq: int, cores: CoreClass,
        deps: Sequence[SSAValue] = (),
    ):
        props: dict[str, Attribute] = {
            "kernel": symbol_ref(kernel),
            "blocks": int_attr(blocks),
            "offset": int_attr(offset),
            "stream": symbol_ref(stream),
            "seq": int_attr(seq),
            "cores": CLASS_ATTRS[cores],
        }
        build_op(self, props, operands=deps, result_types=(TOKEN,))

    def after(self) -> tuple[Operation, ...]:
        """The ops it names in `after`: earlier sub-tasks and lock waits, in the order given."""
        return tuple(v.owner for v in self.operands if isinstance(v, OpResult))

    def dep_subtasks(self) -> tuple[SubtaskOp, ...]:
        """The earlier sub-tasks it directly depends on."""
        return tuple(op for op in self.after() if type(op) is SubtaskOp)

    @property
    def first_block(self) -> int:
        """The first core of its index the sub-task runs on (0 unless placed, `at F`)."""
        return 0 if self.first is None else self.first.data

    @classmethod
    def parse(cls, parser: Parser) -> SubtaskOp:
        props: dict[str, Attribute] = {"kernel": parse_symbol(parser)}
        parser.parse_keyword("blocks")
        props["blocks"] = int_attr(parse_int_in(parser, 1, MAX_BLOCKS, "blocks"))
        if parser.parse_optional_keyword("at"):
            props["first"] = int_attr(parse_int_in(parser, 0, MAX_BLOCKS, "first block"))
        parser.parse_keyword("offset")
        props["offset"] = int_attr(parse_int_in(parser, 1, 1 << 31, "offset"))
        parser.parse_keyword("from")
        props["stream"] = parse_symbol(parser)
        parser.parse_keyword("seq")
        props["seq"] = int_attr(parse_int_in(parser, 0, (1 << 63) - 1, "seq"))
        props["cores"] = CLASS_ATTRS[parse_on_class(parser)]
        deps = parse_tokens(parser, "after")
        if parser.parse_optional_keyword("feed"):
            props["feed"] = int_attr(parse_int_in(parser, 0, 1 << 31, "feed config slot"))
        attrs = parser.parse_optional_attr_dict_with_keyword()
        return new_op(cls, props, attributes=attrs.data if attrs else None, operands=deps, result_types=(TOKEN,))

    def print(self, printer: Printer) -> None:
        print_symbol(printer, self.kernel)
        at = "" if self.first is None else f" at {self.first.data}"
        printer.print_string(f" blocks {self.blocks.data}{at} offset {self.offset.data} from")
        print_symbol(printer, self.stream)
        printer.print_string(f" seq {self.seq.data} on {self.cores.data.value}")
        print_tokens(printer, "after", self.operands)
        if self.feed is not None:
            printer.print_string(f" feed {self.feed.data}")
        printer.print_op_attributes(self.attributes, print_keyword=True)


@irdl_op_definition
class SuperKernelOp(IRDLOperation):
    """One SuperKernel: its type, launch blocks, form, arg-table size and program.

    The program is one region in program order; each op says which core types run it, and
    `program_for(core)` is what one core type runs.
    """

    name = "sk.kernel"

    sym_name = prop_def(StringAttr)
    kernel_type = prop_def(KernelTypeAttr)
    blocks = prop_def(IntAttr)
    form = prop_def(SkFormAttr)
    arg_slots = prop_def(IntAttr)
    options = opt_prop_def(SkOptionsAttr)
    body = region_def("single_block")

    traits = traits_def(SymbolOpInterface(), NoTerminator(), HasParent(ModelOp))

    def __init__(
        self,
        sym_name: str,
        kernel_type: KernelType,
        blocks: int,
        form: SkForm,
        arg_slots: int,
        options: SkOptions | None = None,
        body: Region | None = None,
    ):
        props: dict[str, Attribute] = {
            "sym_name": StringAttr(sym_name),
            "kernel_type": kernel_type_attr(kernel_type),
            "blocks": int_attr(blocks),
            "form": _FORMS[form],
            "arg_slots": int_attr(arg_slots),
        }
        if options is not None and options.given:
            props["options"] = SkOptionsAttr(options)
        build_op(self, props, [body or Region(Block())])

    def sk_options(self, base: SkOptions | None = None) -> SkOptions:
        """The options the SuperKernel carries from its scope, over `base` (the pass's)."""
        base = base or SkOptions()
        return base if self.options is None else base.override(self.options.data)

    @property
    def type(self) -> KernelType:
        return self.kernel_type.data

    def cores(self) -> dict[CoreType, int]:
        """Cores of each type the SuperKernel launches (its blocks times its task ratio)."""
        aic, aiv = core_demand(self.type, self.blocks.data)
        return {CoreType.AIC: aic, CoreType.AIV: aiv}

    def core_types(self) -> tuple[CoreType, ...]:
        """The core types it launches (`mix_aiv_1_0`: AIVs only, `mix_aic_1_0`: AICs only)."""
        return core_types(self.type)

    def program(self) -> list[SkProgramOp]:
        """The program, in order."""
        return list(self.body.block.ops)  # type: ignore[arg-type]  # the verifier admits program ops only

    def program_for(self, core: CoreType) -> list[SkProgramOp]:
        """What one core type runs: the ops of the program it runs, in order."""
        return [op for op in self.body.block.ops if core in op.core_set()]

    def subtasks(self) -> list[SubtaskOp]:
        """Every sub-task, in program order."""
        return [op for op in self.body.block.ops if type(op) is SubtaskOp]

    @classmethod
    def parse(cls, parser: Parser) -> SuperKernelOp:
        name = parser.parse_symbol_name().data
        kernel_type = parse_enum(parser, KernelType, "SuperKernel type")
        parser.parse_keyword("blocks")
        blocks = parse_int_in(parser, 1, MAX_BLOCKS, "blocks")
        form = parse_enum(parser, SkForm, "form (chain or queue)")
        parser.parse_keyword("slots")
        slots = parse_int_in(parser, 1, 1 << 31, "slots")
        options = parse_options_literal(parser) if parser.parse_optional_keyword("options") else None
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(name, kernel_type, blocks, form, slots, options, parse_body(parser))
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(
            f" {self.type.value} blocks {self.blocks.data} {self.form.data.value} slots {self.arg_slots.data}"
        )
        if self.options is not None:
            printer.print_string(" options " + quoted(self.options.text()))
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)

    def positions(self) -> dict[Operation, int]:
        """Each op of the program and its place in it (from 0): the name messages give an op."""
        return {op: i for i, op in enumerate(self.body.block.ops)}

    def verify_(self) -> None:
        where = task_path(self)
        launched = set(self.core_types())
        seen: set[Operation] = set()
        for pos, op in enumerate(self.body.block.ops):
            if not isinstance(op, SkProgramOp):
                raise TaskVerifyException(op, f"{where}: '{op.name}' cannot appear in a SuperKernel program")
            cores = op.core_set()
            if not cores:
                raise TaskVerifyException(op, f"{where}: {op.name} {pos} names no core type to run it")
            stray = [c.value for c in cores if c not in launched]
            if stray:
                raise TaskVerifyException(
                    op, f"{where}: {op.name} {pos} runs on {', '.join(stray)}, which the "
                    f"{self.type.value} SuperKernel does not launch")
            if isinstance(op, SubtaskOp) and op.first is not None:
                self._check_range(op, pos, where)
            if isinstance(op, SetFlagOp | WaitFlagOp):
                self._check_guard(op, pos, where)
            if op.operands:
                self._check_deps(op, pos, seen, where)
            seen.add(op)

    @staticmethod
    def _check_deps(op: Operation, pos: int, seen: set[Operation], where: str) -> None:
        """A sub-task depends on earlier sub-tasks and lock waits, a notify on earlier sub-tasks."""
        allowed: tuple[type[Operation], ...] = (SubtaskOp, WaitLockOp) if isinstance(op, SubtaskOp) else (SubtaskOp,)
        what = "an earlier sub-task or lock wait" if isinstance(op, SubtaskOp) else "an earlier sub-task"
        for value in op.operands:
            dep = value.owner if isinstance(value, OpResult) else None
            if dep not in seen or not isinstance(dep, allowed):
                block = op.parent_block()
                place = {o: i for i, o in enumerate(block.ops)} if block is not None else {}  # on an error only
                named = "a block argument" if dep is None else \
                    f"{dep.name} {place[dep]}" if dep in place else f"{dep.name} outside the program"
                raise TaskVerifyException(
                    op, f"{where}: {op.name} {pos} depends on {named}, which is not {what} of its program")

    def index_cores(self, cls: CoreClass) -> int:
        """How many cores the index of a sub-task of class `cls` counts: AIVs for the aiv class,
        blocks otherwise (docs/design.md §3 "Placement")."""
        counted = index_type(cls)
        return self.blocks.data if counted is None else self.cores()[counted]

    def _check_guard(self, op: SetFlagOp | WaitFlagOp, pos: int, where: str) -> None:
        guard = op.guard()
        count = self.cores()[op.core.data]
        if guard is not None and guard.stop > count:
            raise TaskVerifyException(
                op, f"{where}: {op.name} {pos} is guarded to cores [{guard.start}, {guard.stop}), beyond the "
                f"{count} {op.core.data.value.upper()}s of the SuperKernel; lower its 'at' or 'blocks'")

    def _check_range(self, op: SubtaskOp, pos: int, where: str) -> None:
        cls = op.cores.data
        count = self.index_cores(cls)
        unit = "AIVs" if cls is CoreClass.AIV else "blocks"
        if op.first_block + op.blocks.data > count:
            raise TaskVerifyException(
                op, f"{where}: sub-task {pos} at {op.first_block} runs on {unit} "
                f"[{op.first_block}, {op.first_block + op.blocks.data}), beyond the {count} {unit} of the SuperKernel; "
                f"lower its 'at'")


SK = Dialect("sk", [SuperKernelOp, SubtaskOp, *SYNC_OPS, *DEPEND_OPS],
             [SkFormAttr, SkCoreAttr, SkClassAttr, SkOptionsAttr, TokenType, *SYNC_ATTRS])
fast_verify_all(SK.operations)
