"""The runtime side of a rewrite plan: a reference applier that replays `OUT/plan.json`.

```python
from skir.runtime import apply_plan, load_plan, model_view
applied = apply_plan(skir.load_model("model.json"), load_plan("out/plan.json"))
assert model_view(applied) == model_view(skir.parse(open("out/model.rewritten.mlir").read()))
```
"""

from skir.runtime.apply import apply_plan, load_plan, model_view

__all__ = ["apply_plan", "load_plan", "model_view"]
