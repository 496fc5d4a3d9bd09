"""The `aclgraph` dialect: a captured aclgraph model.

A model is a set of streams, each an ordered list of task slots. Kernels, buffers,
events and cells are symbols declared at the top of the model; tasks name them with
symbol references. There are no SSA values: every task prints on one line and starts
with its capture sequence number `seq`.

```mlir
aclgraph.model @decode cores(aic = 24, aiv = 48) soc "Ascend910_9391" {
  aclgraph.kernel @rms_norm aiv_only params(in, in, out)
  aclgraph.kernel @qkv mix_aic_1_2 params(in, in, out) batch
  aclgraph.buffer @x bytes 65536
  aclgraph.buffer @w
  aclgraph.buffer @y
  aclgraph.event @e0
  aclgraph.stream @s0 slots 3 {
    aclgraph.launch seq 0 @rms_norm blocks 48 args(@x, @w, @y) duration 3.5
    aclgraph.record seq 1 @e0
    aclgraph.reset seq 4 @e0
  }
  aclgraph.stream @s1 slots 2 {
    aclgraph.wait seq 2 @e0
    aclgraph.launch seq 3 @qkv blocks 24 args(@y, @w, @x)
  }
}
```

Whole-model invariants (symbols, seq order, scope markers, happens-before) are
checked in one sweep by the model's verifier (`skir.analysis.model_check`, which installs itself
as the verifier's rule: `install_model_rule`).
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Callable, Mapping
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FloatData,
    IntAttr,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, Dialect, Region
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, NoTerminator, SymbolOpInterface, SymbolTable

from skir.dialects.aclgraph_decls import BufferOp, CellOp, EventOp, KernelOp
from skir.dialects.aclgraph_enums import (
    KernelTypeAttr,
    OpaqueKind,
    OpaqueKindAttr,
    ParamRoleAttr,
    SchedModeAttr,
    WaitRule,
    WaitRuleAttr,
    opaque_kind_attr,
    wait_rule_attr,
)
from skir.dialects.fast_verify import fast_verify_all
from skir.dialects.isolated_trait import OperandFreeIsolated
from skir.dialects.syntax import (
    build_op,
    float_literal,
    int_attr,
    new_op,
    parse_body,
    parse_enum,
    parse_int_in,
    parse_paren_list,
    parse_seq,
    parse_symbol,
    print_symbol,
    quoted,
    string_attr,
    symbol_ref,
)
from skir.errors import TaskVerifyException, task_path

MAX_BLOCKS = 65535
MAX_U64 = (1 << 64) - 1
_UNIT = UnitAttr()


class ModelSymbolTable(SymbolTable):
    """`SymbolTable` with a message that says which names clash."""

    def verify(self, op: IRDLOperation) -> None:
        seen: set[str] = set()
        for child in op.regions[0].block.ops:
            name = child.properties.get("sym_name")
            if not isinstance(name, StringAttr):
                continue
            if name.data in seen:
                raise TaskVerifyException(
                    child,
                    f"{task_path(child)}: symbol @{name.data} is defined twice; rename one of them "
                    "(kernels, buffers, events, cells, streams and SuperKernels share one namespace)",
                )
            seen.add(name.data)


@irdl_op_definition
class ModelOp(IRDLOperation):
    """A captured model: symbol declarations, then streams (then SuperKernels after outlining).

    `cores` is the device's cube (aic) and vector (aiv) core count.
    """

    name = "aclgraph.model"

    sym_name = prop_def(StringAttr)
    aic_cores = prop_def(IntAttr)
    aiv_cores = prop_def(IntAttr)
    soc = opt_prop_def(StringAttr)
    body = region_def("single_block")

    traits = traits_def(SymbolOpInterface(), ModelSymbolTable(), NoTerminator(), OperandFreeIsolated())

    def __init__(
        self, sym_name: str, aic_cores: int, aiv_cores: int, body: Region, soc: str | None = None
    ):
        props: dict[str, Attribute] = {
            "sym_name": StringAttr(sym_name),
            "aic_cores": IntAttr(aic_cores),
            "aiv_cores": IntAttr(aiv_cores),
        }
        if soc is not None:
            props["soc"] = StringAttr(soc)
        build_op(self, props, [body])

    @classmethod
    def parse(cls, parser: Parser) -> ModelOp:
        name = parser.parse_symbol_name().data
        parser.parse_keyword("cores")
        parser.parse_punctuation("(")
        parser.parse_keyword("aic")
        parser.parse_punctuation("=")
        aic = parse_int_in(parser, 1, MAX_BLOCKS, "aic cores")
        parser.parse_punctuation(",")
        parser.parse_keyword("aiv")
        parser.parse_punctuation("=")
        aiv = parse_int_in(parser, 1, MAX_BLOCKS, "aiv cores")
        parser.parse_punctuation(")")
        soc = parser.parse_str_literal() if parser.parse_optional_keyword("soc") else None
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(name, aic, aiv, parse_body(parser), soc)
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(f" cores(aic = {self.aic_cores.data}, aiv = {self.aiv_cores.data})")
        if self.soc is not None:
            printer.print_string(" soc " + quoted(self.soc.data))
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)

    def verify_(self) -> None:
        if not _MODEL_RULES:
            raise TaskVerifyException(
                self, f"@{self.sym_name.data}: the whole-model rules are not installed; import skir (or "
                "skir.analysis.model_check) before verifying an aclgraph.model")
        for rule in _MODEL_RULES:
            rule(self)


_MODEL_RULES: list[Callable[[ModelOp], None]] = []
"""The whole-model rules the model's verifier runs; `skir.analysis.model_check` installs its
check when imported (the analysis sits above the dialect, so the dialect does not import it)."""


def install_model_rule(rule: Callable[[ModelOp], None]) -> None:
    """Have every `aclgraph.model` verification run `rule` (once, however often installed)."""
    if rule not in _MODEL_RULES:
        _MODEL_RULES.append(rule)


@irdl_op_definition
class StreamOp(IRDLOperation):
    """One stream: its region holds the stream's task slots in order.

    `slots` records the slot count at capture; every rewrite keeps it.
    """

    name = "aclgraph.stream"

    sym_name = prop_def(StringAttr)
    slots = opt_prop_def(IntAttr)
    body = region_def("single_block")

    traits = traits_def(SymbolOpInterface(), NoTerminator(), HasParent(ModelOp))

    def __init__(self, sym_name: str, body: Region, slots: int | None = None):
        props: dict[str, Attribute] = {"sym_name": StringAttr(sym_name)}
        if slots is not None:
            props["slots"] = IntAttr(slots)
        build_op(self, props, [body])

    @classmethod
    def parse(cls, parser: Parser) -> StreamOp:
        name = parser.parse_symbol_name().data
        slots = None
        if parser.parse_optional_keyword("slots"):
            slots = parse_int_in(parser, 0, (1 << 31) - 1, "slots")
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(name, parse_body(parser), slots)
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        if self.slots is not None:
            printer.print_string(f" slots {self.slots.data}")
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)


class TaskOp(IRDLOperation, ABC):
    """Base of every task slot: `aclgraph.<kind> seq N <fields> [task_group] [attributes {...}]`.

    Subclasses describe their own fields with `parse_fields` / `print_fields`, which
    `aclgraph.disabled` reuses to keep the original task in `was`.
    """

    seq = prop_def(IntAttr)
    task_group = opt_prop_def(UnitAttr)

    traits = lazy_traits_def(lambda: (HasParent(StreamOp),))

    KIND: ClassVar[str]
    KEEPS_WAS: ClassVar[bool] = False
    """Whether the op may carry `was <task>` (the task its slot held before a rewrite)."""

    @classmethod
    def parse_fields(cls, parser: Parser) -> dict[str, Attribute]:
        return {}

    @classmethod
    def print_fields(cls, printer: Printer, props: Mapping[str, Attribute]) -> None:
        pass

    @classmethod
    def parse(cls, parser: Parser) -> TaskOp:
        seq = parse_seq(parser)
        props = cls.parse_fields(parser)
        props["seq"] = seq
        if cls.KEEPS_WAS and parser.parse_optional_keyword("was"):
            props.update(_parse_was(parser))
        if parser.parse_optional_keyword("task_group"):
            props["task_group"] = _UNIT
        attrs = parser.parse_optional_attr_dict_with_keyword()
        return new_op(cls, props, attributes=attrs.data if attrs else None)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" seq {self.seq.data}")
        self.print_fields(printer, self.properties)
        if self.KEEPS_WAS and "was_kind" in self.properties:
            _print_was(printer, self.properties)
        if self.task_group is not None:
            printer.print_string(" task_group")
        printer.print_op_attributes(self.attributes, print_keyword=True)

    @property
    def seq_value(self) -> int:
        return self.seq.data

    def was_task(self) -> TaskOp | None:
        """A fresh copy of the task this slot held before a rewrite, if it records one."""
        kind, was = self.properties.get("was_kind"), self.properties.get("was")
        if not isinstance(kind, StringAttr) or not isinstance(was, DictionaryAttr):
            return None
        return new_op(REENABLEABLE_TASKS[kind.data], {**was.data, "seq": self.seq})


def _parse_was(parser: Parser) -> dict[str, Attribute]:
    """`<kind> <fields of that task> [task_group]`, after the `was` keyword."""
    start = parser.pos
    kind = parser.parse_identifier()
    original = REENABLEABLE_TASKS.get(kind)
    if original is None:
        parser.raise_error(
            f"unknown task kind '{kind}' (one of {', '.join(REENABLEABLE_TASKS)})", start, parser.pos
        )
    props = original.parse_fields(parser)
    if parser.parse_optional_keyword("task_group"):
        props["task_group"] = _UNIT
    return {"was_kind": string_attr(kind), "was": DictionaryAttr(props)}


def _print_was(printer: Printer, props: Mapping[str, Attribute]) -> None:
    kind = props["was_kind"].data  # type: ignore[attr-defined]
    was = props["was"].data  # type: ignore[attr-defined]
    printer.print_string(f" was {kind}")
    REENABLEABLE_TASKS[kind].print_fields(printer, was)
    if "task_group" in was:
        printer.print_string(" task_group")


def was_props(original: TaskOp) -> dict[str, Attribute]:
    """The `was_kind` / `was` properties that keep `original` in a rewritten slot."""
    props = {k: v for k, v in original.properties.items() if k != "seq"}
    return {"was_kind": string_attr(original.KIND), "was": DictionaryAttr(props)}


@irdl_op_definition
class LaunchOp(TaskOp):
    """A kernel launch: `aclgraph.launch seq 3 @k blocks 48 args(@x, @y) duration 2.5`.

    `args` (one buffer per kernel parameter) and `duration` (microseconds) are optional.
    """

    name = "aclgraph.launch"
    KIND: ClassVar[str] = "launch"

    kernel = prop_def(SymbolRefAttr)
    blocks = prop_def(IntAttr)
    args = opt_prop_def(ArrayAttr[SymbolRefAttr])
    duration = opt_prop_def(FloatData)

    def __init__(
        self,
        seq: int,
        kernel: str,
        blocks: int,
        args: list[str] | None = None,
        duration: float | None = None,
        task_group: bool = False,
    ):
        props: dict[str, Attribute] = {
            "seq": int_attr(seq),
            "kernel": symbol_ref(kernel),
            "blocks": int_attr(blocks),
        }
        if args is not None:
            props["args"] = ArrayAttr(symbol_ref(a) for a in args)
        if duration is not None:
            props["duration"] = FloatData(float(duration))
        if task_group:
            props["task_group"] = _UNIT
        build_op(self, props)

    @classmethod
    def parse_fields(cls, parser: Parser) -> dict[str, Attribute]:
        props: dict[str, Attribute] = {"kernel": parse_symbol(parser)}
        parser.parse_keyword("blocks")
        props["blocks"] = int_attr(parse_int_in(parser, 1, MAX_BLOCKS, "blocks"))
        if parser.parse_optional_keyword("args"):
            props["args"] = ArrayAttr(parse_paren_list(parser, lambda: parse_symbol(parser)))
        if parser.parse_optional_keyword("duration"):
            start = parser.pos
            value = float(parser.parse_number())
            if not 0 <= value < float("inf"):
                parser.raise_error("duration must be a finite non-negative number", start, parser.pos)
            props["duration"] = FloatData(value)
        return props

    @classmethod
    def print_fields(cls, printer: Printer, props: Mapping[str, Attribute]) -> None:
        print_symbol(printer, props["kernel"])  # type: ignore[arg-type]
        printer.print_string(f" blocks {props['blocks'].data}")  # type: ignore[attr-defined]
        if (args := props.get("args")) is not None:
            printer.print_string(" args(")
            printer.print_list(args, lambda a: printer.print_symbol_name(a.root_reference.data))  # type: ignore
            printer.print_string(")")
        if (duration := props.get("duration")) is not None:
            printer.print_string(f" duration {float_literal(duration.data)}")  # type: ignore[attr-defined]

    def verify_(self) -> None:
        if not 1 <= self.blocks.data <= MAX_BLOCKS:
            raise TaskVerifyException(
                self, f"{task_path(self)}: blocks must be in [1, {MAX_BLOCKS}], got {self.blocks.data}"
            )


class EventTaskOp(TaskOp, ABC):
    """Base of record / wait / reset: `@event [external]`."""

    event = prop_def(SymbolRefAttr)
    external = opt_prop_def(UnitAttr)

    def __init__(self, seq: int, event: str, external: bool = False, task_group: bool = False):
        props: dict[str, Attribute] = {"seq": int_attr(seq), "event": symbol_ref(event)}
        if external:
            props["external"] = _UNIT
        if task_group:
            props["task_group"] = _UNIT
        build_op(self, props)

    @classmethod
    def parse_fields(cls, parser: Parser) -> dict[str, Attribute]:
        props: dict[str, Attribute] = {"event": parse_symbol(parser)}
        if parser.parse_optional_keyword("external"):
            props["external"] = _UNIT
        return props

    @classmethod
    def print_fields(cls, printer: Printer, props: Mapping[str, Attribute]) -> None:
        print_symbol(printer, props["event"])  # type: ignore[arg-type]
        if "external" in props:
            printer.print_string(" external")


@irdl_op_definition
class RecordOp(EventTaskOp):
    """Record an event: `aclgraph.record seq 2 @e0`."""

    name = "aclgraph.record"
    KIND: ClassVar[str] = "record"


@irdl_op_definition
class WaitOp(EventTaskOp):
    """Wait for an event's record in the current epoch (does not consume it)."""

    name = "aclgraph.wait"
    KIND: ClassVar[str] = "wait"


