"""docs/design.md stays true: every citation of it names a section (and a quoted heading or
paragraph) that exists, and its capture JSON example compiles, fuses as the text says and is
proved."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import skir

ROOT = Path(__file__).resolve().parents[2]
DESIGN = (ROOT / "docs" / "design.md").read_text()
CITATION = re.compile(r'docs/design\.md\s+§(\d+)(?:\s+"([^"]+)")?')


def sections() -> dict[int, str]:
    """Section number -> its text, split at the `## n.` headings."""
    parts = re.split(r"^## (\d+)\. ", DESIGN, flags=re.M)
    return {int(parts[i]): parts[i + 1] for i in range(1, len(parts), 2)}


def tracked_files() -> list[Path]:
    """Every file of the repository but the design itself (the user's pages in docs/ included)."""
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [ROOT / f for f in out.split() if f != "docs/design.md" and (ROOT / f).is_file()]


def test_sections_are_numbered_in_order() -> None:
    assert list(sections()) == list(range(1, len(sections()) + 1))


def test_every_citation_names_a_section_that_exists() -> None:
    secs = sections()
    cited = 0
    for path in tracked_files():
        if path.suffix not in {".py", ".md", ".mlir", ".h", ".txt"}:
            continue
        for m in CITATION.finditer(path.read_text(errors="replace")):
            cited += 1
            number, name = int(m.group(1)), m.group(2)
            where = f"{path.relative_to(ROOT)}: {m.group(0)}"
            assert number in secs, where
            if name is not None:
                # a quoted name is a `###` heading or a bold paragraph title of that section
                assert re.search(rf"^### {re.escape(name)}$|\*\*{re.escape(name)}[.*]", secs[number],
                                 flags=re.M), where
    assert cited > 20  # the docs pages, docstrings and comments do cite it


def test_no_citation_of_a_file_outside_the_repository() -> None:
    for path in tracked_files():
        if path.suffix in {".py", ".md", ".mlir", ".h"}:
            text = path.read_text(errors="replace")
            assert not re.search(r"\bDESIGN\s*§|reference/[a-z-]+\.md", text), path


def test_the_capture_json_example_fuses_as_described(tmp_path: Path) -> None:
    (example,) = re.findall(r"```json\n(.*?)```", DESIGN, flags=re.S)
    model = json.loads(example)
    result = skir.compile(model).check()
    assert not result.fail_reasons
    (sk,) = result.superkernels
    # by hand from §3 "Launch shape": mm is a batch aic kernel of 24 blocks (exact cube 24), norm
    # needs 48 vector cores; minVec 48 > minCube 24, so mix_aic_1_2 is tried first: 24 blocks
    # give 24 cube and 48 vector cores, which fits and equals the exact value.
    assert (sk.kernel_type, sk.blocks) == ("mix_aic_1_2", 24)
    assert sorted((m.stream, m.seq) for m in sk.members) == [("s0", 0), ("s1", 3)]
