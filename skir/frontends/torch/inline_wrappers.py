"""Inline the sub-graphs `torch.export` wraps a mode change in.

An exported graph keeps a region that changes grad mode or autocast (HF's rotary embedding
runs under `torch.autocast(..., enabled=False)`) as one higher-order call on a sub-graph:

```
wrap_with_autocast("cpu", None, False, None, submod_1, x, pos)      -> getitem(w, 0), getitem(w, 1)
```

A captured graph has no modes, only tasks: each such call is replaced by the sub-graph's own
nodes (their metadata, marks and source lines kept), and its results by what the sub-graph
returns.
"""

from __future__ import annotations

import operator
from typing import Any

from torch import fx

WRAPPERS = ("wrap_with_autocast", "wrap_with_set_grad_enabled")


def _wrapper_name(target: Any) -> str:
    return str(getattr(target, "_name", None) or getattr(target, "__name__", ""))


def inline_wrappers(gm: fx.GraphModule) -> fx.GraphModule:
    """`gm` with every mode-wrapper call inlined (nested ones too), recompiled."""
    changed = True
    while changed:
        changed = False
        for node in list(gm.graph.nodes):
            if node.op == "call_function" and _wrapper_name(node.target) in WRAPPERS:
                _inline(gm, node)
                changed = True
    gm.graph.eliminate_dead_code()
    gm.recompile()
    return gm


def _inline(gm: fx.GraphModule, node: fx.Node) -> None:
    index = next(i for i, a in enumerate(node.args)
                 if isinstance(a, fx.Node) and a.op == "get_attr" and isinstance(getattr(gm, str(a.target), None),
                                                                                  fx.GraphModule))
    holder = node.args[index]
    assert isinstance(holder, fx.Node)  # a get_attr of the wrapped sub-module
    sub: fx.GraphModule = getattr(gm, str(holder.target))
    operands = node.args[index + 1:]
    env: dict[fx.Node, Any] = {}
    outputs: Any = None
    placeholders = [n for n in sub.graph.nodes if n.op == "placeholder"]
    for placeholder, operand in zip(placeholders, operands, strict=True):
        env[placeholder] = operand
    with gm.graph.inserting_before(node):
        for inner in sub.graph.nodes:
            if inner.op == "placeholder":
                continue
            if inner.op == "output":
                outputs = fx.map_arg(inner.args[0], lambda a: env[a])
                continue
            if inner.op == "get_attr":
                name = f"{holder.target}_{inner.target}".replace(".", "_")
                setattr(gm, name, getattr(sub, str(inner.target)))
                copied = gm.graph.get_attr(name)
                copied.meta.update(inner.meta)
            else:
                copied = gm.graph.node_copy(inner, lambda a: env[a])
            env[inner] = copied
    results = outputs if isinstance(outputs, (tuple, list)) else (outputs,)
    for user in list(node.users):
        if user.target is operator.getitem and isinstance(user.args[1], int):
            user.replace_all_uses_with(results[user.args[1]])
            gm.graph.erase_node(user)
    if node.users:
        node.replace_all_uses_with(outputs)
    gm.graph.erase_node(node)