@irdl_op_definition
class ResetOp(EventTaskOp):
    """Clear an event, closing its current epoch."""

    name = "aclgraph.reset"
    KIND: ClassVar[str] = "reset"


@irdl_op_definition
class ValueWriteOp(TaskOp):
    """Write a 64-bit value to a cell: `aclgraph.value_write seq 5 @c0 value 1`."""

    name = "aclgraph.value_write"
    KIND: ClassVar[str] = "value_write"
    KEEPS_WAS: ClassVar[bool] = True

    was_kind = opt_prop_def(StringAttr)
    was = opt_prop_def(DictionaryAttr)

    cell = prop_def(SymbolRefAttr)
    value = prop_def(IntAttr)

    def __init__(self, seq: int, cell: str, value: int, task_group: bool = False):
        props: dict[str, Attribute] = {
            "seq": int_attr(seq), "cell": symbol_ref(cell), "value": int_attr(value)
        }
        if task_group:
            props["task_group"] = _UNIT
        build_op(self, props)

    @classmethod
    def parse_fields(cls, parser: Parser) -> dict[str, Attribute]:
        cell = parse_symbol(parser)
        parser.parse_keyword("value")
        return {"cell": cell, "value": int_attr(parse_int_in(parser, 0, MAX_U64, "value"))}

    @classmethod
    def print_fields(cls, printer: Printer, props: Mapping[str, Attribute]) -> None:
        print_symbol(printer, props["cell"])  # type: ignore[arg-type]
        printer.print_string(f" value {props['value'].data}")  # type: ignore[attr-defined]


