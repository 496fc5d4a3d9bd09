"""`sk-opt`: skir's modular optimizer driver, a thin `xDSLOptMain` subclass.

It registers skir's dialects, passes and targets, reads `.mlir` and capture `.json`
models, adds `--verify-each=false`, and turns every error into one located line on
stderr with a non-zero exit (docs/design.md §1 exit codes) instead of a traceback. Output files
are written only on success.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import inspect
import io
import os
import sys
import typing
from collections.abc import Callable, Sequence
from io import StringIO
from pathlib import Path
from typing import IO, Any, NoReturn, cast

import xdsl.targets
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute
from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import ArgSpec, parse_spec
from xdsl.utils.diagnostic import Diagnostic
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError
from xdsl.utils.target import Target
from xdsl.xdsl_opt_main import _empty_post_init, xDSLOptMain  # pyright: ignore[reportPrivateUsage]

from skir import progress, provenance, registry
from skir.diagnostics import (
    describe_exception,
    error_lines,
    one_line_warnings,
    pipeline_error_lines,
    write_atomically,
)
from skir.errors import ExitCode, SkirError, did_you_mean
from skir.gc_pause import collect_young, paused_gc
from skir.names import shown
from skir.parsing import LocatingParser, SourceMap, verify_located
from skir.passes.common import check_arguments
from skir.source_text import decode_model, guard_mlir, model_format
from skir.tools.cli import (
    ArgumentParser,
    RawHelpFormatter,
    check_argv,
    exit_now,
    parse_cores,
    quiet_on_closed_pipe,
    version_text,
)
from skir.tools.help_text import passes_help, targets_help

_SNIFF = "<content>"
"""The frontend that tells capture JSON from `.mlir` by the text."""
_FOLDER = "vendor-dump-folder"
"""The frontend of a folder input: the vendor's `sk_meta/<pid>/model_<id>_<n>` dump folder."""


