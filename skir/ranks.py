"""`skir.check_ranks`: the ranks of one job run each group's collectives in one order.

```python
report = skir.check_ranks(["out/rank0", "out/rank1"])    # folders, rewritten .mlir files or modules
report.ok, report.difference
```
A folder is an `sk-compile` output folder (its `model.rewritten.mlir`); see
`skir.analysis.comm.rank_order` for what is compared.
"""

from __future__ import annotations

import os
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp

from skir.analysis.comm.rank_order import RanksReport
from skir.analysis.comm.rank_order import check_ranks as _check
from skir.errors import SkirError


def check_ranks(ranks: list[str | os.PathLike[str] | ModuleOp]) -> RanksReport:
    """The report over `ranks` (rank 0 first); a folder without a rewritten model, or a model
    that does not parse, is a `SkirError` naming it."""
    from skir.api import load_model

    if len(ranks) < 2:
        raise SkirError(f"check_ranks: give the rewritten models of two or more ranks, got {len(ranks)}")
    modules, names = [], []
    for i, rank in enumerate(ranks):
        if isinstance(rank, ModuleOp):
            modules.append(rank)
            names.append(f"rank {i}")
            continue
        path = Path(rank)
        if path.is_dir():
            path = path / "model.rewritten.mlir"
            if not path.is_file():
                raise SkirError(f"{os.fspath(rank)}: no model.rewritten.mlir in this folder; give sk-compile's "
                                "output folder of each rank")
        modules.append(load_model(path))
        names.append(f"rank {i} ({os.fspath(rank)})")
    return _check(modules, names)
