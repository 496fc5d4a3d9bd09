"""The products of every shipped example and suite model are byte-identical to the recorded ones.

The digests in `golden_outputs.json` were recorded by `python -m skir.testing.golden`; a change
that means to alter the products records them again (and says why in its commit).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skir.testing.golden import case_key, cases, compile_case

GOLDEN = json.loads((Path(__file__).parent / "golden_outputs.json").read_text())
CASES = cases()


def test_every_case_is_recorded() -> None:
    assert sorted(GOLDEN) == sorted(case_key(m, o) for m, o in CASES)


@pytest.mark.parametrize(("model", "options"), CASES, ids=[case_key(m, o) for m, o in CASES])
def test_products_unchanged(model: str, options: str, tmp_path: Path) -> None:
    got = compile_case(model, options, tmp_path / "out")
    want = GOLDEN[case_key(model, options)]
    assert sorted(got) == sorted(want), "the set of products changed"
    changed = [name for name in want if got[name] != want[name]]
    assert not changed, f"products changed: {changed}"


def test_a_changed_product_is_noticed(tmp_path: Path) -> None:
    """The comparison can fail: one byte more in an entry source changes its digest."""
    model, options = CASES[0]
    got = compile_case(model, options, tmp_path / "out")
    entry = next(p for p in (tmp_path / "out").rglob("*_kernel.cpp"))
    entry.write_bytes(entry.read_bytes() + b"\n")
    from skir.testing.golden import digests

    assert digests(tmp_path / "out") != got
