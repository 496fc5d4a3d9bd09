"""skir's shortcuts through xDSL's internals, behind one door (docs/design.md §7).

Every use of xDSL's private state or replacement of an xDSL method lives in this package; no
other module of skir reads a private field of an xDSL object. Importing the package runs
`probe()`, which checks that the installed xDSL has every internal the shortcuts rely on and
raises `XdslShortcutError` naming the xDSL version and the missing internal if not: skir never
falls back silently to a slower path, nor runs a shortcut against internals it was not written
for.

The shortcuts, and the internals each relies on:

- `build`: `build_op` / `new_op`, an op without successors (its operands and results set only
  when it has some: the `!sk.token`s of a program) built without IRDL's generic constructor
  (0.5 instead of 6.5 us); the `Operation` fields `__init__` sets, `get_irdl_definition()`
  defaults.
- `verify`: `fast_verify` / `fast_print`, IRDL verification and printing of such ops (at most
  one variadic operand group, single results) without the variadic machinery (two thirds of
  `module.verify()`); the generated `verify_`'s closure cells `op_def` and `custom_verify`.
- `clone`: `clone_tree`, a deep copy through `new_op` with one map from old results to new
  ones; `Operation._operands`, `_successors`, `Block._args`.
- `printer`: `DirectPrinter` / `ir_text`, printing with `stream.write` and without per-op checks
  for custom-format ops; `Printer._print_new_line`, `_print_results`, `_current_column`,
  `_current_line`, `_indent`, `_next_line_callback`.
- `walk`: `nested_ops`, a pre-order walk with one generator; public API only.
- `isolated`: `OperandFreeIsolated`, `IsolatedFromAbove` for regions whose operands are results
  of ops nested in them, in one walk instead of its use-def walk; `Operation._operands`.
- `sweep`: `rewrite_ops`, one `PatternRewriter` moved from op to op;
  `PatternRewriter._current_operation`, `has_done_action` and the handler lists.

Proposals for xDSL (each shortcut is general; the numbers are skir's measurements on 10k-100k
task models, docs/design.md §7):

- **A constructor for value-free ops.** `IRDLOperation.create` matches operands, results and
  successors even when the definition has none. A fast path in `create` when the op definition
  declares no operands, results or successors (or a `build_unchecked(properties, regions)`
  classmethod) would make `build_op` unnecessary: 6.5 to 0.5 us an op.
- **Verification without variadic bookkeeping.** `irdl_op_verify` computes variadic group
  sizes for operands, results, regions and successors for every op; for a definition without
  variadics this is constant work that could be skipped once, at definition time. A public
  `OpDef.verify_fast(op)` (or the generated verifier specialising itself) would replace
  `fast_verify`, which today reads the generated function's closure.
- **`Printer` writing to its stream.** `Printer.print_string` goes through `print(...,
  file=stream)`; `stream.write` is about twice as fast, and ops with a custom format and no
  results do not need the SSA-name and diagnostic checks `print_op` runs for every op.
- **A reusable rewriter.** `PatternRewriter` is built per op by the greedy driver; a
  `retarget(op)` that resets its state (and an un-observed fast path for `replace`/`erase`
  of result-less ops) would replace `_SweepRewriter`.
- **A flat walk.** `Operation.walk` stacks three generators per nesting level; a single
  generator with an explicit stack (`nested_ops`) is 3-4x faster on deep IR.
"""

from __future__ import annotations

from importlib import metadata


class XdslShortcutError(RuntimeError):
    """The installed xDSL lacks an internal that one of skir's shortcuts relies on."""


def _fail(what: str) -> XdslShortcutError:
    try:
        version = metadata.version("xdsl")
    except metadata.PackageNotFoundError:
        version = "unknown"
    return XdslShortcutError(
        f"skir's xDSL shortcuts (skir.xdsl_fast) were written for xDSL 0.74.0, and the installed xDSL "
        f"{version} lacks {what}; install xdsl==0.74.0 (pyproject.toml pins it)")


def probe() -> None:
    """Check every xDSL internal the package relies on; raise `XdslShortcutError` naming the
    first one missing. Runs when the package is imported."""
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.ir import Block, Operation
    from xdsl.pattern_rewriter import PatternRewriter
    from xdsl.printer import Printer

    module = ModuleOp([])
    for field in ("_operands", "_successors", "results", "properties", "attributes", "location", "regions"):
        if not hasattr(module, field):
            raise _fail(f"the Operation field '{field}'")
    if not hasattr(Block(), "_args"):
        raise _fail("the Block field '_args'")
    generated = getattr(ModuleOp, "verify_", None)
    closure = getattr(generated, "__closure__", None)
    if generated is None or closure is None or not {"op_def", "custom_verify"} <= set(generated.__code__.co_freevars):
        raise _fail("the generated IRDL verifier's closure cells 'op_def' and 'custom_verify'")
    if not callable(getattr(ModuleOp, "get_irdl_definition", None)):
        raise _fail("IRDLOperation.get_irdl_definition")
    printer = Printer()
    for field in ("_print_new_line", "_print_results", "_current_column", "_current_line", "_indent",
                  "_next_line_callback", "indent_num_spaces", "diagnostic"):
        if not hasattr(printer, field):
            raise _fail(f"the Printer member '{field}'")
    inner = ModuleOp([])
    ModuleOp([inner])  # a rewriter needs an op inside a block
    rewriter = PatternRewriter(inner)
    for field in ("_current_operation", "has_done_action", "operation_insertion_handler",
                  "operation_removal_handler", "operation_modification_handler",
                  "operation_replacement_handler", "block_creation_handler"):
        if not hasattr(rewriter, field):
            raise _fail(f"the PatternRewriter member '{field}'")
    if not issubclass(ModuleOp, Operation):
        raise _fail("ModuleOp as an Operation")


probe()
