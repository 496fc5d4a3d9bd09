"""The calibration (not a claim): the 6-scope MoE-like model reproduces the published -5.6 %."""

from __future__ import annotations

import pytest

import skir
from skir.sim.calibration import (
    PUBLISHED_AFTER_US,
    PUBLISHED_BEFORE_US,
    PUBLISHED_CHANGE,
    calibration_costs_path,
    moe6_model,
    op_times,
)
from skir.sim.costs import default_costs, load_costs


def test_the_model_forms_one_superkernel_per_scope() -> None:
    result = skir.compile(moe6_model())
    assert len(result.superkernels) == 6
    assert all(len(sk.members) == 12 for sk in result.superkernels)
    assert {u.reason for u in result.fail_reasons} == {"not_in_scope"}


def test_the_calibrated_costs_reproduce_the_published_gain() -> None:
    result = skir.compile(moe6_model())
    assert result.original is not None
    before, after = op_times(result.original, result.module)
    assert before == pytest.approx(PUBLISHED_BEFORE_US, abs=0.5)
    assert after == pytest.approx(PUBLISHED_AFTER_US, abs=0.5)
    assert after / before - 1 == pytest.approx(PUBLISHED_CHANGE, abs=0.005)


def test_the_calibration_changes_one_parameter() -> None:
    calibrated, defaults = load_costs(calibration_costs_path()).as_dict(), default_costs().as_dict()
    assert [k for k in defaults if calibrated[k] != defaults[k]] == ["icache_miss_us_per_kib"]