class SkOptMain(xDSLOptMain):
    """`xDSLOptMain` with skir's registry and one-line diagnostics."""

    version_format = version_text("sk-opt").replace("{", "{{").replace("}", "}}")

    def __init__(self, args: Sequence[str] | None = None):
        # xDSLOptMain.__init__, with skir's one-line argument parser (docs/design.md §1: a bad
        # command line is exit 1 and one line, not argparse's usage block and exit 2)
        self.source_map = SourceMap()
        self.chunk_line_offset = 0
        self.available_frontends = {}
        self.available_passes = {}
        self.available_targets = {}
        self.ctx = Context()
        self.register_all_dialects()
        self.register_all_frontends()
        self.register_all_passes()
        self.register_all_targets()
        arg_parser = ArgumentParser(prog="sk-opt", description="skir modular optimizer driver",
                                    formatter_class=RawHelpFormatter)
        self.register_all_arguments(arg_parser)
        if args is not None and any(a in ("-h", "--help") for a in args):  # imports every pass: only then
            arg_parser.epilog = (passes_help(self.available_passes) + "\n\n"
                                 + targets_help(cast(dict[str, Callable[[], Any]], self.available_targets)))
        self.args = arg_parser.parse_args(args=args)
        # --time-passes: skir's own table on standard error (xDSL's prints on standard output,
        # where it would corrupt a target's JSON), every pass of a pipeline pass nested in it
        self.time_passes = bool(self.args.time_passes)
        self.args.time_passes = False
        target = parse_spec(self.args.target)
        if target.name not in self.available_targets:
            arg_parser.error(f"argument -t/--target: unknown target {shown(target.name)}"
                             f"{did_you_mean(target.name, self.available_targets)} "
                             f"(one of {', '.join(self.available_targets)})")
        self.ctx.allow_unregistered = self.args.allow_unregistered_dialect
        if self.args.disable_verify:  # xdsl-opt's meaning: no attribute verification either
            Attribute.__post_init__ = _empty_post_init  # type: ignore[method-assign]
        if self.args.syntax_highlight:
            Diagnostic.colored = True
        self.setup_pipeline()

    def register_all_dialects(self) -> None:
        from xdsl.dialects.builtin import Builtin

        self.ctx.load_dialect(Builtin)
        for name, factory in registry.get_all_dialects().items():
            self.ctx.register_dialect(name, factory)

    def register_all_frontends(self) -> None:
        def parse_mlir_text(text: str) -> ModuleOp:
            guard_mlir(text, self.get_input_name())
            parser = LocatingParser(self.ctx, text, self.get_input_name(), self.source_map, self.chunk_line_offset)
            with paused_gc():
                return parser.parse_module(not self.args.no_implicit_module)

        def parse_json_text(text: str) -> ModuleOp:
            from skir.api import loads_json_model

            return loads_json_model(text, self.get_input_name(), self.args.cores)

        def decoded(io: IO[bytes]) -> str:
            raw = io.read()
            provenance.note_read(self.get_input_name(), raw)
            return decode_model(raw, self.get_input_name())

        def parse_any(io: IO[bytes]) -> ModuleOp:  # standard input, or a name that says nothing
            text = decoded(io)
            json = model_format(text) == "json" or text.lstrip()[:1] == "["
            return (parse_json_text if json else parse_mlir_text)(text)

        def load_folder(_: IO[bytes]) -> ModuleOp:  # the vendor's dump folder
            from skir.frontends.vendor import load

            return load(self.args.input_file, self.args.cores)[0]

        self.available_frontends["mlir"] = lambda io: parse_mlir_text(decoded(io))
        self.available_frontends[_FOLDER] = load_folder
        self.available_frontends["json"] = lambda io: parse_json_text(decoded(io))
        self.available_frontends[_SNIFF] = parse_any

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        name = self.args.input_file
        if name is None or name == "-":
            return sys.stdin.buffer, _SNIFF
        if os.path.isdir(name):
            return io.BytesIO(), _FOLDER
        stream, extension = super().get_input_stream()
        return stream, extension if extension in ("mlir", "json") else _SNIFF

    def get_input_name(self) -> str:
        name = self.args.input_file
        return "<stdin>" if name is None or name == "-" else name

    def parse_chunk(self, chunk: IO[bytes], file_extension: str, start_offset: int = 0) -> ModuleOp | None:
        self.chunk_line_offset = start_offset
        return super().parse_chunk(chunk, file_extension, start_offset)

    def apply_passes(self, prog: ModuleOp) -> None:
        if not self.args.disable_verify:
            with progress.phase("verify input"):
                verify_located(prog)  # the input, with its op's location when a check fails
        callback = self.pipeline.callback
        running = contextlib.ExitStack()  # the phase of the pass that runs (--time-passes)

        def between(done: ModulePass | None, module: ModuleOp, following: ModulePass | None) -> None:
            if done is not None:
                collect_young()  # what the pass erased
            if callback is not None:
                with progress.phase("verify") if done is not None else contextlib.nullcontext():
                    callback(done, module, following)
            running.close()
            if following is not None:
                running.enter_context(progress.phase(following.name))

        with paused_gc(), running:
            dataclasses.replace(self.pipeline, callback=between).apply(self.ctx, prog)

    def register_all_passes(self) -> None:
        for name, factory in registry.get_all_passes().items():
            self.register_pass(name, factory)

    def register_all_targets(self) -> None:
        self.available_targets["mlir"] = xdsl.targets.get_all_targets()["mlir"]
        self.available_targets.update(registry.get_all_targets())

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        actions = arg_parser._option_string_actions  # pyright: ignore[reportPrivateUsage]
        actions["-p"].help = "comma-separated pass pipeline, e.g. 'sk-form-scopes,sk-outline' (passes: below)"
        actions["-t"].help = "target to print the result with (targets: below; default mlir)"
        # `-v` means --verbose in both skir tools (docs/design.md §1); xdsl-opt spells --version -v
        version = arg_parser._option_string_actions.pop("-v")  # pyright: ignore[reportPrivateUsage]
        version.option_strings = [o for o in version.option_strings if o != "-v"]
        version.help = "print skir's and xDSL's versions and exit"
        arg_parser.add_argument("-v", "--verbose", action="store_true",
                                help="a traceback on an internal error (as sk-compile -v; also --traceback)")
        arg_parser.add_argument("--cores", type=parse_cores, metavar="AIC:AIV", default=None,
                                help="the device's core counts for a vendor dump, which carries none (default 24:48)")
        arg_parser.add_argument(
            "--verify-each",
            type=_parse_bool,
            default=True,
            metavar="true|false",
            help="verify the module before the first pass and after each pass (default true)",
        )

    def setup_pipeline(self) -> None:
        self._check_specs()
        # Set after xDSLOptMain.__init__ has looked at --disable-verify, so that skipping
        # the verifier between passes does not also switch off attribute verification.
        if not self.args.verify_each:
            self.args.disable_verify = True
        super().setup_pipeline()  # type: ignore[no-untyped-call]  # xDSL's method is unannotated
        if self.args.print_between_passes:  # the IR between the inner passes of a pipeline pass too
            from skir.passes.pipeline import SuperKernelPipelinePass, pipeline_passes

            passes = tuple(inner for p in self.pipeline.passes
                           for inner in (pipeline_passes(p.sk_options()) if isinstance(p, SuperKernelPipelinePass)
                                         else (p,)))
            self.pipeline = dataclasses.replace(self.pipeline, passes=passes)
        if not self.args.verify_each:
            passes = tuple(
                dataclasses.replace(p, verify_each=False) if hasattr(p, "verify_each") else p  # type: ignore
                for p in self.pipeline.passes
            )
            self.pipeline = dataclasses.replace(self.pipeline, passes=passes)

    def _check_specs(self) -> None:
        """Each pass and the target accept their arguments, else one line naming them (xDSL's
        own message names neither)."""
        from xdsl.utils.arg_spec import parse_pipeline

        if self.args.passes:
            for spec in parse_pipeline(self.args.passes):
                if spec.name not in self.available_passes:
                    raise SkirError(f"unknown pass {shown(spec.name)}{did_you_mean(spec.name, self.available_passes)}"
                                    "; see --help for the available passes")
                pass_class = self.available_passes[spec.name]()
                problem = _spec_problem(pass_class, spec)
                if problem is not None:
                    raise SkirError(f"pass '{spec.name}' {problem}")
                try:
                    made = pass_class.from_spec(spec)
                except ValueError as err:
                    raise SkirError(f"pass '{spec.name}': {err}") from None
                check_arguments(made)  # a bad option fails before any pass has run
        target = parse_spec(self.args.target)
        factory = self.available_targets.get(target.name)
        if factory is not None and not inspect.signature(factory).parameters:
            target_class = cast(Callable[[], type[Target]], factory)
            problem = _spec_problem(target_class(), target)
            if problem is not None:
                raise SkirError(f"target '{target.name}' {problem}")
            try:
                target_class().from_spec(target)
            except ValueError as err:
                raise SkirError(f"target '{target.name}': {err}") from None

    def run(self) -> None:
        if self.time_passes:
            progress.enable_timing()
        chunks, extension = self.prepare_input()
        output = StringIO()
        for i, (chunk, offset) in enumerate(chunks):
            try:
                if i > 0:
                    output.write("// -----\n")
                with progress.phase("parse"):
                    module = self.parse_chunk(chunk, extension, offset)
                if module is not None:
                    self.apply_passes(module)
                    entry = provenance.record(self.args.input_file or "-", "")
                    with progress.phase(f"target {parse_spec(self.args.target).name}"), provenance.active(entry):
                        output.write(self.output_resulting_program(module))
            except ParseError as err:
                if not self.args.parsing_diagnostics:
                    raise
                output.write(describe_exception(err, self.source_map, offset) + "\n")
            except (DiagnosticException, SkirError) as err:
                if not self.args.verify_diagnostics:
                    raise
                output.write(describe_exception(err, self.source_map, offset) + "\n")
            finally:
                chunk.close()
        if self.args.output_file is None:
            sys.stdout.write(output.getvalue())
            sys.stdout.flush()
        else:
            write_atomically(Path(self.args.output_file), output.getvalue())
        if self.time_passes:
            sys.stderr.write(progress.timing_report())
            progress.disable()


