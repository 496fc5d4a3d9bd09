"""Every module under `skir/` stays under 500 lines (docs/design.md §2: one concept a file)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 500


def test_every_module_is_under_500_lines() -> None:
    sizes = {path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
             for path in sorted((ROOT / "skir").rglob("*.py"))}
    assert sizes, "no module found under skir/"
    over = [f"{path}: {lines} lines" for path, lines in sizes.items() if lines >= LIMIT]
    assert not over, (f"{len(over)} module(s) of {LIMIT} lines or more; split each by concept:\n  "
                      + "\n  ".join(over))
