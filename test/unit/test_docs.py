"""The user's documentation stays complete and true: the README's quick start is what CI and the
Makefile run; every pass and its options, every target, every SuperKernel option key and every
flag of every command-line tool and `tools/` script is documented; the docs name only `aclgraph`,
`sk` and `ascendc` ops and attributes that exist, and only files, modules and links that exist.

Each check is a function from text to the problems it finds, so the tests at the end can show
that it fails on a broken page.
"""

from __future__ import annotations

import argparse
import ast
import re
from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from pathlib import Path

import pytest

from skir.options import OPTION_KEYS
from skir.registry import get_all_dialects, get_all_passes, get_all_targets

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
CLI = ROOT / "docs" / "cli.md"
DESIGN = sorted((ROOT / "docs" / "design").glob("*.md"))
"""The pages of the design contract (docs/design.md is their index)."""
PAGES = sorted([README, ROOT / "CONTRIBUTING.md", *(ROOT / "docs").glob("*.md"), *DESIGN])
"""Every page of the documentation: the user's, and the design's index and pages."""

SKIR_TOOLS = ("sk_compile", "sk_opt", "sk_check_ranks", "sk_hang", "sk_apply")
"""The modules of `skir/tools/` that are console scripts (each has `main(argv)`)."""


# ---- reading markdown ------------------------------------------------------------------------------


def section(text: str, heading: str) -> str:
    """The text under the heading line `heading` (e.g. "## `sk-opt`") up to the next heading of
    the same or a higher level; "" when there is no such heading."""
    level = len(heading) - len(heading.lstrip("#"))
    lines = text.splitlines()
    if heading not in lines:
        return ""
    start = lines.index(heading) + 1
    end = next((i for i in range(start, len(lines))
                if re.match(rf"#{{1,{level}}} ", lines[i]) and not _in_fence(lines, i)), len(lines))
    return "\n".join(lines[start:end])


def _in_fence(lines: list[str], index: int) -> bool:
    return sum(1 for line in lines[:index] if line.lstrip().startswith("```")) % 2 == 1


def table_rows(text: str) -> list[list[str]]:
    """The cells of every table row of `text` (header and separator rows left out)."""
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not re.match(r"\|\s*-", line):
            rows.append([cell.strip() for cell in line.strip().strip("|").split(" | ")])
    return rows[1:] if rows else rows


def code_spans(text: str) -> list[str]:
    """The fenced code blocks and inline code spans of `text`."""
    return re.findall(r"```.*?```|`[^`\n]+`", text, flags=re.S)


def has_word(text: str, word: str) -> bool:
    """`word` (a flag, a name) stands in `text` on its own: not part of a longer flag or name."""
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


# ---- the checks --------------------------------------------------------------------------------------


def quick_start_problems(readme: str, ci: str, makefile: str) -> list[str]:
    """The README's quick start gives the two set-up commands, `make demo` and `make test`; CI
    runs the test command it gives; the Makefile's demo runs the command the README says."""
    block = re.search(r"```sh\n(.*?)```", section(readme, "## Quick start"), flags=re.S)
    if block is None:
        return ["README: no ```sh block under '## Quick start'"]
    commands = [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]
    problems = [] if commands == ["make demo", "make test"] else [f"README quick start: {commands}"]
    ci_commands = [line.split("#")[0].strip() for line in ci.splitlines()
                   if line.strip() and not line.lstrip().startswith("#")]
    if "make test" not in ci_commands:
        problems.append(".ci/run does not run the README's test command 'make test'")
    elif [c for c in ci_commands if c in commands] != commands:
        problems.append(f".ci/run does not run the README's commands {commands} in that order")
    demo = re.search(r"make demo\s+#.*?then: (.*)$", block.group(1), flags=re.M)
    recipe = re.search(r"^demo:.*\n\t(.*)$", makefile, flags=re.M)
    if demo is None or recipe is None or not recipe.group(1).endswith(demo.group(1).strip()):
        problems.append("the Makefile's demo does not run the command the README's quick start gives")
    if not re.search(r"^test:", makefile, flags=re.M):
        problems.append("the Makefile has no test target")
    return problems


