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
checked in one sweep by the model's verifier (`skir.analysis.proof.model_check`, which installs itself
as the verifier's rule: `install_model_rule`).

The containers live in `skir.dialects.aclgraph_model`, the task base in
`skir.dialects.aclgraph_task`, the synchronisation tasks in `skir.dialects.aclgraph_events`
and the slots rewrites leave in `skir.dialects.aclgraph_slots`; this module defines the
kernel launch, the opaque task, the stream-activate task and the scope markers, and the
dialect, and re-exports the rest.
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Mapping
from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr, FloatData, IntAttr, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Dialect
from xdsl.irdl import irdl_op_definition, opt_prop_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer

from skir.dialects.aclgraph_cond import CondKind, CondOp
from skir.dialects.aclgraph_decls import BufferOp, CellOp, EventOp, KernelOp
from skir.dialects.aclgraph_enums import (
    CommOp,
    CommOpAttr,
    KernelTypeAttr,
    OpaqueKind,
    OpaqueKindAttr,
    ParamRoleAttr,
    SchedModeAttr,
    WaitRuleAttr,
    comm_op_attr,
    opaque_kind_attr,
)
from skir.dialects.aclgraph_events import (
    MAX_U64,
    EventTaskOp,
    RecordOp,
    ResetOp,
    ValueWaitOp,
    ValueWriteOp,
    WaitOp,
)
from skir.dialects.aclgraph_model import MAX_BLOCKS, ModelOp, StreamOp, install_model_rule
from skir.dialects.aclgraph_slots import DisabledOp, LaunchSkOp, PlaceholderOp
from skir.dialects.aclgraph_task import REENABLEABLE_TASKS, TaskOp, group_props, was_props
from skir.dialects.options_attr import SkOptionsAttr, parse_options_literal
from skir.dialects.syntax import (
    build_op,
    float_literal,
    int_attr,
    parse_enum,
    parse_int_in,
    parse_paren_list,
    parse_symbol,
    print_symbol,
    quoted,
    string_attr,
    symbol_ref,
)
from skir.errors import TaskVerifyException, task_path
from skir.names import name_problem
from skir.options import SkOptions
from skir.xdsl_fast.verify import fast_verify_all

MAX_COMM_BYTES = (1 << 62) - 1
"""The largest `bytes` a communication kernel may say it moves."""

__all__ = [
    "MAX_BLOCKS", "MAX_U64", "REENABLEABLE_TASKS", "TASK_OPS", "ACLGraph", "CondKind", "CondOp", "DisabledOp",
    "EventTaskOp",
    "LaunchOp", "LaunchSkOp", "MarkerOp", "ModelOp", "OpaqueOp", "PlaceholderOp", "RecordOp", "ResetOp",
    "ScopeBeginOp", "ScopeEndOp", "StreamActiveOp", "StreamOp", "TaskOp", "ValueWaitOp", "ValueWriteOp", "WaitOp",
    "install_model_rule", "was_props",
]