@irdl_op_definition
class ValueWaitOp(TaskOp):
    """Wait until a cell satisfies a rule: `aclgraph.value_wait seq 6 @c0 eq 1`.

    `external`: the model expects the cell to be satisfied from outside (another model, the
    host); without it, some write of the model must satisfy the wait.
    """

    name = "aclgraph.value_wait"
    KIND: ClassVar[str] = "value_wait"
    KEEPS_WAS: ClassVar[bool] = True

    was_kind = opt_prop_def(StringAttr)
    was = opt_prop_def(DictionaryAttr)

    cell = prop_def(SymbolRefAttr)
    value = prop_def(IntAttr)
    rule = prop_def(WaitRuleAttr)
    external = opt_prop_def(UnitAttr)

    def __init__(self, seq: int, cell: str, rule: WaitRule, value: int, task_group: bool = False,
                 external: bool = False):
        props: dict[str, Attribute] = {
            "seq": int_attr(seq),
            "cell": symbol_ref(cell),
            "value": int_attr(value),
            "rule": wait_rule_attr(rule),
        }
        if task_group:
            props["task_group"] = _UNIT
        if external:
            props["external"] = _UNIT
        build_op(self, props)

    @classmethod
    def parse_fields(cls, parser: Parser) -> dict[str, Attribute]:
        cell = parse_symbol(parser)
        rule = parse_enum(parser, WaitRule, "wait rule")
        value = parse_int_in(parser, 0, MAX_U64, "value")
        props = {"cell": cell, "rule": wait_rule_attr(rule), "value": int_attr(value)}
        if parser.parse_optional_keyword("external"):
            props["external"] = _UNIT
        return props

    @classmethod
    def print_fields(cls, printer: Printer, props: Mapping[str, Attribute]) -> None:
        print_symbol(printer, props["cell"])  # type: ignore[arg-type]
        printer.print_string(f" {props['rule'].data.value} {props['value'].data}")  # type: ignore
        if "external" in props:
            printer.print_string(" external")