def pass_options(name: str) -> list[str]:
    """The options of pass `name`, spelt as in a pipeline (`verify-each`)."""
    cls = get_all_passes()[name]()
    assert is_dataclass(cls)
    return [f.name.replace("_", "-") for f in fields(cls)]


def pass_problems(readme: str, cli: str) -> list[str]:
    """Every registered pass has a row in the README's pass table and one in docs/cli.md's, that
    row naming each of its options; neither table names a pass that is not registered."""
    passes = get_all_passes()
    problems = []
    readme_rows = {row[0].strip("`"): row for row in table_rows(section(readme, "## Passes"))}
    cli_rows = {row[0].strip("`"): row for row in table_rows(section(cli, "## Passes"))}
    for name in passes:
        if name not in readme_rows:
            problems.append(f"README: no row for pass {name}")
        row = cli_rows.get(name)
        if row is None:
            problems.append(f"docs/cli.md: no row for pass {name}")
            continue
        for option in pass_options(name):
            if f"`{option}`" not in row[1]:
                problems.append(f"docs/cli.md: pass {name}: option {option} not in its row")
    problems += [f"README: pass table names {n}, which is no pass" for n in readme_rows if n not in passes]
    problems += [f"docs/cli.md: pass table names {n}, which is no pass" for n in cli_rows if n not in passes]
    # both tables say "in pipeline order": the pipeline's passes in the order superkernel-pipeline runs them
    from skir.passes.pipeline import pipeline_passes

    order = [p.name for p in pipeline_passes("")]
    for page, rows in (("README", readme_rows), ("docs/cli.md", cli_rows)):
        listed = [n for n in rows if n in order]
        if listed != order:
            problems.append(f"{page}: the pass table's order {listed} is not the pipeline's {order}")
    return problems


def target_problems(cli: str) -> list[str]:
    """Every target `sk-opt` offers, and each target's options, are in docs/cli.md's table."""
    rows = table_rows(section(cli, "### Targets"))
    named = {name for row in rows for name in re.findall(r"`([\w-]+)[`{]", row[0])}
    problems = []
    for name, get in {"mlir": None, **get_all_targets()}.items():
        if name not in named:
            problems.append(f"docs/cli.md: target {name} not in the targets table")
        cls = get() if get is not None else None
        for field in fields(cls) if cls is not None and is_dataclass(cls) else ():
            if not any(f"{name}{{{field.name}=" in row[0] for row in rows):
                problems.append(f"docs/cli.md: target {name}: option {field.name} not shown")
    return problems


def option_key_problems(cli: str) -> list[str]:
    """Every SuperKernel option key has a row of docs/cli.md's option table, which names no
    other key."""
    rows = table_rows(section(cli, "## SuperKernel options"))
    documented = {key for row in rows for key in re.findall(r"`([\w-]+)`", row[0])}
    return ([f"docs/cli.md: option key {k} not in the option table" for k in OPTION_KEYS if k not in documented]
            + [f"docs/cli.md: the option table names {k}, which is no option key"
               for k in sorted(documented - set(OPTION_KEYS))])


def tool_parsers() -> dict[str, argparse.ArgumentParser]:
    """Each console script of `skir/tools/` (by its command name) -> the parser its `main` builds:
    `main` runs with `parse_args` replaced by one that keeps the parser and stops."""
    import importlib

    found: dict[str, argparse.ArgumentParser] = {}
    plain = argparse.ArgumentParser.parse_args

    def keep(self: argparse.ArgumentParser, *args: object, **kwargs: object) -> argparse.Namespace:
        found[current] = self
        raise SystemExit(0)

    argparse.ArgumentParser.parse_args = keep  # type: ignore[method-assign,assignment]
    try:
        for module in SKIR_TOOLS:
            current = module.replace("_", "-")
            importlib.import_module(f"skir.tools.{module}").main([])
    finally:
        argparse.ArgumentParser.parse_args = plain  # type: ignore[method-assign]
    return found


def parser_words(parser: argparse.ArgumentParser) -> Iterator[tuple[str, list[str]]]:
    """(the flag as `--help` shows it, the words any of which documents it) for every argument of
    `parser` but the suppressed ones; a positional by its metavar, its name or that in capitals."""
    for action in parser._actions:  # argparse keeps no public list
        if action.help == argparse.SUPPRESS:
            continue
        if action.option_strings:
            for flag in action.option_strings:
                yield flag, [flag]
        else:
            metavar = action.metavar if isinstance(action.metavar, str) else None
            yield action.dest, [w for w in (metavar, action.dest, action.dest.upper()) if w]


