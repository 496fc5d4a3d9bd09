"""The kernel type, launch blocks and estimated duration of one captured op's kernel task
(docs/design.md §1: the torch front end; the roofline is `skir.frontends.torch.roofline`).

```
linear(x: 64x512 fp16, w: 512x512, b: 512)   -> mix_aic_1_2 (a vector epilogue for the bias),
                                                blocks = its output's cube tiles (at most the AI cores),
                                                duration = roofline of 2*64*512*512 cube FLOPs
relu(x: 64x512 fp16)                         -> aiv_only, one block per 2 KiB of the largest tensor
```

A matmul-class op (`OpClass.MATMUL`, `MATMUL_EPILOGUE`) runs on the cube (`aic_only`; with an
epilogue `mix_aic_1_2`, for `linear` and `conv*` only with a bias) and moves what it reads and
writes; a scatter moves its sources twice, a gather the rows it returns, a grouped matmul only
as many experts' weights as it has rows. Every other op is a vector kernel. An op registered
with `register_op` (`skir.frontends.torch.op_registry`) gives its own type, blocks and cost.
"""

from __future__ import annotations

import math
from typing import Any

import torch
from torch import fx

from skir.dialects.aclgraph_enums import CoreClass, KernelType, core_class
from skir.frontends.torch.op_registry import registered
from skir.frontends.torch.op_table import FLOPS_PER_ELEMENT, GATHERS, GROUPED_MATMULS, SCATTERS, OpClass
from skir.frontends.torch.roofline import DevicePeaks, cube_blocks, duration_us, output_tiles, vector_blocks
from skir.frontends.torch.tensor_info import TensorInfo


def estimate_kernel(node: fx.Node, name: str, qualified: str | None, cls: OpClass, infos: list[Any],
                    outs: list[Any], in_place: bool, reads: int, cores: tuple[int, int],
                    peaks: DevicePeaks) -> tuple[str, int, float]:
    """(kernel type, blocks, duration in us) of `node`'s kernel: `infos` are the tensors it reads,
    `outs` its results', `reads` the number of buffers it reads, `cores` the device's (aic, aiv)."""
    tensors = [i for i in infos + outs if isinstance(i, TensorInfo)]
    if in_place and name in SCATTERS:  # reads its sources and writes as many bytes into the target
        tensors = [i for i in infos[1:] if isinstance(i, TensorInfo)] * 2
    if name in GATHERS and outs and isinstance(outs[0], TensorInfo) and infos:
        # a lookup reads the rows it returns, not the whole table (the largest input)
        table = max((i for i in infos if isinstance(i, TensorInfo)), key=lambda i: i.nbytes)
        tensors = [i for i in infos if isinstance(i, TensorInfo) and i is not table] + [outs[0], outs[0]]
    if name in GROUPED_MATMULS:
        tensors = _routed_weights(tensors)
    bytes_moved = sum(i.nbytes for i in tensors)
    largest = max((i.nbytes for i in tensors), default=1)
    out = outs[0] if outs and isinstance(outs[0], TensorInfo) else (infos[0] if infos else None)
    aic, aiv = cores
    cube_flops = vector_flops = 0.0
    kernel_type = "aiv_only"
    if cls in (OpClass.MATMUL, OpClass.MATMUL_EPILOGUE) and isinstance(out, TensorInfo):
        equation = node.args[0] if node.args else node.kwargs.get("equation")
        cube_flops, vector_flops, tiles = _cube_work(name, infos, out, peaks, equation)
        if cls is OpClass.MATMUL:
            kernel_type = "aic_only"
        elif name == "linear" or name.startswith("conv"):  # a vector epilogue only for the bias
            kernel_type = "mix_aic_1_2" if reads >= 3 else "aic_only"
        else:
            kernel_type = "mix_aic_1_2"
        blocks = cube_blocks(tiles, aic)
        fraction = blocks / aic
        fp32 = any(isinstance(i, TensorInfo) and i.dtype == torch.float32 for i in infos)
    else:
        elements = max((i.numel for i in tensors), default=1)
        vector_flops = FLOPS_PER_ELEMENT.get(name, 1) * elements
        blocks = vector_blocks(largest, aiv, peaks)
        fraction = blocks / aiv
        fp32 = False
    custom = registered(qualified, name)
    if custom is not None:  # register_op: the user's kernel type, blocks and cost win
        kernel_type = custom.kernel_type
        tensor_outs = [o for o in outs if isinstance(o, TensorInfo)]
        if custom.blocks is not None:
            blocks = custom.blocks(infos, tensor_outs) if callable(custom.blocks) else custom.blocks
        elif core_class(KernelType(kernel_type)) is CoreClass.AIV:
            blocks = vector_blocks(largest, aiv, peaks)
        blocks = max(1, min(int(blocks), aiv if core_class(KernelType(kernel_type)) is CoreClass.AIV else aic))
    duration = duration_us(cube_flops, vector_flops, bytes_moved, fraction, fp32, peaks)
    if custom is not None and custom.cost is not None:
        cost = custom.cost(infos, [o for o in outs if isinstance(o, TensorInfo)]) if callable(custom.cost) \
            else custom.cost
        duration = round(float(cost), 2)
    return kernel_type, blocks, duration


