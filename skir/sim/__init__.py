"""skir's timeline simulator: a discrete-event model of one device running a model.

Three modes: `eager` (the host enqueues every task), `aclgraph` (the captured graph: a
dispatch gap per task, stream FIFOs, event costs) and `superkernel` (the rewritten model:
one dispatch per SuperKernel, whose `aic` / `aiv` programs run core by core with barrier,
flag, lock and early-start costs and instruction-cache misses where nothing preloaded).
Every cost is a parameter (`costs.py`, `default_costs.json`); the defaults are assumptions.

```python
from skir.sim import estimate
report = estimate(result.original, result.module)      # a `Report`
print(report.table())
```

Modules: `stamp` (time with its breakdown), `costs`, `engine` (streams, cores, events),
`sk_run` (one SuperKernel's programs), `bound` (lower bounds), `modes` (the comparison),
`report` (table, SK meta's `profiling`), `trace` (Chrome trace JSON), `charts` (PNGs),
`calibration` (the 6-scope MoE-like model).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from xdsl.dialects.builtin import ModuleOp

from skir.sim.costs import Costs, default_costs, load_costs
from skir.sim.modes import Comparison, compare
from skir.sim.report import Report


def costs_source(costs: str | os.PathLike[str] | dict[str, Any] | Costs | None) -> str:
    """How a report names its costs: `default`, a file's name (never its folder), or `custom`."""
    if costs is None:
        return "default"
    if isinstance(costs, str | os.PathLike):
        return Path(costs).name
    return "custom"


def estimate(original: ModuleOp, rewritten: ModuleOp,
             costs: str | os.PathLike[str] | dict[str, Any] | Costs | None = None) -> Report:
    """Simulate every mode of a compiled model and wrap it as a `Report`."""
    return Report(compare(original, rewritten, load_costs(costs)), costs_source(costs))


__all__ = ["Comparison", "Costs", "Report", "compare", "costs_source", "default_costs", "estimate", "load_costs"]
