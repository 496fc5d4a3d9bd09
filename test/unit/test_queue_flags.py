"""`may_exhaust_flags`, formation's shortcut past `plan_queues`: it must say yes whenever the
plan runs out of flag ids (else formation would keep a SuperKernel that lowering cannot build)."""

from __future__ import annotations

import random

from skir.analysis.formation.queue_plan import FLAG_ORDER, FlagsExhausted, Node, may_exhaust_flags, plan_queues
from skir.dialects.hardware import CoreType

TYPES = ((CoreType.AIC,), (CoreType.AIV,), (CoreType.AIC, CoreType.AIV))


def _random_nodes(rng: random.Random) -> list[Node]:
    nodes: list[Node] = []
    for i in range(rng.randint(1, 40)):
        deps = rng.sample(range(i), k=min(i, rng.randint(0, 3)))
        nodes.append(Node(i, rng.choice(TYPES), deps, stream=rng.randint(0, 3)))
    return nodes


def test_the_shortcut_never_hides_an_exhaustion() -> None:
    rng = random.Random(7)
    raised = skipped = 0
    for _ in range(1500):
        nodes = _random_nodes(rng)
        reserved = set(rng.sample(FLAG_ORDER, k=rng.randint(0, len(FLAG_ORDER))))
        try:
            plan_queues(nodes, reserved)
        except FlagsExhausted:
            raised += 1
            assert may_exhaust_flags(nodes, reserved)
        else:
            skipped += not may_exhaust_flags(nodes, reserved)
    assert raised > 50 and skipped > 50  # both sides were exercised


def test_counted_by_hand() -> None:
    aic, aiv, mix = TYPES
    # a mix producer with two aiv consumers: AIC -> AIV twice, nothing leaves the AIVs
    nodes = [Node("m", mix), Node("a", aiv, ["m"]), Node("b", aiv, ["m"])]
    free_two = [f for f in FLAG_ORDER if f not in (15, 10)]
    assert not may_exhaust_flags(nodes, free_two)  # 2 pairs, 2 free ids
    assert may_exhaust_flags(nodes, [*free_two, 15])  # 2 pairs, 1 free id
    # same-type dependencies need no flag, however many
    chain = [Node(0, aiv)] + [Node(i, aiv, [i - 1]) for i in range(1, 30)]
    assert not may_exhaust_flags(chain, FLAG_ORDER)
    # an aic -> aiv dependency with no free id at all
    assert may_exhaust_flags([Node("c", aic), Node("v", aiv, ["c"])], FLAG_ORDER)
