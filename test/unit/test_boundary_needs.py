"""Formation's deadlock rule kept as members join (`BoundaryNeeds`) against judging every
in-kernel wait from scratch (`Starvation.starves`), on every candidate formation checks."""

from __future__ import annotations

import random
from typing import Any

import pytest

import skir
import skir.analysis.formation.formation as formation
from skir.analysis.formation.deadlock_rule import BoundaryNeeds, Starvation
from skir.analysis.formation.formation import Former
from skir.analysis.formation.range_hull import Ranges
from skir.analysis.graph.happens_before import HappensBefore
from skir.analysis.graph.task_graph import TaskGraph
from skir.api import the_model
from skir.options import SkOptions
from skir.passes.common import kernel_table
from skir.testing import random_model


class _Checked(BoundaryNeeds):
    """Answers as `BoundaryNeeds` does, and asserts `Starvation.starves` agrees, given every
    wait the ranges ever took in (it leaves out those whose record is inside itself)."""

    verdicts: list[bool] = []
    """Every verdict given with some wait taken in, over the test."""

    def __init__(self, starvation: Starvation):
        super().__init__(starvation)
        self.every: list[int] = []
        self.ranges: Ranges = {}

    def update(self, ranges: Ranges, new_waits: list[int], changed: set[int]) -> None:
        self.every += new_waits
        self.ranges = ranges
        super().update(ranges, new_waits, changed)

    def starves(self, demand: tuple[int, int]) -> bool:
        answer = super().starves(demand)
        assert answer == self.starvation.starves(self.ranges, self.every, demand, [])
        if self.every:
            _Checked.verdicts.append(answer)
        return answer


def _waits_on_outside_work(rng: random.Random, n: int) -> dict[str, Any]:
    """s0: waits for events recorded on s1 after kernels that cannot fuse, each before a kernel
    of its own; some outside kernels fit beside the SuperKernel, some do not, and an event is
    sometimes recorded on s0 itself (a wait that leaves once its record is taken in)."""
    seq = iter(range(10 * n))
    s0: list[dict[str, Any]] = []
    s1: list[dict[str, Any]] = []
    for i in range(n):
        if rng.random() < 0.2:
            s0.append({"type": "event_record", "event": f"e{i}", "seq": next(seq)})
        else:
            s1.append({"type": "kernel", "kernel": "x", "blocks": rng.choice([4, 8, 16]), "args": ["a", "b"],
                       "seq": next(seq)})
            s1.append({"type": "event_record", "event": f"e{i}", "seq": next(seq)})
        s0.append({"type": "event_wait", "event": f"e{i}", "seq": next(seq)})
        s0.append({"type": "kernel", "kernel": "v", "blocks": rng.choice([8, 24, 40, 48]), "args": ["a", "b"],
                   "seq": next(seq)})
    return {"format": "skir.aclgraph.capture", "version": 1, "model": "m", "cores": {"aic": 24, "aiv": 48},
            "kernels": {"v": {"kernel_type": "aiv_only", "params": ["in", "out"]},
                        "x": {"kernel_type": "aiv_only", "params": ["in", "out"], "sk_capable": False}},
            "events": [f"e{i}" for i in range(n)],
            "streams": [{"name": "s0", "tasks": s0}, {"name": "s1", "tasks": s1}]}


def test_kept_needs_agree_with_judging_every_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(formation, "BoundaryNeeds", _Checked)
    _Checked.verdicts = []
    rng = random.Random(11)
    for seed in range(40):
        skir.compile(_waits_on_outside_work(random.Random(seed), 12 + seed % 7))
    for seed in range(120):
        data = random_model(random.Random(seed), max_streams=4, max_tasks=40)
        for kernel in data["kernels"].values():  # larger kernels, so that the rule sometimes bites
            kernel.setdefault("sk_capable", rng.random() < 0.8)
        for stream in data["streams"]:
            for task in stream["tasks"]:
                if task["type"] == "kernel":
                    task["blocks"] = rng.choice([4, 16, 24, 40, 48])
        try:
            skir.compile(data)
        except skir.SkirError:
            pass  # a model skir rejects later (its checks above ran), or before formation
    assert True in _Checked.verdicts and False in _Checked.verdicts


def _starvation_of(data: dict[str, Any]) -> Starvation:
    model = the_model(skir.load_model(data))
    graph = TaskGraph(model)
    return Former(model, graph, HappensBefore(graph), SkOptions(), kernel_table(model)).starvation


def test_needs_by_hand() -> None:
    """s0: v (40 blocks), wait e, v; s1: x (8 blocks, cannot fuse), record e. Nodes: s0 = 0..2,
    s1 = 3, 4. The SuperKernel of s0's kernels waits in-kernel for e, recorded after x."""
    v = {"type": "kernel", "kernel": "v", "blocks": 40, "args": ["a", "b"]}
    s0 = [{**v, "seq": 2}, {"type": "event_wait", "event": "e", "seq": 3}, {**v, "seq": 4}]
    s1 = [{**v, "kernel": "x", "blocks": 8, "seq": 0}, {"type": "event_record", "event": "e", "seq": 1}]
    data = _waits_on_outside_work(random.Random(0), 0)
    data |= {"events": ["e"], "streams": [{"name": "s0", "tasks": s0}, {"name": "s1", "tasks": s1}]}
    starvation = _starvation_of(data)

    needs = BoundaryNeeds(starvation)
    needs.update({0: (0, 2)}, [1], {0})
    assert needs.waits() == [1]
    assert not needs.starves((0, 40))  # 40 + x's 8 vector cores fit the 48
    assert needs.starves((0, 41))
    needs.update({0: (0, 2), 1: (3, 4)}, [], {1})  # a new stream: all again; e's record is inside
    assert needs.waits() == [] and not needs.starves((0, 48))

    needs = BoundaryNeeds(starvation)
    needs.update({0: (0, 2)}, [1], {0})
    needs.update({0: (0, 2), 1: (3, 3)}, [], {1})  # x joins: outside work no more, all again
    assert needs.waits() == [1] and not needs.starves((0, 41)) and needs.starves((0, 49))

    needs = BoundaryNeeds(starvation)
    needs.update({0: (0, 2), 1: (3, 3)}, [1], {0, 1})  # x inside: the record needs nothing more
    assert needs.waits() == [1] and needs.starves((0, 49)) and not needs.starves((0, 48))
    needs.update({0: (0, 2), 1: (3, 4)}, [], {1})  # the same first tasks: only s1's waits looked at
    assert needs.waits() == [] and not needs.starves((0, 100))