@irdl_op_definition
class OpaqueOp(TaskOp):
    """A runtime task skir cannot look into (memcpy, aicpu, notify, hccl, ...); never fused.

    Notify tasks may name their notify: `aclgraph.opaque seq 4 notify_record "n0"`.
    """

    name = "aclgraph.opaque"
    KIND: ClassVar[str] = "opaque"

    kind = prop_def(OpaqueKindAttr)
    notify = opt_prop_def(StringAttr)

    def __init__(
        self, seq: int, kind: OpaqueKind, notify: str | None = None, task_group: bool = False
    ):
        props: dict[str, Attribute] = {"seq": int_attr(seq), "kind": opaque_kind_attr(kind)}
        if notify is not None:
            props["notify"] = string_attr(notify)
        if task_group:
            props["task_group"] = _UNIT
        build_op(self, props)

    @classmethod
    def parse_fields(cls, parser: Parser) -> dict[str, Attribute]:
        props: dict[str, Attribute] = {
            "kind": opaque_kind_attr(parse_enum(parser, OpaqueKind, "opaque task kind"))
        }
        if (notify := parser.parse_optional_str_literal()) is not None:
            props["notify"] = string_attr(notify)
        return props

    @classmethod
    def print_fields(cls, printer: Printer, props: Mapping[str, Attribute]) -> None:
        printer.print_string(" " + props["kind"].data.value)  # type: ignore[attr-defined]
        if (notify := props.get("notify")) is not None:
            printer.print_string(" " + quoted(notify.data))  # type: ignore[attr-defined]

    def verify_(self) -> None:
        kind = self.kind.data
        if self.notify is not None and kind not in (OpaqueKind.NOTIFY_RECORD, OpaqueKind.NOTIFY_WAIT):
            raise TaskVerifyException(
                self,
                f"{task_path(self)}: only notify_record / notify_wait tasks name a notify, "
                f"not {kind.value}; drop the name",
            )


