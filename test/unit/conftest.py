"""Reports of the unit test run."""

from __future__ import annotations

import sys
from typing import Any


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The syncs per sub-task that the property test's random models needed before and after pruning."""
    for module in list(sys.modules.values()):
        stats = getattr(module, "SYNC_STATS", None)
        if isinstance(stats, dict) and stats.get("subtasks"):
            n = stats["subtasks"]
            terminalreporter.write_line(
                f"sync lowering: {stats['models']} random models, {stats['superkernels']} SuperKernels, "
                f"{n} sub-tasks; syncs per sub-task {stats['lowered'] / n:.2f} after sk-lower-sync, "
                f"{stats['pruned'] / n:.2f} after sk-prune-sync"
            )
            return
