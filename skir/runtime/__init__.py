"""The runtime side of a rewrite plan: a reference applier that replays `OUT/plan.json`.

```python
from skir.runtime import apply_plan, load_plan, model_view
applied = apply_plan(skir.load_model("model.json"), load_plan("out/plan.json"))
assert model_view(applied) == model_view(skir.parse(open("out/model.rewritten.mlir").read()))
```

Given `addresses=` (where the runtime put each cell and workspace), `apply_plan` also refuses a
placement in which one shares a 64-byte line with another (`skir.runtime.layout`).

`apply_update` forwards the per-replay update of a fused member of a task group through the
plan's `updates` (`check_updates` checks that map against the model).
"""

from skir.runtime.apply import apply_plan, load_plan, model_view
from skir.runtime.update import apply_update, check_updates

__all__ = ["apply_plan", "apply_update", "check_updates", "load_plan", "model_view"]