def script_arguments(path: Path) -> list[tuple[str, list[str]]]:
    """The arguments a `tools/` script's argparse parser takes, read from its source (the scripts
    parse `sys.argv` in `main` and are not imported by the tests): as `parser_words`."""
    out: list[tuple[str, list[str]]] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "add_argument"):
            continue
        if any(k.arg == "help" and isinstance(k.value, ast.Attribute) and k.value.attr == "SUPPRESS"
               for k in node.keywords):
            continue
        names = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        if names and names[0].startswith("-"):
            out += [(flag, [flag]) for flag in names]
        elif names:
            out.append((names[0], [names[0], names[0].upper()]))
    return out


def scripts() -> list[Path]:
    """The scripts of `tools/` (a file with a `__main__` block)."""
    return [p for p in sorted((ROOT / "tools").glob("*.py")) if "__main__" in p.read_text()]


def flag_problems(cli: str, parsers: dict[str, argparse.ArgumentParser]) -> list[str]:
    """Every argument of every console script has a row in the table of flags of that tool's
    section of docs/cli.md (its heading names the tool in backticks); every argument of every
    `tools/` script is named in that script's section."""
    problems = []
    for tool, parser in parsers.items():
        rows = table_rows(section(cli, f"## `{tool}`"))
        if not rows:
            problems.append(f"docs/cli.md: no table of flags under ## `{tool}`")
            continue
        for flag, words in parser_words(parser):
            # a flag in the first cell of its row; a positional may be named in its row's text
            cells = [row[0] for row in rows] if flag.startswith("-") else [" | ".join(row) for row in rows]
            if not any(has_word(cell, w) for cell in cells for w in words):
                problems.append(f"docs/cli.md: {tool}: {flag} has no row in its table of flags")
    for path in scripts():
        name = f"tools/{path.name}"
        text = section(cli, f"### `{name}`")
        if not text:
            problems.append(f"docs/cli.md: no section ### `{name}`")
            continue
        problems += [f"docs/cli.md: {name}: {flag} is not documented"
                     for flag, words in script_arguments(path) if not any(has_word(text, w) for w in words)]
    return problems


NAME = re.compile(r"(?<![\w./-])(?:aclgraph|sk|ascendc)\.(?!(?:py|mlir|md|json|h|cpp)\b)[A-Za-z_]\w*(?:[*<])?")
"""A dialect-prefixed name (`sk.barrier`), or a family of them (`sk.depend_*`, `sk.depend_<rule>`);
not a file name (`ascendc.py`)."""


def string_constants(pattern: re.Pattern[str]) -> set[str]:
    """The string constants of the code in `skir/` that `pattern` matches whole."""
    found: set[str] = set()
    for path in (ROOT / "skir").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and pattern.fullmatch(node.value):
                found.add(node.value)
    return found


def ir_names() -> set[str]:
    """The ops and attributes of the registered dialects, and the discardable attributes the code
    sets on ops (`sk.group`, `sk.fail`, ...: a string constant of that form in `skir/`)."""
    known: set[str] = set()
    for get in get_all_dialects().values():
        dialect = get()
        known |= {op.name for op in dialect.operations} | {attr.name for attr in dialect.attributes}
    return known | string_constants(NAME)


def ir_name_problems(text: str, known: set[str], where: str) -> list[str]:
    """The dialect-prefixed names in the code spans of `text` that name no op or attribute."""
    problems = []
    for span in code_spans(text):
        for name in NAME.findall(span):
            if name[-1] in "*<":
                if not any(k.startswith(name[:-1]) for k in known):
                    problems.append(f"{where}: {name}: no op or attribute starts so")
            elif name not in known:
                problems.append(f"{where}: {name} is no op or attribute of the registered dialects")
    return problems


