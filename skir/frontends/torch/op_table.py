"""Which kernel task a traced PyTorch op becomes: its class, kernel type and work.

Ops are named plainly (`torch.relu_` -> `relu_`, `operator.add` -> `add`); a trailing `_`
marks an in-place op. The table speaks for the ops of `TABLE_NAMESPACES` only (aten, prims,
torch's Python functions and tensor methods, torch_npu's `npu` and `atb`): an op of any other
namespace (`mylib::softmax`, vllm's `_C::rms_norm`) is the user's, an opaque task until
`register_op` maps it, whatever its plain name.

- `matmul` (matmul, mm, bmm, einsum, grouped mm): an `aic_only` kernel; a grouped matmul is
  charged for the expert weights its rows can be routed to, not all of them.
- `matmul_epilogue` (linear, addmm, baddbmm, addbmm, conv1d/2d/3d, conv_transpose1d/2d/3d,
  scaled_dot_product_attention): a `mix_aic_1_2` kernel, cube work plus a vector epilogue;
  `linear` and convolutions without a bias are `aic_only`.
- `vector` (elementwise, norms, softmax, reductions, casts, gathers, scatters, concatenation,
  fills, `eye`, `floor_divide`, interpolation / upsampling, `im2col` / `col2im`): an `aiv_only`
  kernel.
- `view` (view, reshape, permute, transpose, slicing, getitem, `.T`, view_as_real, detach,
  ...): no task; the result aliases its input's buffer, so a later reader depends on the base.
- `alloc` (empty, empty_like, new_empty): no task, a new buffer.
- `host_copy` (`torch.tensor([...])`, `as_tensor`): an opaque `memcpy` task (host to device).
- `meta` (size, dim, numel, shape asserts, API-usage logging): no task and no buffer.
- refined by their arguments (`op_refine`): `contiguous` / `reshape` / `flatten` copy (a vector
  task) only when the input is not laid out for a view; casts to the same dtype and eval-mode
  dropout are views; a `getitem` with a tensor index is a gather.
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
    ALLOC = "alloc"
    HOST_COPY = "host_copy"
    META = "meta"
    UNSUPPORTED = "unsupported"


_MATMUL = {"matmul", "mm", "bmm", "_grouped_mm", "grouped_mm", "einsum"}
GROUPED_MATMULS = {"_grouped_mm", "grouped_mm", "npu_grouped_matmul"}
"""Matmuls over stacked expert weights: they read the weights of the experts their rows are
routed to (at most one per row), not every expert's."""
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
    "zeros", "ones", "full", "arange", "tril", "triu", "glu", "silu_and_mul", "new_ones", "new_zeros", "new_full",
    "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "remainder", "fmod", "polar", "complex",
    "_to_copy", "type_as", "lift_fresh_copy", "contiguous", "isnan", "isinf", "nan_to_num",
    "floor_divide", "eye", "interpolate", "upsample", "upsample_nearest", "upsample_bilinear",
    "upsample_nearest1d", "upsample_nearest2d", "upsample_nearest3d", "_upsample_nearest_exact1d",
    "_upsample_nearest_exact2d", "_upsample_nearest_exact3d", "upsample_linear1d", "upsample_bilinear2d",
    "upsample_bicubic2d", "upsample_trilinear3d",
}
_NORMS = {"layer_norm", "rms_norm", "group_norm", "batch_norm", "instance_norm", "normalize"}
_SOFTMAX = {"softmax", "log_softmax"}
_REDUCTIONS = {
    "sum", "mean", "amax", "amin", "max", "min", "var", "std", "norm", "argmax", "argmin", "topk", "cumsum",
    "logsumexp", "prod", "all", "any", "sort", "argsort", "histc", "diff", "cummax", "cummin",
}
_MOVES = {
    "cat", "concat", "stack", "gather", "index_select", "embedding", "scatter", "scatter_add", "index_add",
    "index_copy", "index_put", "masked_scatter", "repeat", "repeat_interleave", "roll", "flip", "pad", "one_hot",
    "index", "setitem", "im2col", "col2im",
}
GATHERS = {"index", "embedding", "index_select", "gather", "take", "take_along_dim"}
"""Lookups: they move the rows they return, not the table they read from."""
SCATTERS = {"index_copy", "index_add", "scatter", "scatter_add", "index_put", "masked_scatter", "setitem"}
"""In-place ops that touch only the rows they are given, not the whole tensor they update."""

