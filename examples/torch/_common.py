"""Shared by the example scripts: capture a model and write its capture JSON and `.mlir`."""

from __future__ import annotations

import argparse
from pathlib import Path

import torch

from skir.frontends.torch import capture

HERE = Path(__file__).resolve().parent


def write_example(name: str, module: torch.nn.Module, *inputs: torch.Tensor) -> None:
    """Capture `module` and write `<name>.json` and `<name>.mlir` (next to the script, or --out DIR)."""
    parser = argparse.ArgumentParser(description=f"Capture the {name} example with skir's torch front end.")
    parser.add_argument("--out", type=Path, default=HERE, help="output folder (default: next to this script)")
    out = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    capture(module, *inputs, name=name, json_path=out / f"{name}.json", mlir_path=out / f"{name}.mlir")
    print(f"wrote {out / name}.json and {out / name}.mlir")
