"""The memory layout of a rewrite plan: every cell and workspace on lines of its own.

A core's `dcci` cleans or invalidates a whole 64-byte line, so two cores that write different
words of one line clobber each other (docs/design.md §5 "Memory layout"). The plan states, for
each cell and workspace, the bytes to reserve (a multiple of 64, at least 64) and the alignment
(64); `read_regions` reads them, and `check_addresses` checks where a runtime put them:

```python
regions = read_regions(reader, plan, "")
# cells by name, workspaces as "<superkernel>:<slot>", each (address, bytes reserved)
check_addresses(reader, regions, {"e1_cell": (0x1000, 64), "m_sk0:8": (0x1040, 2048)})
```

A region not 64-aligned, smaller than the plan asks, or touching a line of another region is
refused with one line naming it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from skir.dialects.hardware import GM_LINE_BYTES
from skir.json_reader import JsonReader

Addresses = Mapping[str, tuple[int, int]]
"""Where the runtime put each region: its key (a cell's name, a workspace's
`<superkernel>:<slot>`) → (byte address, bytes reserved)."""


@dataclass(frozen=True)
class Region:
    """A cell or workspace of the plan: its key, the bytes it needs and its JSON path."""

    key: str
    bytes: int
    path: str
    what: str


def _layout(r: JsonReader, entry: dict[str, Any], path: str) -> int:
    size = r.int_(entry["bytes"], f"{path}.bytes", GM_LINE_BYTES, 1 << 40)
    if size % GM_LINE_BYTES:
        r.fail(f"{path}.bytes", f"{size} is not a whole number of {GM_LINE_BYTES}-byte lines")
    if r.int_(entry["align"], f"{path}.align", 0, 1 << 40) != GM_LINE_BYTES:
        r.fail(f"{path}.align", f"expected {GM_LINE_BYTES}: every cell and workspace starts a line")
    return size


def read_cells(r: JsonReader, value: Any, prefix: str) -> list[Region]:
    """The plan's `cells`: objects `{"name", "bytes", "align"}` (plan version 2)."""
    found = []
    for i, cell in enumerate(r.list_(value, f"{prefix}cells")):
        path = f"{prefix}cells[{i}]"
        r.obj(cell, path, ("name", "bytes", "align"), ("name", "bytes", "align"))
        name = r.name(cell["name"], f"{path}.name")
        found.append(Region(name, _layout(r, cell, path), path, f"cell '{name}'"))
    return found


def read_workspaces(r: JsonReader, value: Any, prefix: str) -> list[Region]:
    """The plan's `workspaces`, keyed `<superkernel>:<slot>`."""
    found = []
    for i, ws in enumerate(r.list_(value, f"{prefix}workspaces")):
        path = f"{prefix}workspaces[{i}]"
        r.obj(ws, path, ("superkernel", "slot", "use", "bytes", "align"),
              ("superkernel", "slot", "use", "bytes", "align"))
        key = f"{r.name(ws['superkernel'], f'{path}.superkernel')}:{r.int_(ws['slot'], f'{path}.slot', 1, 1 << 31)}"
        r.enum(ws["use"], f"{path}.use", {"workspace": 0, "profiling": 0}, "a workspace use")
        found.append(Region(key, _layout(r, ws, path), path, f"workspace {key} ({ws['use']})"))
    return found


def check_addresses(r: JsonReader, regions: list[Region], addresses: Addresses) -> None:
    """Every region is placed, 64-aligned, at least as large as asked, and owns its lines."""
    placed: list[tuple[int, int, Region]] = []
    for region in regions:
        if region.key not in addresses:
            r.fail(region.path, f"the layout gives no address for {region.what}")
        given = addresses[region.key]
        if not (isinstance(given, tuple) and len(given) == 2 and all(type(v) is int for v in given)):
            r.fail(region.path, f"the layout gives {given!r} for {region.what}; expected (address, bytes)")
        address, size = given
        if address < 0 or address % GM_LINE_BYTES:
            r.fail(region.path, f"{region.what} is at {address:#x}, not a multiple of {GM_LINE_BYTES}: "
                                f"place it on a line of its own")
        if size < region.bytes:
            r.fail(region.path, f"{region.what} gets {size} bytes; the plan asks for {region.bytes}")
        placed.append((address, address + size, region))
    placed.sort(key=lambda p: p[0])
    for (lo, hi, first), (lo2, _, second) in pairwise(placed):
        if lo2 // GM_LINE_BYTES <= (hi - 1) // GM_LINE_BYTES:
            r.fail(second.path, f"{second.what} at {lo2:#x} shares the {GM_LINE_BYTES}-byte line "
                                f"{lo2 // GM_LINE_BYTES * GM_LINE_BYTES:#x} with {first.what} at {lo:#x}")
    known = {region.key for region in regions}
    unknown = sorted(set(addresses) - known)
    if unknown:
        r.fail("", f"the layout places '{unknown[0]}', which is no cell or workspace of the plan")