_VIEWS = {
    "view", "reshape", "permute", "transpose", "t", "unsqueeze", "squeeze", "flatten", "unflatten", "expand",
    "expand_as", "view_as", "reshape_as", "narrow", "select", "split", "chunk", "unbind", "getitem",
    "detach", "movedim", "swapaxes", "as_strided", "slice", "alias", "identity", "numpy_T", "T", "mT", "H",
    "mH", "adjoint", "view_as_real", "view_as_complex", "_unsafe_view", "split_with_sizes", "diagonal", "unfold",
    "real", "imag", "conj", "resolve_conj", "resolve_neg", "_add_batch_dim", "_remove_batch_dim",
}
"""No task: the result is (a window of) its input's buffer. `contiguous`, `reshape`, `flatten`
and casts are refined by their arguments (`op_refine`): a copy when the input needs one."""
ALLOCS = {"empty", "empty_like", "new_empty", "empty_strided", "new_empty_strided"}
HOST_COPIES = {"tensor", "as_tensor", "scalar_tensor", "from_numpy"}
"""A tensor made from host data (`torch.tensor([...])` in the model): an opaque memcpy task."""
"""No task: a buffer whose contents the graph writes later."""
_META = {"size", "dim", "numel", "stride", "is_contiguous", "getattr", "shape", "dtype", "device", "sym_size",
         "sym_numel", "sym_stride", "_log_api_usage_once", "_assert_scalar", "_assert_tensor_metadata",
         "_assert_async", "sym_constrain_range_for_size", "sym_constrain_range", "_check", "_check_is_size"}
"""No task and no buffer: shape queries, asserts on shapes and API-usage logging."""

FLOPS_PER_ELEMENT = {**{n: 1 for n in _ELEMENTWISE | _MOVES | _REDUCTIONS}, **{n: 5 for n in _NORMS | _SOFTMAX}}
"""Vector work per output (elementwise) or input (norms, softmax, reductions) element."""

_OPERATOR_NAMES = {
    operator.add: "add", operator.iadd: "add_", operator.sub: "sub", operator.isub: "sub_",
    operator.mul: "mul", operator.imul: "mul_", operator.truediv: "truediv", operator.itruediv: "div_",
    operator.floordiv: "floordiv", operator.matmul: "matmul", operator.neg: "neg", operator.pow: "pow",
    operator.getitem: "getitem", operator.eq: "eq", operator.ne: "ne", operator.lt: "lt", operator.le: "le",
    operator.gt: "gt", operator.ge: "ge", getattr: "getattr", operator.and_: "bitwise_and",
    operator.or_: "bitwise_or", operator.xor: "bitwise_xor", operator.invert: "bitwise_not",
    operator.setitem: "setitem", operator.mod: "remainder",
}


_DUNDER = {"__and__": "bitwise_and", "__or__": "bitwise_or", "__xor__": "bitwise_xor", "__invert__": "bitwise_not",
           "__iand__": "bitwise_and_", "__ior__": "bitwise_or_", "__ixor__": "bitwise_xor_"}
"""aten's operator overloads, by the op they compute."""


TABLE_NAMESPACES = frozenset({"aten", "prims", "torch", "npu", "atb"})
"""Namespaces whose ops the table classes by plain name."""
COLLECTIVES = {"_c10d_functional::all_reduce": "all_reduce", "_c10d_functional::all_reduce_": "all_reduce",
               "_c10d_functional::all_gather_into_tensor": "all_gather",
               "_c10d_functional::reduce_scatter_tensor": "reduce_scatter",
               "_c10d_functional::all_to_all_single": "all_to_all"}
