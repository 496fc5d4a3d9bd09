"""`sk-outline`: one `sk.kernel` per SuperKernel formed by `sk-form-scopes`.

The members of group N (kernel tasks with `sk.group = N`) become `sk.subtask`s in seq
order; the SuperKernel `@<model>_sk<N>` gets its type and launch blocks by the vendor
table and an argument table (slot 0: the FFTS base, then each member's params). The
first member's slot launches the SuperKernel; the other member slots are disabled, so
every stream keeps its slot count and order.

```mlir
aclgraph.stream @s0 slots 2 {
  aclgraph.launch seq 0 @a blocks 48 args(@x, @y) attributes {sk.group = 0 : i64}
  aclgraph.launch seq 1 @b blocks 8 args(@y, @z) attributes {sk.group = 0 : i64}
}
```
becomes
```mlir
aclgraph.stream @s0 slots 2 {
  aclgraph.launch_sk seq 0 @m_sk0
  aclgraph.disabled seq 1 was launch @b blocks 8 args(@y, @z)
}
sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 5 {
  aic {
  }
  aiv {
    sk.subtask id 0 @a blocks 48 offset 1 from @s0 seq 0
    sk.subtask id 1 @b blocks 8 offset 3 from @s0 seq 1 after [0]
  }
}
```
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from skir.analysis.superkernel_shape import superkernel_shape
from skir.dialects.aclgraph import DisabledOp, LaunchOp, LaunchSkOp, ModelOp, StreamOp
from skir.dialects.aclgraph_enums import CoreClass, core_class
from skir.dialects.superkernel import SkForm, SubtaskOp, SuperKernelOp
from skir.passes.common import group_of, kernel_table, models, pass_options


def superkernel_name(model: ModelOp, index: int) -> str:
    return f"{model.sym_name.data}_sk{index}"


def outline_model(model: ModelOp, options_text: str) -> list[SuperKernelOp]:
    """Outline every group of `model`; returns the new `sk.kernel` ops in group order."""
    kernels = kernel_table(model)
    groups: dict[int, list[tuple[LaunchOp, StreamOp]]] = defaultdict(list)
    for stream in model.body.block.ops:
        if isinstance(stream, StreamOp):
            for op in stream.body.block.ops:
                if isinstance(op, LaunchOp) and (group := group_of(op)) is not None:
                    groups[group].append((op, stream))
    created: list[SuperKernelOp] = []
    for index in sorted(groups):
        members = sorted(groups[index], key=lambda m: m[0].seq.data)
        name = superkernel_name(model, index)
        shape = superkernel_shape(
            (kernels[op.kernel.root_reference.data].type, op.blocks.data) for op, _ in members
        )
        aic, aiv = Block(), Block()
        offset = 1
        last_on_stream: dict[str, int] = {}
        for ident, (op, stream) in enumerate(members):
            kernel = kernels[op.kernel.root_reference.data]
            stream_name = stream.sym_name.data
            deps = [last_on_stream[stream_name]] if stream_name in last_on_stream else []
            last_on_stream[stream_name] = ident
            cls = core_class(kernel.type)
            for block, wanted in ((aic, CoreClass.AIC), (aiv, CoreClass.AIV)):
                if cls in (wanted, CoreClass.MIX):
                    block.add_op(
                        SubtaskOp(
                            ident, kernel.sym_name.data, op.blocks.data, offset, stream_name, op.seq.data, deps
                        )
                    )
            offset += kernel.num_params
        sk = SuperKernelOp(
            name, shape.kernel_type, shape.blocks, SkForm.CHAIN, offset, options_text, Region(aic), Region(aiv)
        )
        model.body.block.add_op(sk)
        created.append(sk)
        host, *rest = (op for op, _ in members)
        Rewriter.replace_op(host, LaunchSkOp(host.seq.data, name))
        for op in rest:
            Rewriter.replace_op(op, DisabledOp(op))
    return created


@dataclass(frozen=True)
class OutlinePass(ModulePass):
    """Create one `sk.kernel` per formed SuperKernel and rewrite the member slots."""

    name = "sk-outline"

    options: str = ""
    """SuperKernel options (vendor syntax), recorded on each `sk.kernel`."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        options = pass_options(self.options)
        for model in models(op):
            outline_model(model, options.to_string())
