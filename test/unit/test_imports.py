"""skir's imports run one way: the module graph (every `import`, at module level or inside a
function) has no cycle but the ones named here, which may only shrink, and no forbidden edge."""

from __future__ import annotations

import ast
from pathlib import Path

from skir.analysis.strong_parts import strong_parts

ROOT = Path(__file__).resolve().parents[2] / "skir"

KNOWN_CYCLES: set[frozenset[str]] = set()
"""Import cycles accepted for now (none: the model verifier's whole-model rules are installed by
`skir.analysis.model_check`, not imported by the dialect)."""

FORBIDDEN = (
    # the xDSL shortcuts sit below every dialect
    ("skir.xdsl_fast", "skir.dialects"),
    ("skir.xdsl_fast", "skir.analysis"),
    ("skir.xdsl_fast", "skir.patterns"),
    ("skir.xdsl_fast", "skir.passes"),
    # (importer prefix, imported prefix): dialects are the bottom layer
    ("skir.dialects", "skir.analysis"),
    ("skir.dialects", "skir.patterns"),
    ("skir.dialects", "skir.passes"),
    ("skir.dialects", "skir.targets"),
    ("skir.dialects", "skir.frontends"),
    ("skir.dialects", "skir.api"),
    ("skir.analysis", "skir.passes"),
    ("skir.analysis", "skir.targets"),
    ("skir.analysis", "skir.frontends"),
    ("skir.patterns", "skir.passes"),
    ("skir.patterns", "skir.targets"),
    ("skir.patterns", "skir.frontends"),
    ("skir.targets", "skir.passes"),
    ("skir.targets", "skir.api"),
    ("skir.targets", "skir.frontends"),
    ("skir.sim", "skir.api"),
    ("skir.frontends", "skir.passes"),
    ("skir.frontends", "skir.targets.ascendc"),
    ("skir.hostsim", "skir.frontends"),
    # the emulator takes emitted sources and a spec; the adapter that reads the IR into specs is
    # a target (`skir.targets.emulation`)
    ("skir.hostsim", "skir.passes"),
    ("skir.hostsim", "skir.targets"),
    ("skir.hostsim", "skir.analysis"),
    ("skir.runtime", "skir.frontends"),
    ("skir.frontends.vendor", "skir.api"),
    ("skir.targets.sk_meta", "skir.frontends"),
    ("skir.targets.summary", "skir.frontends"),
    # the printers of a result read its records, never the follow-ups that call them
    ("skir.targets", "skir.compile_result"),
    ("skir.outputs", "skir.compile_result"),
    ("skir.vendor_comparison", "skir.compile_result"),
    ("skir.result_records", "skir.compile_result"),
)


def module_graph() -> dict[str, set[str]]:
    """Module -> the skir modules it imports (submodule imports resolved to the module)."""
    modules: dict[str, Path] = {}
    for path in ROOT.rglob("*.py"):
        name = ".".join(path.relative_to(ROOT.parent).with_suffix("").parts)
        modules[name.removesuffix(".__init__")] = path

    def resolve(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    edges: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text())):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join([*parts[: len(parts) - node.level + 1], *([base] if base else [])])
                # `from pkg import sub` imports the submodule; `from pkg import name`, the package
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            for target in targets:
                found = resolve(target) if target.startswith("skir") else None
                # every module's own packages run first anyway: importing one is no edge
                if found is not None and found != module and not module.startswith(found + "."):
                    edges[module].add(found)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module."""
    return [frozenset(part) for part in strong_parts(set(edges).union(*edges.values()), edges)]


def test_no_cycle_but_the_known_ones() -> None:
    found = set(cycles(module_graph()))
    new = [sorted(c) for c in found if not any(c <= known for known in KNOWN_CYCLES)]
    assert not new, f"new import cycles: {new}"
    # the known ones may only shrink, and the list says exactly what is left
    stale = [sorted(k) for k in KNOWN_CYCLES if k not in found]
    assert not stale, f"cycles that shrank or are gone; write what is left into KNOWN_CYCLES: {stale}"


def test_no_forbidden_edge() -> None:
    bad = [(m, t) for m, targets in module_graph().items() for t in targets
           for lower, upper in FORBIDDEN if m.startswith(lower) and t.startswith(upper)]
    assert not bad, bad


def test_the_oracle_finds_a_cycle() -> None:
    """The cycle finder, on a graph written by hand."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [frozenset({"a", "b", "c"})]