"""PyTorch's functional collectives (what `torch.compile` traces tensor-parallel code into): each
is a communication kernel task of its process group, as HCCL's AIV expansion runs it."""
COLLECTIVE_WAITS = frozenset({"_c10d_functional::wait_tensor"})
"""The wait after a functional collective: its users are after the collective through the
buffer, so it is no task (a view of the collective's result)."""
QUALIFIED_ALIASES = {"transformers::grouped_mm_fallback": "grouped_mm"}
"""Ops of other libraries the table knows by their qualified name: transformers 5's grouped
matmul over stacked experts (what its MoE layers export through)."""
_FUNCTIONAL_NOT_VIEWS = {"unfold": "im2col", "fold": "col2im"}
"""`torch.nn.functional` functions named like a view method that are not views."""


def op_namespace(op: str, target: Any) -> str:
    """The namespace of an FX node's target: `aten` for `torch.ops.aten.*`, `mylib` for a
    `torch.library` op of `mylib`, `torch` for torch's Python functions, tensor methods and
    `operator`, else the defining module of a Python function."""
    if op != "call_function" or target in _OPERATOR_NAMES:
        return "torch"
    qualified = qualified_name(target)
    if qualified is not None:
        return qualified.split("::")[0]
    module = getattr(target, "__module__", None) or ""
    if module.split(".")[0] in ("torch", "builtins", "math", "_operator", "operator") or not module:
        return "torch"
    return module.split(".")[0]


def qualified_name(target: Any) -> str | None:
    """`ns::name` of a torch op (an OpOverload, its packet, or a `custom_op` function), else None;
    torch_npu's Python functions (`torch_npu.npu_rms_norm`) are its `npu` ops."""
    target = getattr(target, "_opoverload", target)  # torch.library.custom_op's CustomOpDef
    packet = getattr(target, "overloadpacket", target)
    name = getattr(packet, "_qualified_op_name", None)
    if isinstance(name, str) and "::" in name:
        return name
    module, plain = getattr(target, "__module__", None) or "", getattr(target, "__name__", None)
    if module.split(".")[0] == "torch_npu" and isinstance(plain, str):
        return f"npu::{plain}"
    return None


def op_name(op: str, target: Any) -> str:
    """The plain name of an FX node's target: `torch.relu_` -> `relu_`, `operator.add` -> `add`,
    `torch.ops.aten.add_.Tensor` -> `add_`, `torch.ops.npu.npu_rms_norm.default` -> `npu_rms_norm`."""
    if op == "call_method":
        return _DUNDER.get(str(target), str(target))
    if target in _OPERATOR_NAMES:
        return _OPERATOR_NAMES[target]
    qualified = qualified_name(target)
    if qualified is not None:  # an op of torch.ops (an overload or its packet) or a custom op
        name = qualified.split("::")[-1].split(".")[0]
        return _DUNDER.get(name, name)
    name = (getattr(target, "__name__", None) or str(target)).split(".")[-1]
    if getattr(target, "__module__", None) == "torch.nn.functional":
        return _FUNCTIONAL_NOT_VIEWS.get(name, name)
    return name


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
    if name in ALLOCS:
        return OpClass.ALLOC
    if name in HOST_COPIES:
        return OpClass.HOST_COPY
    if name in _META:
        return OpClass.META
    if name in FLOPS_PER_ELEMENT:
        return OpClass.VECTOR
    return OpClass.UNSUPPORTED


def kernel_name(name: str) -> str:
    """A C identifier for the kernel of op `name`."""
    cleaned = "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in name).strip("_") or "op"
    return cleaned if not cleaned[0].isdigit() else f"op_{cleaned}"
