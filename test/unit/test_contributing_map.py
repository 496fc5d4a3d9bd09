"""CONTRIBUTING.md's "Where things live" names every module under `skir/`, and every path
CONTRIBUTING.md names exists (docs/design.md §2 gives the layers; the map is where each file
of them is)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONTRIBUTING = ROOT / "CONTRIBUTING.md"
_NAME = re.compile(r"(?<![\w./])(?:[\w*-]+/)*[\w*-]+\.(?:py|json|h|cpp)\b|(?<![\w./])[\w-]+/(?![\w*])")
_PATH = re.compile(r"\b(?:skir|test|tools|docs|examples)/[\w./*<>-]*")


def _map() -> dict[str, set[str]]:
    """Folder (`skir/frontends/torch/`) -> the names its lines of the map give (`graph_model.py`, `torch/`)."""
    text = CONTRIBUTING.read_text(encoding="utf-8")
    block = text.split("## Where things live", 1)[1].split("```", 2)[1]
    sections: dict[str, set[str]] = {}
    current = None
    for line in block.splitlines():
        if line.startswith("skir/"):
            current, _, line = line.partition(" ")
            sections.setdefault(current, set())
        if current is not None:
            sections[current].update(_NAME.findall(line))
    return sections


def test_the_map_names_every_module() -> None:
    sections = _map()
    missing = []
    for path in sorted((ROOT / "skir").rglob("*.py")):
        rel = path.relative_to(ROOT)
        folder = f"{rel.parent.as_posix()}/"
        if path.name in sections.get(folder, set()):
            continue
        if path.name == "__init__.py" and folder in sections:
            continue  # a package with its own lines in the map
        parent = f"{rel.parent.parent.as_posix()}/"
        if folder not in sections and f"{rel.parent.name}/" in sections.get(parent, set()):
            continue  # a sub-package the map names as a whole
        missing.append(rel.as_posix())
    assert not missing, ("CONTRIBUTING.md's \"Where things live\" does not name (in its folder's lines):\n  "
                         + "\n  ".join(missing))


def test_every_name_of_the_map_exists() -> None:
    absent = [f"{folder}{name}" for folder, names in _map().items() for name in sorted(names)
              if not list(ROOT.glob(f"{folder}{name}"))]
    assert not absent, "CONTRIBUTING.md's map names files that do not exist:\n  " + "\n  ".join(absent)


def test_every_path_contributing_names_exists() -> None:
    text = CONTRIBUTING.read_text(encoding="utf-8")
    paths = {match.rstrip(".") for match in _PATH.findall(text) if "<" not in match}
    absent = sorted(path for path in paths if not list(ROOT.glob(path)))
    assert paths and not absent, "CONTRIBUTING.md names paths that do not exist:\n  " + "\n  ".join(absent)
