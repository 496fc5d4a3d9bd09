"""skir's imports run one way: the module graph (every `import`, at module level or inside a
function) has no cycle but the ones named here, which may only shrink, and no forbidden edge."""

from __future__ import annotations

import ast
from pathlib import Path

from skir.analysis.graph.strong_parts import strong_parts

ROOT = Path(__file__).resolve().parents[2] / "skir"

KNOWN_CYCLES: set[frozenset[str]] = set()
"""Import cycles accepted for now (none: the model verifier's whole-model rules are installed by
`skir.analysis.proof.model_check`, not imported by the dialect)."""

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
    # the analysis families import one way (skir/analysis/__init__.py): graph, then comm and
    # placement, then formation, then sync; the proofs read any family but sync
    *(("skir.analysis.graph", f"skir.analysis.{upper}")
      for upper in ("comm", "placement", "formation", "sync", "proof")),
    *(("skir.analysis.comm", f"skir.analysis.{upper}") for upper in ("placement", "formation", "sync", "proof")),
    *(("skir.analysis.placement", f"skir.analysis.{upper}")
      for upper in ("graph", "comm", "formation", "sync", "proof")),
    *(("skir.analysis.formation", f"skir.analysis.{upper}") for upper in ("placement", "sync", "proof")),
    *(("skir.analysis.sync", f"skir.analysis.{upper}") for upper in ("placement", "proof")),
    ("skir.analysis.proof", "skir.analysis.sync"),
    ("skir.patterns", "skir.passes"),
    ("skir.patterns", "skir.targets"),
    ("skir.patterns", "skir.frontends"),
    ("skir.targets", "skir.passes"),
    ("skir.targets", "skir.api"),
    ("skir.targets", "skir.frontends"),
    ("skir.sim", "skir.api"),
    # the API reads models through the registry's readers; front ends sit above it
    ("skir.api", "skir.frontends"),
    ("skir.readers", "skir.frontends"),
    ("skir.compile_result", "skir.api"),
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


def lazy_names() -> dict[str, str]:
    """The public names the `skir` package imports on first read (PEP 562, its `_WHERE`): reading
    `skir.compile` imports `skir.api` as surely as an import statement does."""
    tree = ast.parse((ROOT / "__init__.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "_WHERE" for t in node.targets):
            where: dict[str, str] = ast.literal_eval(node.value)
            return where
    raise AssertionError("skir/__init__.py has no _WHERE table")


def module_graph() -> dict[str, set[str]]:
    """Module -> the skir modules it imports (submodule imports resolved to the module). Three
    kinds of reach count as imports besides the statements: `skir.<name>` (or `from skir import
    <name>`) of a lazily imported public name, the module that defines it; a name read from the
    module's own package (`from skir.frontends.torch import x` inside `skir.frontends.torch.y`),
    that package's `__init__`."""
    modules: dict[str, Path] = {}
    for path in ROOT.rglob("*.py"):
        name = ".".join(path.relative_to(ROOT.parent).with_suffix("").parts)
        modules[name.removesuffix(".__init__")] = path
    lazy = lazy_names()

    def resolve(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    edges: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        tree = ast.parse(path.read_text())
        aliases = set()  # the names `import skir` binds in this module
        for node in ast.walk(tree):
            targets: list[str] = []
            own: list[str] = []  # names read from one of the module's own packages
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
                aliases |= {a.asname or a.name for a in node.names if a.name == "skir"}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join([*parts[: len(parts) - node.level + 1], *([base] if base else [])])
                # `from pkg import sub` imports the submodule; `from pkg import name`, the package
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
                if base == "skir":
                    targets += [lazy[a.name] for a in node.names if a.name in lazy]
                elif base != module and module.startswith(base + ".") and base in modules:
                    own = [base for a in node.names if f"{base}.{a.name}" not in modules]
            for target in targets:
                found = resolve(target) if target.startswith("skir") else None
                # every module's own packages run first anyway: importing one is no edge
                if found is not None and found != module and not module.startswith(found + "."):
                    edges[module].add(found)
            edges[module].update(own)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
                    and node.attr in lazy and lazy[node.attr] != module):
                edges[module].add(lazy[node.attr])
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
    def under(module: str, prefix: str) -> bool:
        return module == prefix or module.startswith(prefix + ".")

    bad = [(m, t) for m, targets in module_graph().items() for t in targets
           for lower, upper in FORBIDDEN if under(m, lower) and under(t, upper)]
    assert not bad, bad


def test_lazy_and_package_reaches_count_as_imports() -> None:
    """The reaches an import statement does not show, found (on modules written for the purpose)."""
    graph = module_graph()
    assert "skir.api" in graph["skir.tools.sk_compile"]  # `import skir` ... `skir.compile(...)`
    assert "skir.api" not in graph["skir.marks"]  # `skir.compile` in a docstring is no reach


def test_the_oracle_finds_a_cycle() -> None:
    """The cycle finder, on a graph written by hand."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [frozenset({"a", "b", "c"})]
