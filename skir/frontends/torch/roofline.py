"""Launch blocks and durations of captured ops, from tensor sizes and a roofline.

The durations are estimates: a kernel takes a fixed start-up time plus the longer of its
compute time (FLOPs over the peak of the cores it launches on) and its memory time (bytes
moved over HBM bandwidth). The default peaks describe a 910B3-class part (24 AI cores with
one cube unit and two vector units each) and are assumptions, not measurements:

| parameter | default | meaning |
| --- | --- | --- |
| `cube_tflops` | 300.0 | fp16 / bf16 cube peak of all AI cores together (fp32 runs at half, as HF32) |
| `vector_tflops` | 18.0 | vector peak of all vector cores together (any dtype) |
| `hbm_gbps` | 1600.0 | HBM bandwidth in GB/s, shared by every core |
| `launch_floor_us` | 1.0 | start-up and tail of any kernel |
| `vector_block_bytes` | 2048 | one vector block per this many bytes of the op's largest tensor |
| `cube_tile` | 128 | one cube block per `cube_tile` square tile of the output (attention: per head and query tile) |

Blocks never exceed the device's cores of the kernel's type (AI cores for cube and mix kernels).
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class DevicePeaks:
    """The device figures the roofline uses (defaults: assumptions for a 910B3-class part)."""

    cube_tflops: float = 300.0
    vector_tflops: float = 18.0
    hbm_gbps: float = 1600.0
    launch_floor_us: float = 1.0
    vector_block_bytes: int = 2048
    cube_tile: int = 128


def vector_blocks(largest_bytes: int, aiv_cores: int, peaks: DevicePeaks) -> int:
    """Blocks of a vector kernel whose largest tensor has `largest_bytes` bytes."""
    return max(1, min(aiv_cores, math.ceil(largest_bytes / peaks.vector_block_bytes)))


def output_tiles(rows: int, cols: int, peaks: DevicePeaks) -> int:
    """`cube_tile x cube_tile` tiles of a `rows x cols` output."""
    return math.ceil(rows / peaks.cube_tile) * math.ceil(cols / peaks.cube_tile)


def cube_blocks(tiles: int, aic_cores: int) -> int:
    """Blocks of a cube kernel with `tiles` independent output tiles."""
    return max(1, min(aic_cores, tiles))


def duration_us(cube_flops: float, vector_flops: float, bytes_moved: int, used_fraction: float,
                fp32_cube: bool, peaks: DevicePeaks) -> float:
    """Estimated run time in µs of a kernel on `used_fraction` of its core type."""
    fraction = max(used_fraction, 1e-6)
    cube_peak = peaks.cube_tflops * (0.5 if fp32_cube else 1.0) * 1e6 * fraction  # FLOP per µs
    vector_peak = peaks.vector_tflops * 1e6 * fraction
    compute = cube_flops / cube_peak + vector_flops / vector_peak
    memory = bytes_moved / (peaks.hbm_gbps * 1e3)  # bytes per µs
    return round(peaks.launch_floor_us + max(compute, memory), 2)