class MarkerOp(TaskOp, ABC):
    """Base of the scope markers: a scope name, or `none` for a "do not fuse" scope."""

    scope = opt_prop_def(StringAttr)

    @classmethod
    def parse_fields(cls, parser: Parser) -> dict[str, Attribute]:
        if parser.parse_optional_keyword("none"):
            return {}
        start = parser.pos
        name = parser.parse_optional_str_literal()
        if name is None:
            parser.raise_error('expected a scope name ("name") or none', start, parser.pos)
        return {"scope": string_attr(name)}

    @classmethod
    def print_fields(cls, printer: Printer, props: Mapping[str, Attribute]) -> None:
        scope = props.get("scope")
        printer.print_string(" none" if scope is None else " " + quoted(scope.data))  # type: ignore


@irdl_op_definition
class ScopeBeginOp(MarkerOp):
    """Open a scope: `aclgraph.scope_begin seq 0 "layer0" options "early-start=1"`.

    `none` opens a "do not fuse" scope. `options` are SuperKernel options for the
    kernels inside (the innermost named scope's options win).
    """

    name = "aclgraph.scope_begin"
    KIND: ClassVar[str] = "scope_begin"

    options = opt_prop_def(StringAttr)

    def __init__(self, seq: int, scope: str | None, options: str | None = None):
        props: dict[str, Attribute] = {"seq": int_attr(seq)}
        if scope is not None:
            props["scope"] = string_attr(scope)
        if options is not None:
            props["options"] = StringAttr(options)
        build_op(self, props)

    @classmethod
    def parse_fields(cls, parser: Parser) -> dict[str, Attribute]:
        props = super().parse_fields(parser)
        if parser.parse_optional_keyword("options"):
            props["options"] = StringAttr(parser.parse_str_literal())
        return props

    @classmethod
    def print_fields(cls, printer: Printer, props: Mapping[str, Attribute]) -> None:
        super().print_fields(printer, props)
        if (options := props.get("options")) is not None:
            printer.print_string(" options " + quoted(options.data))  # type: ignore[attr-defined]


