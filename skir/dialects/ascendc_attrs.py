"""Attributes of the `ascendc` dialect: core types, block-index kinds, pipes."""

from __future__ import annotations

from enum import auto
from functools import lru_cache

from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.utils.str_enum import StrEnum

from skir.dialects.hardware import CoreType, Pipe
from skir.dialects.parent_trait import HasParentNamed


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


_ENTRY_PARENTS = HasParentNamed(("ascendc.entry", "ascendc.core_function", "ascendc.if_core", "ascendc.if_block",
                                 "ascendc.if_idle"))
_SOURCE_PARENT = HasParentNamed(("ascendc.source",))


def in_entry() -> tuple[HasParentNamed]:
    """The parents a statement of an entry may have."""
    return (_ENTRY_PARENTS,)


def in_source() -> tuple[HasParentNamed]:
    """The parent of a source-level op."""
    return (_SOURCE_PARENT,)