@irdl_op_definition
class LaunchOp(TaskOp):
    """A kernel launch: `aclgraph.launch seq 3 @k blocks 48 args(@x, @y) duration 2.5`.

    `args` (one buffer per kernel parameter) and `duration` (microseconds) are optional. A
    communication kernel (a collective HCCL expands into a vector-core kernel, or a MoE
    dispatch / combine) says what it does and with whom: `comm group tp0 op all_reduce
    bytes 8192` (`bytes` optional: else its `out` args' sizes) — every rank of group `tp0` must
    run the group's collectives in the same order, and all its blocks must be resident together.
    """

    name = "aclgraph.launch"
    KIND: ClassVar[str] = "launch"

    kernel = prop_def(SymbolRefAttr)
    blocks = prop_def(IntAttr)
    args = opt_prop_def(ArrayAttr[SymbolRefAttr])
    duration = opt_prop_def(FloatData)
    comm_group = opt_prop_def(StringAttr)
    comm_op = opt_prop_def(CommOpAttr)
    comm_bytes = opt_prop_def(IntAttr)

    def __init__(
        self,
        seq: int,
        kernel: str,
        blocks: int,
        args: list[str] | None = None,
        duration: float | None = None,
        task_group: int | bool | None = None,
        comm: tuple[str, CommOp, int | None] | None = None,
        update: str | None = None,
    ):
        props: dict[str, Attribute] = {
            "seq": int_attr(seq),
            "kernel": symbol_ref(kernel),
            "blocks": int_attr(blocks),
        }
        if comm is not None:
            props["comm_group"], props["comm_op"] = string_attr(comm[0]), comm_op_attr(comm[1])
            if comm[2] is not None:
                props["comm_bytes"] = int_attr(comm[2])
        if args is not None:
            props["args"] = ArrayAttr(symbol_ref(a) for a in args)
        if duration is not None:
            props["duration"] = FloatData(float(duration))
        props.update(group_props(task_group, update))
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
        if parser.parse_optional_keyword("comm"):
            parser.parse_keyword("group")
            start = parser.pos
            group = parser.parse_identifier()
            if (problem := name_problem(group)) is not None:
                parser.raise_error(f"comm group: {problem}", start, parser.pos)
            props["comm_group"] = string_attr(group)
            parser.parse_keyword("op")
            props["comm_op"] = comm_op_attr(parse_enum(parser, CommOp, "a collective"))
            if parser.parse_optional_keyword("bytes"):
                props["comm_bytes"] = int_attr(parse_int_in(parser, 0, MAX_COMM_BYTES, "comm bytes"))
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
        if (group := props.get("comm_group")) is not None:
            printer.print_string(f" comm group {group.data} op {props['comm_op'].data.value}")  # type: ignore
            if (size := props.get("comm_bytes")) is not None:
                printer.print_string(f" bytes {size.data}")  # type: ignore[attr-defined]

    def verify_(self) -> None:
        self.verify_group()
        if not 1 <= self.blocks.data <= MAX_BLOCKS:
            raise TaskVerifyException(
                self, f"{task_path(self)}: blocks must be in [1, {MAX_BLOCKS}], got {self.blocks.data}"
            )
        if (self.comm_group is None) != (self.comm_op is None) or (self.comm_bytes is not None
                                                                    and self.comm_group is None):
            raise TaskVerifyException(self, f"{task_path(self)}: a communication kernel names its group and its op "
                                            "(comm group G op OP [bytes N])")
        if self.comm_group is not None and (problem := name_problem(self.comm_group.data)) is not None:
            raise TaskVerifyException(self, f"{task_path(self)}: comm group: {problem}")

    @property
    def comm(self) -> tuple[str, CommOp] | None:
        """(group, op) of a communication kernel, else None."""
        if self.comm_group is None or self.comm_op is None:
            return None
        return self.comm_group.data, self.comm_op.data



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
        self, seq: int, kind: OpaqueKind, notify: str | None = None, task_group: int | bool | None = None
    ):
        props: dict[str, Attribute] = {"seq": int_attr(seq), "kind": opaque_kind_attr(kind)}
        if notify is not None:
            props["notify"] = string_attr(notify)
        props.update(group_props(task_group))
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
        self.verify_group()
        kind = self.kind.data
        if self.notify is not None and kind not in (OpaqueKind.NOTIFY_RECORD, OpaqueKind.NOTIFY_WAIT):
            raise TaskVerifyException(
                self,
                f"{task_path(self)}: only notify_record / notify_wait tasks name a notify, "
                f"not {kind.value}; drop the name",
            )