def _spec_problem(pass_class: type[ModulePass] | type[Target], spec: ArgSpec) -> str | None:
    """What is wrong with the options of one pass of a `-p` pipeline (or of the `-t` target), in the pipeline's own
    spelling (`option 'verify-each': expected true or false, got 'maybe'`), or None; xDSL's own
    messages name Python types and field names the user never typed."""
    hints = typing.get_type_hints(pass_class)
    kinds = {f.name.replace("_", "-"): hints.get(f.name) for f in dataclasses.fields(pass_class)}
    for key, values in spec.parameters.items():
        name = key.replace("_", "-")
        if name not in kinds:
            known = ", ".join(kinds) or "none"
            return f"has no option {shown(key)}{did_you_mean(name, kinds)} (its options: {known})"
        kind = kinds[name]
        if len(values) != 1:
            return f"option '{name}': expected one value, got {len(values)}"
        value = values[0]
        got = shown(value) if isinstance(value, str) else str(value).lower()
        if kind is bool and not isinstance(value, bool):
            return f"option '{name}': expected true or false, got {got}"
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            return f"option '{name}': expected an integer, got {got}"
        if kind is not bool and kind is not int and not isinstance(value, str):
            return f"option '{name}': expected a string in double quotes ({name}=\"...\"), got {got}"
    return None