PATH = re.compile(r"(?<![\w./-])(?:(?:skir|test|tools|examples)/[\w./-]*[\w/]|docs/(?:design/)?[\w-]+\.md\b)")
"""A path of this repository (`docs/` only as its pages and the design's: other repositories have
`docs/` too)."""
MODULE = re.compile(r"(?<![\w./])skir(?:\.\w+)+")
"""A module of skir, maybe with a name it defines (`skir.patterns.sync_lowering.LowerFlagAwait`)."""


def reference_problems(text: str, where: str) -> list[str]:
    """Paths of the repository and `skir.` modules (with the name after them) that the code spans
    of `text` name must exist; so must the files and headings its relative links point at. A
    `skir.` name the code uses as a string (a format, `skir.profile`; an attribute, `skir.vendor`)
    counts as existing."""
    problems = []
    strings = _skir_strings()
    for span in code_spans(text):
        for path in PATH.findall(span):
            if not (ROOT / path).exists():
                problems.append(f"{where}: {path} does not exist")
        for dotted in MODULE.findall(span):
            if dotted not in strings and not _resolves(dotted):
                problems.append(f"{where}: {dotted} names no module or name of one")
    page = Path(where)
    for target, anchor in re.findall(r"\]\(([^)#\s]*)(?:#([^)\s]+))?\)", text):
        if target.startswith(("http:", "https:")):
            continue
        path = (ROOT / page).parent / target if target else ROOT / page
        if not path.exists():
            problems.append(f"{where}: link to {target}, which does not exist")
        elif anchor and path.suffix == ".md" and anchor not in _anchors(path.read_text()):
            problems.append(f"{where}: link to {target}#{anchor}: no such heading")
    return problems


_STRINGS: set[str] = set()


def _skir_strings() -> set[str]:
    if not _STRINGS:
        _STRINGS.update(string_constants(MODULE))
    return _STRINGS


