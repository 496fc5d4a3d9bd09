"""Host emulation of emitted SuperKernel entries (docs/design.md §6).

`include/kernel_operator.h` is a C++17 shim of the Ascend C surface the entry uses, with one thread
per sub-core, credit-counting cross-core flags, vector clocks and a deadlock watchdog
(`include/sk_shim_impl.h`); `emulate` compiles an entry unchanged against it with generated stubs
and a driver, runs it and proves each dependency edge from the log.
"""

from skir.hostsim.runner import emulate, include_dir
from skir.hostsim.spec import EmulationResult, EmulationSpec, SubTaskInstance

__all__ = ["EmulationResult", "EmulationSpec", "SubTaskInstance", "emulate", "include_dir"]