def _routed_weights(tensors: list[TensorInfo]) -> list[TensorInfo]:
    """The tensors a grouped matmul moves: of stacked expert weights (E, K, N) only as many
    experts as it has rows (each row goes to one), at most E."""
    rows = tensors[0].shape[0] if tensors and tensors[0].shape else 1
    return [TensorInfo((min(i.shape[0], rows), *i.shape[1:]), i.dtype) if len(i.shape) == 3 and j > 0 else i
            for j, i in enumerate(tensors)]


def _einsum_flops(equation: str, tensors: list[TensorInfo]) -> float:
    """2 x the product of every index's size: each output element sums over the others."""
    sizes: dict[str, int] = {}
    for spec, info in zip(equation.split("->")[0].replace(" ", "").split(","), tensors, strict=False):
        for letter, size in zip(spec.replace("...", ""), info.shape[-len(spec.replace("...", "")):] if spec else (),
                                strict=False):
            sizes[letter] = max(sizes.get(letter, 1), size)
    return 2.0 * math.prod(sizes.values())


def _cube_work(name: str, infos: list[Any], out: TensorInfo, peaks: DevicePeaks,
               equation: Any = None) -> tuple[float, float, int]:
    """(cube FLOPs, vector FLOPs, independent output tiles) of a matmul-class op."""
    tensors = [i for i in infos if isinstance(i, TensorInfo)]
    first = tensors[0] if tensors else out
    cols = out.shape[-1] if out.shape else 1
    rows = max(1, out.numel // max(cols, 1))
    if name == "einsum" and isinstance(equation, str) and tensors:
        return _einsum_flops(equation, tensors), float(out.numel), output_tiles(rows, cols, peaks)
    if name == "scaled_dot_product_attention" and len(tensors) >= 3 and len(first.shape) >= 2:
        q, k = tensors[0], tensors[1]
        batch = math.prod(q.shape[:-2])
        scores = batch * q.shape[-2] * k.shape[-2]
        tiles = batch * math.ceil(q.shape[-2] / peaks.cube_tile)
        return 4.0 * scores * q.shape[-1], 5.0 * scores, tiles
    if name.startswith("conv") and len(tensors) >= 2:
        weight = tensors[1]
        channels = out.shape[1] if len(out.shape) > 1 else 1
        tiles = output_tiles(out.numel // channels, channels, peaks)
        return 2.0 * out.numel * math.prod(weight.shape[1:]), float(out.numel), tiles
    reduce = first.shape[-1] if first.shape else 1
    if name in ("addmm", "baddbmm", "addbmm") and len(tensors) >= 2:
        reduce = tensors[1].shape[-1] if tensors[1].shape else 1
    return 2.0 * out.numel * reduce, float(out.numel), output_tiles(rows, cols, peaks)
