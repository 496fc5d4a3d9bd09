"""Which kernel task a traced PyTorch op becomes: its class, kernel type and work.

Ops are named plainly (`torch.relu_` -> `relu_`, `operator.add` -> `add`); a trailing `_`
marks an in-place op.

- `matmul` (matmul, mm, bmm): an `aic_only` kernel.
- `matmul_epilogue` (linear, addmm, baddbmm, addbmm, conv1d/2d/3d, conv_transpose1d/2d/3d,
  scaled_dot_product_attention): a `mix_aic_1_2` kernel, cube work plus a vector epilogue;
  `linear` and convolutions without a bias are `aic_only`.
- `vector` (elementwise, norms, softmax, reductions, casts, gathers, scatters, concatenation,
  fills): an `aiv_only` kernel.
- `view` (view, reshape, permute, transpose, slicing, getitem, contiguous, detach, ...): no
  task; the result aliases its input's buffer.
- `meta` (size, dim, numel, ...): no task and no buffer.
- anything else: an opaque `aicpu` task, with a warning.
"""

from __future__ import annotations

import operator
from enum import Enum
from typing import Any


class OpClass(Enum):
    """How an op is captured."""

    MATMUL = "matmul"
    MATMUL_EPILOGUE = "matmul_epilogue"
    VECTOR = "vector"
    VIEW = "view"
    META = "meta"
    UNSUPPORTED = "unsupported"


_MATMUL = {"matmul", "mm", "bmm"}
_MATMUL_EPILOGUE = {
    "linear", "addmm", "baddbmm", "addbmm", "conv1d", "conv2d", "conv3d", "convolution",
    "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "scaled_dot_product_attention",
}
_ELEMENTWISE = {
    "add", "sub", "mul", "div", "truediv", "floordiv", "true_divide", "pow", "neg", "abs", "exp", "log",
    "sqrt", "rsqrt", "reciprocal", "sin", "cos", "tanh", "sigmoid", "relu", "relu6", "gelu", "silu", "mish",
    "softplus", "hardtanh", "hardswish", "hardsigmoid", "leaky_relu", "elu", "erf", "clamp", "clip", "maximum",
    "minimum", "where", "masked_fill", "dropout", "eq", "ne", "lt", "le", "gt", "ge", "logical_and",
    "logical_or", "logical_not", "sign", "square", "lerp", "addcmul", "addcdiv", "to", "type", "float", "half",
    "bfloat16", "int", "long", "bool", "clone", "copy", "fill", "zero", "zeros_like", "ones_like", "full_like",
    "empty_like", "zeros", "ones", "full", "arange", "tril", "triu", "glu", "silu_and_mul",
}
_NORMS = {"layer_norm", "rms_norm", "group_norm", "batch_norm", "instance_norm", "normalize"}
_SOFTMAX = {"softmax", "log_softmax"}
_REDUCTIONS = {
    "sum", "mean", "amax", "amin", "max", "min", "var", "std", "norm", "argmax", "argmin", "topk", "cumsum",
    "logsumexp", "prod", "all", "any",
}
_MOVES = {
    "cat", "concat", "stack", "gather", "index_select", "embedding", "scatter", "scatter_add", "index_add",
    "index_copy", "index_put", "masked_scatter", "repeat", "repeat_interleave", "roll", "flip", "pad", "one_hot",
}
SCATTERS = {"index_copy", "index_add", "scatter", "scatter_add", "index_put", "masked_scatter"}
"""In-place ops that touch only the rows they are given, not the whole tensor they update."""

_VIEWS = {
    "view", "reshape", "permute", "transpose", "t", "unsqueeze", "squeeze", "flatten", "unflatten", "expand",
    "expand_as", "view_as", "reshape_as", "narrow", "select", "split", "chunk", "unbind", "getitem",
    "contiguous", "detach", "movedim", "swapaxes", "as_strided", "slice", "alias", "identity",
}
_META = {"size", "dim", "numel", "stride", "is_contiguous", "getattr", "shape", "dtype", "device", "sym_size"}

FLOPS_PER_ELEMENT = {**{n: 1 for n in _ELEMENTWISE | _MOVES | _REDUCTIONS}, **{n: 5 for n in _NORMS | _SOFTMAX}}
"""Vector work per output (elementwise) or input (norms, softmax, reductions) element."""

_OPERATOR_NAMES = {
    operator.add: "add", operator.iadd: "add_", operator.sub: "sub", operator.isub: "sub_",
    operator.mul: "mul", operator.imul: "mul_", operator.truediv: "truediv", operator.itruediv: "div_",
    operator.floordiv: "floordiv", operator.matmul: "matmul", operator.neg: "neg", operator.pow: "pow",
    operator.getitem: "getitem", operator.eq: "eq", operator.ne: "ne", operator.lt: "lt", operator.le: "le",
    operator.gt: "gt", operator.ge: "ge", getattr: "getattr",
}


def op_name(op: str, target: Any) -> str:
    """The plain name of an FX node's target: `torch.relu_` -> `relu_`, `operator.add` -> `add`."""
    if op == "call_method":
        return str(target)
    if target in _OPERATOR_NAMES:
        return _OPERATOR_NAMES[target]
    name = getattr(target, "__name__", None) or str(target)
    return name.split(".")[-1]


def base_name(name: str) -> tuple[str, bool]:
    """The op name without the in-place marker, and whether the op works in place."""
    if name.endswith("_") and not name.startswith("_"):
        return name[:-1], True
    return name, False


def classify(name: str) -> OpClass:
    """The class of an op given by its plain name (in-place marker removed)."""
    if name in _MATMUL:
        return OpClass.MATMUL
    if name in _MATMUL_EPILOGUE:
        return OpClass.MATMUL_EPILOGUE
    if name in _VIEWS:
        return OpClass.VIEW
    if name in _META:
        return OpClass.META
    if name in FLOPS_PER_ELEMENT:
        return OpClass.VECTOR
    return OpClass.UNSUPPORTED


def kernel_name(name: str) -> str:
    """A C identifier for the kernel of op `name`."""
    cleaned = "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in name).strip("_") or "op"
    return cleaned if not cleaned[0].isdigit() else f"op_{cleaned}"