def _resolves(dotted: str) -> bool:
    """`skir.a.b` is a module (or package); `skir.a.b.name` a module and a name it defines or
    imports."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:i])
        source = base.with_suffix(".py") if base.with_suffix(".py").is_file() else base / "__init__.py"
        if source.is_file():
            if i == len(parts):
                return True
            name = re.escape(parts[i])
            return re.search(rf"^\s*(?:def|class)\s+{name}\b|^{name}\s*[:=]|\bimport\b[^\n]*\b{name}\b"
                             rf"|^\s+{name},?$", source.read_text(), flags=re.M) is not None
    return False


def _anchors(text: str) -> set[str]:
    """The anchors GitHub gives the headings of a page."""
    out = set()
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"#{1,6} (.*)$", line)
        if m and not _in_fence(lines, i):
            slug = re.sub(r"[^\w\s-]", "", m.group(1).lower()).strip()
            out.add(re.sub(r"\s", "-", slug))
    return out


# ---- the tests ---------------------------------------------------------------------------------------


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_the_quick_start_is_what_ci_and_the_makefile_run() -> None:
    assert quick_start_problems(read(README), read(ROOT / ".ci" / "run"), read(ROOT / "Makefile")) == []


def test_every_pass_and_its_options_are_documented() -> None:
    assert pass_problems(read(README), read(CLI)) == []


def test_every_target_is_documented() -> None:
    assert target_problems(read(CLI)) == []


def test_every_option_key_is_documented() -> None:
    assert option_key_problems(read(CLI)) == []


def test_every_flag_of_every_tool_is_documented() -> None:
    parsers = tool_parsers()
    assert set(parsers) == {m.replace("_", "-") for m in SKIR_TOOLS}
    assert flag_problems(read(CLI), parsers) == []


def test_every_console_script_is_a_documented_tool() -> None:
    scripts_section = re.search(r"^\[project\.scripts\]\n(.*?)(?:\n\[|\Z)", read(ROOT / "pyproject.toml"),
                                flags=re.S | re.M)
    assert scripts_section is not None
    names = re.findall(r"^([\w-]+)\s*=", scripts_section.group(1), flags=re.M)
    assert names and {n.replace("-", "_") for n in names} == set(SKIR_TOOLS)
    assert all(section(read(CLI), f"## `{name}`") for name in names)


def read_design() -> str:
    """The text of every page of the design contract."""
    assert len(DESIGN) > 10  # the contract's pages are there at all
    return "\n".join(read(page) for page in DESIGN)


def test_the_design_names_only_ops_and_attributes_that_exist() -> None:
    known = ir_names()
    names = {n for span in code_spans(read_design()) for n in NAME.findall(span)}
    assert len(names) > 30  # the check reads the design's names at all
    assert ir_name_problems(read_design(), known, "docs/design/") == []


def test_every_page_names_only_ops_and_attributes_that_exist() -> None:
    known = ir_names()
    problems = [p for page in PAGES for p in ir_name_problems(read(page), known, str(page.relative_to(ROOT)))]
    assert problems == []


def test_every_page_names_only_files_modules_and_links_that_exist() -> None:
    problems = [p for page in PAGES for p in reference_problems(read(page), str(page.relative_to(ROOT)))]
    assert problems == []


# ---- each check fails on a broken page ---------------------------------------------------------------


def _without_line(text: str, start: str) -> str:
    """`text` without its line that starts with `start` (there must be one)."""
    lines = text.splitlines()
    kept = [line for line in lines if not line.startswith(start)]
    assert len(kept) == len(lines) - 1, start
    return "\n".join(kept)


def _replaced(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def test_the_checks_fail_on_broken_pages() -> None:
    readme, cli, design = read(README), read(CLI), read_design()
    ci, makefile = read(ROOT / ".ci" / "run"), read(ROOT / "Makefile")
    assert quick_start_problems(_replaced(readme, "make test   #", "make check   #"), ci, makefile)
    assert quick_start_problems(readme, _replaced(ci, "make test", "make lit"), makefile)
    assert quick_start_problems(readme, _without_line(ci, "make demo"), makefile)
    assert pass_problems(readme, _without_line(cli, "| `sk-prune-sync` |"))
    assert pass_problems(_without_line(readme, "| `sk-lower-sync` |"), cli)
    assert pass_problems(readme, re.sub(r"^(\| `sk-prune-sync` \|[^|]*)`stats`", r"\1", cli, flags=re.M))
    prune = next(line for line in cli.splitlines() if line.startswith("| `sk-prune-sync` |"))
    assert pass_problems(readme, _replaced(_without_line(cli, "| `sk-prune-sync` |"), "| `sk-insert-preload` |",
                                           prune + "\n| `sk-insert-preload` |"))  # out of pipeline order
    assert target_problems(_without_line(cli, "| `sk-plan` |"))
    assert option_key_problems(_without_line(cli, "| `fuse-comm` |"))
    parsers = tool_parsers()
    assert flag_problems(_without_line(cli, "| `--no-cache` |"), parsers)
    assert flag_problems(_without_line(cli, "| `-f, --frontend NAME` |"), parsers)
    assert flag_problems(_replaced(cli, "`--with-conds`", "`--with-cond`"), parsers)
    known = ir_names()
    assert ir_name_problems(_replaced(design, "`sk.depend_flag_await`", "`sk.depend_flag_wait`"), known, "design")
    assert ir_name_problems("`sk.group` and `sk.depend_*` and `#sk.options`", known, "x") == []
    assert ir_name_problems("`sk.groups`", known, "x") and ir_name_problems("`sk.nothing_*`", known, "x")
    assert reference_problems("`skir/passes/no_such_pass.py`", "docs/cli.md")
    assert reference_problems("`skir.patterns.sync_lowering.LowerFlagPair`", "docs/cli.md")
    assert not reference_problems("`skir.patterns.sync_lowering.LowerFlagAwait`", "docs/cli.md")
    assert reference_problems("[x](cli.md#no-such-heading)", "docs/fusion.md")
    assert not reference_problems("[x](cli.md#sk-check-ranks)", "docs/fusion.md")
    assert not reference_problems("[x](../cli.md#sk-check-ranks) [y](../design.md#3-semantics)", "docs/design/ir.md")
    assert reference_problems("[x](cli.md)", "docs/design/ir.md")  # a link of a design page is from docs/design/
    assert reference_problems("`docs/design/no-such-page.md`", "docs/cli.md")


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_pages_speak_of_the_project_only(page: Path) -> None:
    """No machine paths of one checkout in the pages."""
    assert not re.search(r"(?<![\w.])/(?:work|home|root|Users)/", read(page)), page
