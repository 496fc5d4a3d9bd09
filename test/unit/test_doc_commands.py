"""Every command a page shows with its output is run, and its output compared, numbers included.

A page shows a command with its output in a `console` block: each `$ ` line is a command (a
line ending in `\\` goes on), the lines up to the next command are what it prints, standard
output and standard error together. The comparison is exact up to trailing spaces, with two
marks from Python's doctest: a line `...` stands for any number of lines, and `...` inside a
line for any text (used for wall times only). A command that must fail says so at its end,
`# exit N`. Commands run with bash in an empty folder of the test run that sees the
repository's `examples/`, `test/`, `tools/` and `skir/`, with the tools of this Python first on
`PATH`; so `-o out/x` writes there, never into the working tree.

The other checks keep every shown output in such a block: no `sh` block prints output as
comment lines (`#   ...`), and no plain block starts with a command. Tables of measured times
(docs/benchmarks.md, `text` blocks) are measurements of one run on one machine, not outputs a
test can reproduce; `test_bench_tools.py` runs the scripts that print them.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted([ROOT / "README.md", ROOT / "CONTRIBUTING.md", *(ROOT / "docs").glob("*.md"),
                *(ROOT / "docs" / "design").glob("*.md")])
SHARED = ("examples", "test", "tools", "skir")
"""The repository folders a shown command may read, linked into its working folder."""

NEEDS = {r"hf_decode\.py": ("torch", "transformers"), r"examples/torch/\w+\.py": ("torch",),
         r"--report": ("matplotlib",)}
"""A command matching the pattern needs these optional packages (`make extras`); it skips without them."""

_FENCE = re.compile(r"^```(\w*)\n(.*?)^```", flags=re.S | re.M)
_TOOL = re.compile(r"^(\$ )?(sk-compile|sk-opt|sk-hang|sk-check-ranks|python|make)\b")


@dataclass
class Shown:
    """One command of a page with the output it shows."""

    page: str
    line: int
    command: str
    expected: list[str]
    exit_code: int = 0


def console_blocks(text: str) -> list[tuple[int, str]]:
    """(line of the fence, body) of every `console` block."""
    return [(text[:m.start()].count("\n") + 1, m.group(2)) for m in _FENCE.finditer(text) if m.group(1) == "console"]


def commands_of(page: str, line: int, body: str) -> list[Shown]:
    """The commands of one console block, each with the output lines that follow it."""
    shown: list[Shown] = []
    lines = body.splitlines()
    i = 0
    while i < len(lines):
        text = lines[i]
        if not text.startswith("$ "):
            raise AssertionError(f"{page}:{line + 1 + i}: output before any command in a console block: {text!r}")
        command, start = text[2:], i
        while command.endswith("\\") and i + 1 < len(lines):
            i += 1
            command = command[:-1] + " " + lines[i].strip()
        heredoc = re.search(r"<<-?\s*'?(\w+)'?", command)
        if heredoc is not None:  # the here-document's lines, up to its delimiter, belong to the command
            while i + 1 < len(lines) and lines[i].strip() != heredoc.group(1):
                i += 1
                command += "\n" + lines[i]
        i += 1
        expected = []
        while i < len(lines) and not lines[i].startswith("$ "):
            expected.append(lines[i].rstrip())
            i += 1
        code = re.search(r"#\s*exit (\d+)\s*$", command)
        shown.append(Shown(page, line + 1 + start, command, expected, int(code.group(1)) if code else 0))
    return shown


def every_block() -> list[list[Shown]]:
    """The commands of every console block of every page, block by block."""
    return [commands_of(str(page.relative_to(ROOT)), line, body) for page in PAGES
            for line, body in console_blocks(page.read_text(encoding="utf-8"))]


def _line_matches(pattern: str, line: str) -> bool:
    if "..." not in pattern:
        return pattern == line
    parts = [re.escape(p) for p in pattern.split("...")]
    return re.fullmatch(".*?".join(parts), line) is not None


def output_matches(expected: list[str], actual: list[str]) -> bool:
    """Whether `actual` is `expected` with each `...` line standing for any run of lines and
    each `...` inside a line for any text (a backtracking match, as doctest's ELLIPSIS)."""
    memo: dict[tuple[int, int], bool] = {}

    def match(e: int, a: int) -> bool:
        key = (e, a)
        if key not in memo:
            if e == len(expected):
                memo[key] = a == len(actual)
            elif expected[e] == "...":
                memo[key] = any(match(e + 1, k) for k in range(a, len(actual) + 1))
            else:
                memo[key] = a < len(actual) and _line_matches(expected[e], actual[a]) and match(e + 1, a + 1)
        return memo[key]

    return match(0, 0)


def output_problems(text: str, page: str) -> list[str]:
    """Shown outputs outside console blocks: `sh` blocks with comment lines that show what a
    command printed, plain blocks that start with a command."""
    problems = []
    for m in _FENCE.finditer(text):
        lang, body = m.group(1), m.group(2)
        line = text[:m.start()].count("\n") + 1
        first = next((ln for ln in body.splitlines() if ln.strip()), "")
        if lang == "sh" and any(re.match(r"#\s{2,}\S", ln) for ln in body.splitlines()):
            problems.append(f"{page}:{line}: an sh block shows output as comments; make it a console block")
        if lang == "" and _TOOL.match(first):
            problems.append(f"{page}:{line}: a plain block starts with a command; make it a console block")
    return problems


BLOCKS = every_block()


def _missing(commands: list[Shown]) -> list[str]:
    need = {p for shown in commands for key, packages in NEEDS.items() if re.search(key, shown.command)
            for p in packages}
    if any("--emulate" in shown.command or "sk-apply" in shown.command for shown in commands):
        need.add("g++")
    missing = sorted(p for p in need if (shutil.which(os.environ.get("CXX", p)) if p == "g++"
                                         else importlib.util.find_spec(p)) is None)
    if any("sk-apply" in shown.command for shown in commands) and not os.environ.get("SKIR_ACL_INCLUDE"):
        missing.append("the ACL headers (make acl-headers sets SKIR_ACL_INCLUDE)")
    return missing


def test_the_pages_show_commands() -> None:
    assert sum(len(block) for block in BLOCKS) >= 20
    assert {block[0].page for block in BLOCKS} >= {"README.md", "docs/simulator.md", "docs/torch.md",
                                                   "docs/fusion.md", "docs/checking.md", "docs/vendor.md"}


@pytest.mark.parametrize("block", BLOCKS, ids=[f"{b[0].page}:{b[0].line}" for b in BLOCKS])
def test_a_shown_block_prints_what_its_page_shows(block: list[Shown], tmp_path: Path) -> None:
    """The block's commands, in order, in a folder of their own: each prints what the page shows."""
    missing = _missing(block)
    if missing:
        pytest.skip(f"needs {', '.join(missing)} (make extras)")
    for name in SHARED:
        (tmp_path / name).symlink_to(ROOT / name)
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    for shown in block:
        proc = subprocess.run(["bash", "-c", shown.command], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=600, check=False)
        actual = [line.rstrip() for line in proc.stdout.splitlines()]
        where = f"{shown.page}:{shown.line}: `{shown.command}`"
        assert proc.returncode == shown.exit_code, f"{where} exited {proc.returncode}\n{proc.stdout}"
        assert output_matches(shown.expected, actual), (
            f"{where} printed\n" + "\n".join(actual) + "\n--- the page shows ---\n" + "\n".join(shown.expected))


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_shown_output_is_in_a_console_block(page: Path) -> None:
    assert output_problems(page.read_text(encoding="utf-8"), str(page.relative_to(ROOT))) == []


def test_the_comparison_and_the_checks_can_fail() -> None:
    assert output_matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert output_matches(["a", "...", "b"], ["a", "b"])
    assert not output_matches(["a", "d"], ["a", "b", "d"])
    assert output_matches(["took ... s"], ["took 77 s"]) and not output_matches(["took ... s"], ["took 77 ms!"])
    assert not output_matches(["x 1.0"], ["x 1.5"])  # numbers are compared
    assert output_problems("```sh\nsk-compile m.json -o out\n#   sk-check: proved\n```\n", "p") != []
    assert output_problems("```\nsk-opt m.mlir\nbuiltin.module {\n```\n", "p") != []
    assert output_problems("```sh\nsk-compile m.json -o out   # a comment\n```\n", "p") == []
    [one, two] = commands_of("p", 1, "$ sk-compile a \\\n    --check\nline\n$ false # exit 1\n")
    assert (one.command, one.expected, two.exit_code) == ("sk-compile a  --check", ["line"], 1)
    [doc, run] = commands_of("p", 1, "$ cat > m.mlir <<'EOF'\n$ not a command\nEOF\n$ sk-opt m.mlir\nout\n")
    assert (doc.command, doc.expected, run.expected) == ("cat > m.mlir <<'EOF'\n$ not a command\nEOF", [], ["out"])
