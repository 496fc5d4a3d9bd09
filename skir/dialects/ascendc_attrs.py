"""Attributes of the `ascendc` dialect: core types, block-index kinds, pipes."""

from __future__ import annotations

from enum import auto
from functools import lru_cache

from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.traits import HasParent
from xdsl.utils.str_enum import StrEnum

from skir.dialects.hardware import CoreType, Pipe


class BlockIndex(StrEnum):
    """`block`: `get_block_idx()` (AI-core index); `logical`: `AscendC::GetBlockIdx()` (AIV index)."""

    BLOCK = auto()
    LOGICAL = auto()


@irdl_attr_definition
class CoreTypeAttr(EnumAttribute[CoreType], SpacedOpaqueSyntaxAttribute):
    name = "ascendc.core_type"


@irdl_attr_definition
class BlockIndexAttr(EnumAttribute[BlockIndex], SpacedOpaqueSyntaxAttribute):
    name = "ascendc.block_index"


@irdl_attr_definition
class PipeAttr(EnumAttribute[Pipe], SpacedOpaqueSyntaxAttribute):
    name = "ascendc.pipe"


@lru_cache(maxsize=4096)
def i64_attr(value: int) -> IntegerAttr:
    return IntegerAttr(value, i64)


CORES = {core: CoreTypeAttr(core) for core in CoreType}
INDEXES = {index: BlockIndexAttr(index) for index in BlockIndex}
PIPES = {pipe: PipeAttr(pipe) for pipe in Pipe}


def in_entry() -> tuple[HasParent]:
    """The parents a statement of an entry may have (lazy: the structure ops import the others)."""
    from skir.dialects.ascendc import CoreFunctionOp, EntryOp, IfBlockOp, IfCoreOp, IfIdleOp

    return (HasParent(EntryOp, CoreFunctionOp, IfCoreOp, IfBlockOp, IfIdleOp),)


def in_source() -> tuple[HasParent]:
    """The parent of a source-level op."""
    from skir.dialects.ascendc import SourceOp

    return (HasParent(SourceOp),)
