"""docs/design.md stays true: it is the contract's index, whose sections 1..11 link the pages of
docs/design/ that hold their text; every citation of it names a section (and a quoted heading or
paragraph) that exists, and its capture JSON example compiles, fuses as the text says and is
proved."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import skir

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
INDEX = (DOCS / "design.md").read_text()
CITATION = re.compile(r'docs/design\.md\s+§(\d+)(?:\s+"([^"]+)")?')
PAGE_LINK = re.compile(r"\]\((design/[\w-]+\.md)(?:#[^)\s]*)?\)")


def index_sections() -> dict[int, tuple[str, str]]:
    """Section number -> (its title, its text in the index), split at the index's `## n.` headings."""
    parts = re.split(r"^## (\d+)\. (.*)$", INDEX, flags=re.M)
    return {int(parts[i]): (parts[i + 1], parts[i + 2]) for i in range(1, len(parts), 3)}


def section_pages() -> dict[int, list[Path]]:
    """Section number -> the pages of docs/design/ its entry in the index links, in order."""
    return {n: [DOCS / p for p in dict.fromkeys(PAGE_LINK.findall(text))]
            for n, (_, text) in index_sections().items()}


def sections() -> dict[int, str]:
    """Section number -> its text: that of its pages, in the index's order."""
    return {n: "\n".join(p.read_text() for p in pages) for n, pages in section_pages().items()}


def headings(text: str) -> list[str]:
    return re.findall(r"^### (.+)$", text, flags=re.M)


def anchor(heading: str) -> str:
    """The anchor GitHub gives a heading (as test_docs.py computes it)."""
    return re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", heading.lower()).strip())


def tracked_files() -> list[Path]:
    """Every file of the repository (the contract's index and pages and the user's pages included)."""
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [ROOT / f for f in out.split() if (ROOT / f).is_file()]


def test_sections_are_numbered_in_order() -> None:
    assert list(index_sections()) == list(range(1, 12))


def test_every_page_the_index_links_exists_and_every_page_is_linked() -> None:
    pages = section_pages()
    linked = [p for ps in pages.values() for p in ps]
    assert all(pages.values()), "a section of the index links no page"
    assert all(p.is_file() for p in linked), [str(p) for p in linked if not p.is_file()]
    assert len(linked) == len(set(linked)), "a page is linked from two sections"
    assert sorted(linked) == sorted((DOCS / "design").glob("*.md"))


def test_every_page_starts_with_its_section_and_links_back_to_the_index() -> None:
    for n, (title, _) in index_sections().items():
        pages = section_pages()[n]
        for page in pages:
            first, _, rest = page.read_text().partition("\n")
            where = str(page.relative_to(ROOT))
            # a section on one page keeps its title; a part of a split one adds its theme
            assert (first == f"# {n}. {title}" if len(pages) == 1 else first.startswith(f"# {n}. {title}: ")), where
            assert "](../design.md" in rest.lstrip("\n").split("\n\n", 1)[0], where  # the paragraph under the title
            assert not re.search(r"^#{1,2} ", rest, flags=re.M), where  # one section a page


def unlisted_headings(index_text: str, page: Path) -> list[str]:
    """The `###` headings of `page` that `index_text` (its section's entry) does not list as a link
    to the heading on the page."""
    link = f"design/{page.name}"
    return [h for h in headings(page.read_text()) if f"[{h}]({link}#{anchor(h)})" not in index_text]


def citation_problems(text: str, where: str, secs: dict[int, str]) -> list[str]:
    """The citations `docs/design.md §N ["Name"]` of `text` that name no section, or a name that
    is neither a `###` heading nor a bold paragraph title of the section."""
    problems = []
    for m in CITATION.finditer(text):
        number, name = int(m.group(1)), m.group(2)
        if number not in secs:
            problems.append(f"{where}: {m.group(0)}: no such section")
        elif name is not None and not re.search(rf"^### {re.escape(name)}$|\*\*{re.escape(name)}[.*]",
                                                secs[number], flags=re.M):
            problems.append(f"{where}: {m.group(0)}: no such heading or paragraph in §{number}")
    return problems


def test_the_index_lists_every_heading_with_its_page() -> None:
    for n, pages in section_pages().items():
        for page in pages:
            missing = unlisted_headings(index_sections()[n][1], page)
            assert not missing, f"docs/design.md §{n} does not list {missing} of design/{page.name}"


def test_every_citation_names_a_section_that_exists() -> None:
    secs = sections()
    cited = 0
    problems = []
    for path in tracked_files():
        if path.suffix not in {".py", ".md", ".mlir", ".h", ".txt"}:
            continue
        text = path.read_text(errors="replace")
        cited += len(CITATION.findall(text))
        problems += citation_problems(text, str(path.relative_to(ROOT)), secs)
    assert problems == []
    assert cited > 300  # the docs pages, docstrings, comments and tests do cite it


def test_the_checks_fail_on_a_broken_citation_or_index() -> None:
    secs = sections()
    cite = "docs/design" + ".md"  # spelt apart, so that the broken citations below are not this file's
    assert citation_problems(f'{cite} §3 "Lanes" and {cite} §6 "Locating a hang"', "x", secs) == []
    assert citation_problems(f'{cite} §4 "Passes" and {cite} §2', "x", secs) == []
    assert citation_problems(f"{cite} §12", "x", secs)
    assert citation_problems(f'{cite} §4 "Lanes"', "x", secs)  # a heading of another section
    assert citation_problems(f'{cite} §3 "Lane"', "x", secs)
    index = index_sections()[3][1]
    page = DOCS / "design" / "synchronisation.md"
    assert unlisted_headings(index, page) == []
    assert unlisted_headings(index.replace("[Lanes](design/synchronisation.md#lanes),\n", ""), page) == ["Lanes"]
    assert anchor("Selection (`select=gain`)") == "selection-selectgain"
    assert anchor("The vendor's result") == "the-vendors-result"


def test_no_citation_of_a_file_outside_the_repository() -> None:
    for path in tracked_files():
        if path.suffix in {".py", ".md", ".mlir", ".h"}:
            text = path.read_text(errors="replace")
            assert not re.search(r"\bDESIGN\s*§|reference/[a-z-]+\.md", text), path


def test_the_capture_json_example_fuses_as_described(tmp_path: Path) -> None:
    (example,) = re.findall(r"```json\n(.*?)```", sections()[8], flags=re.S)
    model = json.loads(example)
    result = skir.compile(model).check()
    assert not result.fail_reasons
    (sk,) = result.superkernels
    # by hand from §3 "Launch shape": mm is a batch aic kernel of 24 blocks (exact cube 24), norm
    # needs 48 vector cores; minVec 48 > minCube 24, so mix_aic_1_2 is tried first: 24 blocks
    # give 24 cube and 48 vector cores, which fits and equals the exact value.
    assert (sk.kernel_type, sk.blocks) == ("mix_aic_1_2", 24)
    assert sorted((m.stream, m.seq) for m in sk.members) == [("s0", 0), ("s1", 3)]