@irdl_op_definition
class ScopeEndOp(MarkerOp):
    """Close the most recent open scope of the same name: `aclgraph.scope_end seq 9 "layer0"`."""

    name = "aclgraph.scope_end"
    KIND: ClassVar[str] = "scope_end"

    def __init__(self, seq: int, scope: str | None):
        props: dict[str, Attribute] = {"seq": int_attr(seq)}
        if scope is not None:
            props["scope"] = string_attr(scope)
        build_op(self, props)


@irdl_op_definition
class PlaceholderOp(TaskOp):
    """A spare slot planted next to a scope marker: `aclgraph.placeholder seq 1`."""

    name = "aclgraph.placeholder"
    KIND: ClassVar[str] = "placeholder"

    def __init__(self, seq: int):
        build_op(self, {"seq": int_attr(seq)})


@irdl_op_definition
class LaunchSkOp(TaskOp):
    """The launch of a SuperKernel, in the slot of one of its members.

    ```mlir
    aclgraph.launch seq 3 @a blocks 48        // before
    aclgraph.launch_sk seq 3 @m_sk0           // after sk-outline
    ```
    """

    name = "aclgraph.launch_sk"
    KIND: ClassVar[str] = "launch_sk"
    KEEPS_WAS: ClassVar[bool] = True

    was_kind = opt_prop_def(StringAttr)
    was = opt_prop_def(DictionaryAttr)

    sk = prop_def(SymbolRefAttr)

    def __init__(self, seq: int, sk: str):
        build_op(self, {"seq": int_attr(seq), "sk": symbol_ref(sk)})

    @classmethod
    def parse_fields(cls, parser: Parser) -> dict[str, Attribute]:
        return {"sk": parse_symbol(parser)}

    @classmethod
    def print_fields(cls, printer: Printer, props: Mapping[str, Attribute]) -> None:
        print_symbol(printer, props["sk"])  # type: ignore[arg-type]


@irdl_op_definition
class DisabledOp(TaskOp):
    """A slot disabled by a rewrite; `was` keeps the original task.

    ```mlir
    aclgraph.launch seq 4 @b blocks 1                  // before
    aclgraph.disabled seq 4 was launch @b blocks 1     // after sk-outline
    ```
    """

    name = "aclgraph.disabled"
    KIND: ClassVar[str] = "disabled"

    was_kind = prop_def(StringAttr)
    was = prop_def(DictionaryAttr)

    def __init__(self, original: TaskOp):
        build_op(self, {"seq": original.seq, **was_props(original)})

    @classmethod
    def parse_fields(cls, parser: Parser) -> dict[str, Attribute]:
        parser.parse_keyword("was")
        return _parse_was(parser)

    @classmethod
    def print_fields(cls, printer: Printer, props: Mapping[str, Attribute]) -> None:
        _print_was(printer, props)

    def original(self) -> TaskOp:
        """A fresh copy of the task this slot held before it was disabled."""
        cls = REENABLEABLE_TASKS[self.was_kind.data]
        return new_op(cls, {**self.was.data, "seq": self.seq})

    def verify_(self) -> None:
        if self.was_kind.data not in REENABLEABLE_TASKS:
            raise TaskVerifyException(
                self, f"{task_path(self)}: 'was' names unknown task kind '{self.was_kind.data}'"
            )


TASK_OPS: tuple[type[TaskOp], ...] = (
    LaunchOp,
    RecordOp,
    WaitOp,
    ResetOp,
    ValueWriteOp,
    ValueWaitOp,
    OpaqueOp,
    ScopeBeginOp,
    ScopeEndOp,
    PlaceholderOp,
    LaunchSkOp,
    DisabledOp,
)

REENABLEABLE_TASKS: dict[str, type[TaskOp]] = {
    cls.KIND: cls for cls in TASK_OPS if cls not in (LaunchSkOp, DisabledOp)
}

ACLGraph = Dialect(
    "aclgraph",
    [ModelOp, StreamOp, KernelOp, BufferOp, EventOp, CellOp, *TASK_OPS],
    [KernelTypeAttr, ParamRoleAttr, SchedModeAttr, WaitRuleAttr, OpaqueKindAttr],
)
fast_verify_all(ACLGraph.operations)
