"""The xDSL shortcuts behind one door: `skir.xdsl_fast` probes the internals it relies on and
fails loudly without them; no other module of skir touches them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

import skir.xdsl_fast
from skir.xdsl_fast import XdslShortcutError, probe

ROOT = Path(__file__).resolve().parents[2] / "skir"

PRIVATE = re.compile(r"\.(_operands|_successors|_args|_print_new_line|_current_column|_current_line|"
                     r"_next_line_callback|_current_operation|__closure__)\b")
"""Reads of xDSL internals the package relies on (its probe checks each one)."""


def test_the_probe_passes_on_the_pinned_xdsl() -> None:
    probe()


def test_a_missing_printer_internal_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    owner = next(c for c in Printer.__mro__ if "_print_new_line" in vars(c))
    monkeypatch.delattr(owner, "_print_new_line")
    with pytest.raises(XdslShortcutError, match=r"xDSL 0\.74\.0, and the installed xDSL \S+ lacks the Printer "
                                                r"member '_print_new_line'; install xdsl==0\.74\.0"):
        probe()


def test_a_generated_verifier_of_another_shape_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    def verify_(self: ModuleOp) -> None:  # no closure: not IRDL's generated verifier
        pass

    monkeypatch.setattr(ModuleOp, "verify_", verify_)
    with pytest.raises(XdslShortcutError, match="closure cells 'op_def' and 'custom_verify'"):
        probe()
    from skir.xdsl_fast.verify import fast_verify

    with pytest.raises(XdslShortcutError, match="in ModuleOp's generated verifier"):
        fast_verify(ModuleOp)


def test_only_the_package_reads_xdsl_internals() -> None:
    package = Path(skir.xdsl_fast.__file__).parent
    found = [f"{path.relative_to(ROOT.parent)}:{n}" for path in sorted(ROOT.rglob("*.py"))
             if package not in path.parents
             for n, line in enumerate(path.read_text().splitlines(), start=1)
             if PRIVATE.search(line.split("#")[0])]
    assert found == []
    assert list((ROOT / "dialects").glob("fast_*.py")) == []  # skir/dialects holds dialects only
