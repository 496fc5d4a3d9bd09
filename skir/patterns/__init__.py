"""skir's RewritePatterns, importable one by one so that another compiler can compose them.

The analyses decide (formation, queue plans, flag ids, pruning sets, each op's comment and
guards), the patterns apply the decisions op by op (docs/design.md §4, "Patterns"):

- `skir.patterns.outline_slots`: `RewriteSlot`, the slot rewrite of `sk-outline` (each slot
  the boundary plan names becomes its `launch_sk`, `disabled`, `value_write` or `value_wait`),
  over a `SlotPlan`;
- `skir.patterns.sk_to_ascendc`: the `sk` → `ascendc` conversion, one pattern per `sk`
  program op (`LowerSubtask`, `LowerBarrier`, `LowerFlag`, `LowerEarlyStart`, `LowerLock`,
  `LowerPreload`, `LowerDcci`), over an `AscendcLowering` of one SuperKernel;
  `sk_to_ascendc_patterns(lowering)` gives the set `sk-to-ascendc` applies;
- `skir.patterns.sync_lowering`: sync lowering, one pattern per `sk.depend_<rule>` op
  `sk-place-sync` places (`LowerClassBarrier`, `LowerPipeBarrier`, `LowerEarlyStartHandshake`,
  `LowerLockRelease`, `LowerLockAcquire`, `LowerFlagSignal`, `LowerFlagAwait`), which
  `sk-lower-sync` applies; `sync_lowering_patterns()` gives them all.
"""

from skir.patterns.outline_slots import RewriteSlot, SlotPlan
from skir.patterns.sk_to_ascendc import AscendcLowering, sk_to_ascendc_patterns
from skir.patterns.sync_lowering import sync_lowering_patterns

__all__ = ["AscendcLowering", "RewriteSlot", "SlotPlan", "sk_to_ascendc_patterns", "sync_lowering_patterns"]