def _parse_bool(text: str) -> bool:
    lowered = text.lower()
    if lowered in ("true", "1", "yes"):
        return True
    if lowered in ("false", "0", "no"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, got '{text}'")


@quiet_on_closed_pipe
def main(argv: Sequence[str] | None = None) -> int:
    """Console entry point; returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    verbose = any(a in ("--traceback", "-v", "--verbose") for a in argv)
    argv = [a for a in argv if a != "--traceback"]
    source_map: SourceMap | None = None
    with one_line_warnings("sk-opt"), provenance.invoked_as("sk-opt", argv):
        try:
            check_argv(argv)
            tool = SkOptMain(argv)
            source_map = tool.source_map
            tool.run()
        except SystemExit as err:  # --help / --version
            return int(err.code or 0) if isinstance(err.code, int) else ExitCode.BAD_INPUT
        except BrokenPipeError:
            raise  # the reader went away: a quiet exit (quiet_on_closed_pipe)
        except ArgSpecParseError as err:
            for line in pipeline_error_lines("sk-opt", str(err)):
                print(line, file=sys.stderr)
            return ExitCode.BAD_INPUT
        except Exception as err:
            code = int(err.code if isinstance(err, SkirError) else _exit_code(err))
            if verbose and code == ExitCode.INTERNAL:
                raise
            text = describe_exception(err, source_map)
            lines = [f"sk-opt: {text}"] if text.startswith("internal error") else error_lines("sk-opt", text)
            for line in lines:
                print(line, file=sys.stderr)
            for line in getattr(err, "details", [])[1:]:
                print(f"sk-opt: {line}", file=sys.stderr)
            return code
    return ExitCode.OK


def _exit_code(err: BaseException) -> ExitCode:
    if isinstance(err, ParseError | DiagnosticException | SkirError | ArgSpecParseError | ValueError):
        return ExitCode.BAD_INPUT
    if isinstance(err, OSError):
        return ExitCode.BAD_INPUT
    return ExitCode.INTERNAL


def run() -> NoReturn:
    """The console script: `main`, then `exit_now` with its code."""
    exit_now(main())


if __name__ == "__main__":
    run()
