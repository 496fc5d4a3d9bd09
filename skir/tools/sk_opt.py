"""`sk-opt`: skir's modular optimizer driver, a thin `xDSLOptMain` subclass.

It registers skir's dialects, passes and targets, reads `.mlir` and capture `.json`
models, adds `--verify-each=false`, and turns every error into one located line on
stderr with a non-zero exit (DESIGN §1 exit codes) instead of a traceback. Output files
are written only on success.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Sequence
from io import StringIO
from pathlib import Path
from typing import IO

import xdsl.targets
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError
from xdsl.xdsl_opt_main import xDSLOptMain

from skir import registry
from skir.diagnostics import describe_exception, one_line_warnings, write_atomically
from skir.errors import ExitCode, SkirError
from skir.gc_pause import paused_gc
from skir.parsing import LocatingParser, SourceMap


class SkOptMain(xDSLOptMain):
    """`xDSLOptMain` with skir's registry and one-line diagnostics."""

    version_format = "sk-opt (skir) built on xdsl {xdsl_version}"

    def __init__(self, args: Sequence[str] | None = None):
        self.source_map = SourceMap()
        self.chunk_line_offset = 0
        super().__init__(description="skir modular optimizer driver", args=args)

    def register_all_dialects(self) -> None:
        from xdsl.dialects.builtin import Builtin

        self.ctx.load_dialect(Builtin)
        for name, factory in registry.get_all_dialects().items():
            self.ctx.register_dialect(name, factory)

    def register_all_frontends(self) -> None:
        def parse_mlir(io: IO[bytes]) -> ModuleOp:
            parser = LocatingParser(
                self.ctx, io.read().decode(), self.get_input_name(), self.source_map, self.chunk_line_offset
            )
            with paused_gc():
                return parser.parse_module(not self.args.no_implicit_module)

        def parse_json(io: IO[bytes]) -> ModuleOp:
            from skir.frontends.capture import loads

            return loads(io.read().decode(), self.get_input_name())

        self.available_frontends["mlir"] = parse_mlir
        self.available_frontends["json"] = parse_json

    def parse_chunk(self, chunk: IO[bytes], file_extension: str, start_offset: int = 0) -> ModuleOp | None:
        self.chunk_line_offset = start_offset
        return super().parse_chunk(chunk, file_extension, start_offset)

    def apply_passes(self, prog: ModuleOp) -> None:
        with paused_gc():
            super().apply_passes(prog)

    def register_all_passes(self) -> None:
        for name, factory in registry.get_all_passes().items():
            self.register_pass(name, factory)

    def register_all_targets(self) -> None:
        self.available_targets["mlir"] = xdsl.targets.get_all_targets()["mlir"]
        self.available_targets.update(registry.get_all_targets())

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.add_argument(
            "--verify-each",
            type=_parse_bool,
            default=True,
            metavar="true|false",
            help="verify the module before the first pass and after each pass (default true)",
        )

    def setup_pipeline(self) -> None:
        # Set after xDSLOptMain.__init__ has looked at --disable-verify, so that skipping
        # the verifier between passes does not also switch off attribute verification.
        if not self.args.verify_each:
            self.args.disable_verify = True
        super().setup_pipeline()
        if not self.args.verify_each:
            passes = tuple(
                dataclasses.replace(p, verify_each=False) if hasattr(p, "verify_each") else p  # type: ignore
                for p in self.pipeline.passes
            )
            self.pipeline = dataclasses.replace(self.pipeline, passes=passes)

    def run(self) -> None:  # type: ignore[override]
        chunks, extension = self.prepare_input()
        output = StringIO()
        for i, (chunk, offset) in enumerate(chunks):
            try:
                if i > 0:
                    output.write("// -----\n")
                module = self.parse_chunk(chunk, extension, offset)
                if module is not None:
                    self.apply_passes(module)
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


def _parse_bool(text: str) -> bool:
    lowered = text.lower()
    if lowered in ("true", "1", "yes"):
        return True
    if lowered in ("false", "0", "no"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, got '{text}'")


def main(argv: Sequence[str] | None = None) -> int:
    """Console entry point; returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    verbose = "--traceback" in argv
    if verbose:
        argv.remove("--traceback")
    source_map: SourceMap | None = None
    with one_line_warnings("sk-opt"):
        try:
            tool = SkOptMain(argv)
            source_map = tool.source_map
            tool.run()
        except SystemExit as err:  # argparse errors and --help / --version
            return int(err.code or 0) if isinstance(err.code, int) else ExitCode.BAD_INPUT
        except (Exception, ArgSpecParseError) as err:
            if verbose:
                raise
            print(f"sk-opt: {describe_exception(err, source_map)}", file=sys.stderr)
            for line in getattr(err, "details", [])[1:]:
                print(f"sk-opt: {line}", file=sys.stderr)
            return int(err.code if isinstance(err, SkirError) else _exit_code(err))
    return ExitCode.OK


def _exit_code(err: BaseException) -> ExitCode:
    if isinstance(err, ParseError | DiagnosticException | SkirError | ArgSpecParseError | ValueError):
        return ExitCode.BAD_INPUT
    if isinstance(err, OSError):
        return ExitCode.BAD_INPUT
    return ExitCode.INTERNAL


if __name__ == "__main__":
    sys.exit(main())