@irdl_op_definition
class StreamActiveOp(TaskOp):
    """Activate another stream of the model: `aclgraph.stream_active seq 4 @s1`.

    When a capture stream's submission queue runs out, the runtime continues the capture on a
    new stream and joins the two with a stream-activate task (a cascade capture stream): the
    activated stream's tasks all happen after this task (docs/design.md §3 "Happens-before").
    A stream is activated at most once and never by itself; a stream no task activates runs
    from the start. The task does no work and is never rewritten.

    ```mlir
    aclgraph.stream @s0 slots 2 {
      aclgraph.launch seq 0 @k blocks 8
      aclgraph.stream_active seq 1 @s1
    }
    aclgraph.stream @s1 slots 1 {
      aclgraph.launch seq 2 @k blocks 8
    }
    ```
    """

    name = "aclgraph.stream_active"
    KIND: ClassVar[str] = "stream_active"

    stream = prop_def(SymbolRefAttr)

    def __init__(self, seq: int, stream: str, task_group: int | bool | None = None):
        props: dict[str, Attribute] = {"seq": int_attr(seq), "stream": symbol_ref(stream)}
        props.update(group_props(task_group))
        build_op(self, props)

    @classmethod
    def parse_fields(cls, parser: Parser) -> dict[str, Attribute]:
        return {"stream": parse_symbol(parser)}

    @classmethod
    def print_fields(cls, printer: Printer, props: Mapping[str, Attribute]) -> None:
        print_symbol(printer, props["stream"])  # type: ignore[arg-type]

    def verify_(self) -> None:
        self.verify_group()
        parent = self.parent_op()
        target = self.stream.root_reference.data
        if isinstance(parent, StreamOp) and parent.sym_name.data == target:
            raise TaskVerifyException(
                self, f"{task_path(self)}: stream_active activates its own stream @{target}; "
                      "name the stream the capture continues on"
            )

    @property
    def target(self) -> str:
        """The name of the activated stream."""
        return self.stream.root_reference.data


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

    options = opt_prop_def(SkOptionsAttr)
    """Typed: parsed once where the model entered (the literal, a capture's JSON path)."""

    def __init__(self, seq: int, scope: str | None, options: SkOptions | None = None):
        props: dict[str, Attribute] = {"seq": int_attr(seq)}
        if scope is not None:
            props["scope"] = string_attr(scope)
        if options is not None:
            props["options"] = SkOptionsAttr(options)
        build_op(self, props)

    @classmethod
    def parse_fields(cls, parser: Parser) -> dict[str, Attribute]:
        props = super().parse_fields(parser)
        if parser.parse_optional_keyword("options"):
            props["options"] = SkOptionsAttr(parse_options_literal(parser))
        return props

    @classmethod
    def print_fields(cls, printer: Printer, props: Mapping[str, Attribute]) -> None:
        super().print_fields(printer, props)
        if (options := props.get("options")) is not None:
            printer.print_string(" options " + quoted(options.text()))  # type: ignore[attr-defined]

    def verify_(self) -> None:
        self.verify_group()


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


TASK_OPS: tuple[type[TaskOp], ...] = (
    LaunchOp,
    RecordOp,
    WaitOp,
    ResetOp,
    ValueWriteOp,
    ValueWaitOp,
    OpaqueOp,
    StreamActiveOp,
    ScopeBeginOp,
    ScopeEndOp,
    PlaceholderOp,
    LaunchSkOp,
    DisabledOp,
)

# a stream_active task is never rewritten, so no slot ever held one (`was`)
REENABLEABLE_TASKS.update({cls.KIND: cls for cls in TASK_OPS if cls not in (LaunchSkOp, DisabledOp, StreamActiveOp)})

ACLGraph = Dialect(
    "aclgraph",
    [ModelOp, StreamOp, KernelOp, BufferOp, EventOp, CellOp, *TASK_OPS, CondOp],
    [KernelTypeAttr, ParamRoleAttr, SchedModeAttr, WaitRuleAttr, OpaqueKindAttr, CommOpAttr],
)
fast_verify_all(ACLGraph.operations)
