"""The identity of a SuperKernel's entry: a canonical key, equal for two SuperKernels exactly when
their entries, descriptors and builds are the same up to their names and argument tables
(docs/design.md §5 "Shared entries").

The key is written generically, so an attribute added to any op later takes part without a
change here. It holds, in order:

- the `sk.kernel` op's properties and attributes (launch type, blocks, form, slots, options),
  without its name (`sym_name`), its scope label (`sk.label`) and the vendor's name for it;
- every program op: its name, every property and attribute, without the places in the original
  model that only say where a member came from (`seq`, `stream`) and the argument-table
  sources (`cell`: the slot it reads stays in the key);
- the declaration of every member kernel a program op names (every property and attribute:
  its symbol, type, parameters, batch and early-start capabilities, ...);
- the effective options (`SkOptions`, scope options merged);
- every op of the `ascendc.source` with every property and attribute, each string normalised:
  the SuperKernel's own name (`sym_name`, the `auto_gen_<name>_kernel...` symbols) becomes a
  placeholder and a `(seq N)` in a comment becomes `(sub-task i)`, i the sub-task's position
  in program order. Anything else the lowering derived from the SuperKernel alone (its
  progress id with `debug-progress=1`, say) stays, so such SuperKernels never share.

Two SuperKernels with equal keys therefore print the same entry once their names and comments
are normalised (`normalise`), and read the same argument slots for the same purposes; what
each slot holds (which task's argument, which cell) is its own argument table.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable

from xdsl.dialects.builtin import StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Operation

from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.ascendc import SourceOp
from skir.dialects.formation_attrs import LABEL_ATTR
from skir.dialects.superkernel import SuperKernelOp
from skir.dialects.vendor_provenance import NAME_ATTR
from skir.names import entry_symbol

LOCATION_PROPERTIES = frozenset({"seq", "stream", "cell"})
"""Properties of a program op that say where a member came from in the original model or which
cell an argument slot holds: not part of the entry's identity."""
OWN_NAME_FIELDS = frozenset({"sym_name", LABEL_ATTR, NAME_ATTR})
"""Fields of the `sk.kernel` op that name one SuperKernel: not part of the identity."""
PLACEHOLDER = "@sk"
"""What the SuperKernel's own name becomes in the key's strings (no name holds `@`)."""

_SEQ_NOTE = re.compile(r"\(seq (\d+)\)")


def normaliser(sk: SuperKernelOp, name: str) -> Callable[[str], str]:
    """A function mapping each string of `sk`'s `ascendc.source` to the one its entry holds when
    it is named `name`: the own name and entry symbols renamed, `(seq N)` -> `(sub-task i)`."""
    own = sk.sym_name.data
    symbol, renamed = entry_symbol(own), entry_symbol(name)
    positions = {sub.seq.data: i for i, sub in enumerate(sk.subtasks())}

    def note(match: re.Match[str]) -> str:
        seq = int(match.group(1))
        return f"(sub-task {positions[seq]})" if seq in positions else match.group(0)

    def normalise(text: str) -> str:
        if text == own:
            return name
        if text.startswith(symbol):
            text = renamed + text[len(symbol):]
        return _SEQ_NOTE.sub(note, text) if "(seq " in text else text

    return normalise


def _fields(op: Operation, skip: frozenset[str], text: Callable[[str], str] | None = None) -> Iterable[str]:
    """`name=value` of every property and attribute of `op` not in `skip`, in name order;
    strings through `text` when given."""
    for where, table in (("p", op.properties), ("a", op.attributes)):
        for key in sorted(table):
            if key in skip:
                continue
            value: Attribute = table[key]
            if text is not None and isinstance(value, StringAttr):
                yield f"{where}:{key}={text(value.data)!r}"
            else:
                yield f"{where}:{key}={value}"


def entry_key(sk: SuperKernelOp, kernels: dict[str, KernelOp], source: SourceOp) -> str:
    """The canonical key of `sk`'s entry (see the module docstring), one line per op."""
    lines = ["sk.kernel " + " ".join(_fields(sk, OWN_NAME_FIELDS))]
    members: dict[str, KernelOp] = {}
    for op in sk.body.walk():
        lines.append(op.name + " " + " ".join(_fields(op, LOCATION_PROPERTIES)))
        for value in op.properties.values():
            if isinstance(value, SymbolRefAttr) and value.root_reference.data in kernels:
                members.setdefault(value.root_reference.data, kernels[value.root_reference.data])
    for name in sorted(members):
        lines.append("member " + " ".join(_fields(members[name], frozenset())))
    lines.append(f"options {sk.sk_options()!r}")
    text = normaliser(sk, PLACEHOLDER)
    for op in source.walk():
        lines.append(op.name + " " + " ".join(_fields(op, frozenset(), text)))
    return "\n".join(lines)


def key_digest(key: str) -> str:
    """The SHA-256 of a key, in hex."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
