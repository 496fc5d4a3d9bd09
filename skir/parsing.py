"""Parsing `.mlir` text while remembering where each op started, for located diagnostics.

xDSL does not attach source locations to ops; `LocatingParser` records the start offset
of every op it parses in a `SourceMap`, so that a verifier error naming an op can be
reported as `file:line:col: error: ...`.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Input, Span

from skir.errors import TaskVerifyException
from skir.names import one_line


class SourceMap:
    """Op -> (input, start offset, line offset) for the ops of the parsed chunks."""

    def __init__(self) -> None:
        self._where: dict[Operation, tuple[Input, int, int]] = {}

    def record(self, op: Operation, source: Input, offset: int, line_offset: int) -> None:
        self._where[op] = (source, offset, line_offset)

    def location(self, op: Operation | None) -> str | None:
        """`file:line:col` of `op` (or of its nearest parsed ancestor), if it was parsed."""
        while op is not None:
            where = self._where.get(op)
            if where is not None:
                source, offset, line_offset = where
                return str(Span(offset, offset, source, line_offset).get_location())
            op = op.parent_op()
        return None


class LocatingParser(Parser):
    """A `Parser` that records the start of every op in a `SourceMap`."""

    def __init__(
        self, ctx: Context, text: str, name: str, source_map: SourceMap, line_offset: int = 0
    ) -> None:
        super().__init__(ctx, text, name)
        self._source_map = source_map
        self._line_offset = line_offset

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        try:
            op = super().parse_operation()
        except VerifyException as err:  # an attribute that does not verify while the op is built
            if isinstance(err, ParseError):
                raise
            raise ParseError(Span(start, self._current_token.span.start, self.lexer.input, self._line_offset),
                             one_line(str(err).split("\n")[0])) from None
        self._source_map.record(op, self.lexer.input, start, self._line_offset)
        return op


def verify_located(module: Operation) -> None:
    """`module.verify()`, but a failure of xDSL's own checks (a trait, a region's blocks) is
    re-raised as a `TaskVerifyException` naming the failing op, so that drivers can add its
    `file:line:col`. Finding the op costs one more walk, only on failure. The whole-model rules
    are installed first (an explicit verification step)."""
    from skir.analysis.proof.model_check import install

    install()
    try:
        module.verify()
    except TaskVerifyException:
        raise
    except VerifyException as err:
        for op in module.walk(region_first=True):
            try:
                op.verify(verify_nested_ops=False)
            except VerifyException as inner:
                message = str(inner).split("\n")[0].removeprefix("Operation does not verify: ")
                raise TaskVerifyException(op, message) from None
        raise err
