"""The identity of a SuperKernel's entry: a canonical key, equal for two SuperKernels exactly when
their entries, descriptors and builds are the same up to their names and argument tables
(docs/design.md §5 "Shared entries").

The key is written generically, so an attribute added to any op later takes part without a
change here. It holds, in order:

- the `sk.kernel` op's properties and attributes (launch type, blocks, form, slots, options),
  without its name (`sym_name`), its scope label (`sk.label`) and the vendor's name for it;
- every program op: its name, every property and attribute, without the places in the original
  model that only say where a member came from (`seq`, `stream`) and the argument-table
  sources (`cell`: the slot it reads stays in the key), with its place in the program (`id`)
  and the places of the sub-tasks its tokens tie it to (`deps`: those a sub-task or a notify
  follows, those a lock wait holds back);
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
from collections.abc import Callable

from xdsl.dialects.builtin import ArrayAttr, IntAttr, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Data, Operation, ParametrizedAttribute

from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.ascendc import SourceOp
from skir.dialects.formation_attrs import LABEL_ATTR
from skir.dialects.superkernel import NotifyOp, SubtaskOp, SuperKernelOp, WaitLockOp
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


Field = tuple[str, str, Attribute | str]
"""(`p` for a property or `a` for an attribute, its name, its value or normalised string)."""
EntryKey = tuple[tuple[str, tuple[Field, ...]], ...]
"""The key: per item (the `sk.kernel`, each program op, each member kernel, the options, each op
of the source) its name and fields. Attributes compare and hash by value, so grouping by keys
prints nothing; only a group's digest renders its key as text (`key_text`)."""


def _with_place(op: Operation, place: dict[Operation, int]) -> dict[str, Attribute]:
    """A program op's properties with its place (`id`) and its dependencies' places (`deps`)."""
    props: dict[str, Attribute] = {**op.properties, "id": IntAttr(place[op])}
    if isinstance(op, WaitLockOp):
        deps = sorted(place[use.operation] for use in op.token.uses)
    elif isinstance(op, SubtaskOp | NotifyOp):
        deps = [place[d] for d in op.dep_subtasks()]
    else:
        deps = []
    if deps:
        props["deps"] = ArrayAttr(IntAttr(d) for d in deps)
    return props


def _fields(op: Operation, skip: frozenset[str], text: Callable[[str], str] | None = None,
            props: dict[str, Attribute] | None = None) -> tuple[Field, ...]:
    """Every property (`props` if given, else `op`'s) and attribute of `op` not in `skip`, in name
    order; strings through `text` when given."""
    out: list[Field] = []
    for where, table in (("p", op.properties if props is None else props), ("a", op.attributes)):
        for key in sorted(table):
            if key in skip:
                continue
            value: Attribute = table[key]
            out.append((where, key, text(value.data) if text is not None and type(value) is StringAttr else value))
    return tuple(out)


def entry_key(sk: SuperKernelOp, kernels: dict[str, KernelOp], source: SourceOp) -> EntryKey:
    """The canonical key of `sk`'s entry (see the module docstring)."""
    items: list[tuple[str, tuple[Field, ...]]] = [("sk.kernel", _fields(sk, OWN_NAME_FIELDS))]
    members: dict[str, KernelOp] = {}
    place = sk.positions()
    for op in sk.body.walk():
        items.append((op.name, _fields(op, LOCATION_PROPERTIES, props=_with_place(op, place))))
        for value in op.properties.values():
            if isinstance(value, SymbolRefAttr) and value.root_reference.data in kernels:
                members.setdefault(value.root_reference.data, kernels[value.root_reference.data])
    items += [("member", _fields(members[name], frozenset())) for name in sorted(members)]
    items.append(("options", (("o", "effective", repr(sk.sk_options())),)))
    text = normaliser(sk, PLACEHOLDER)
    items += [(op.name, _fields(op, frozenset(), text)) for op in source.walk()]
    return tuple(items)


def _render(value: Attribute | str) -> str:
    """A value as the key's text: a string quoted, an attribute as its name and parameters (its
    data's `repr` for a data attribute), without xDSL's printer."""
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, ParametrizedAttribute):
        return f"{value.name}<{','.join(_render(p) for p in value.parameters)}>"
    if isinstance(value, Data):
        data = value.data
        shown = f"[{','.join(_render(a) for a in data)}]" if isinstance(data, tuple) else repr(data)
        return f"{value.name}<{shown}>"
    return str(value)


def key_text(key: EntryKey) -> str:
    """The key as text, one line per item; stable for one version of skir and xDSL."""
    return "\n".join(name + "".join(f" {where}:{field}={_render(value)}" for where, field, value in fields)
                     for name, fields in key)


def key_digest(key: EntryKey) -> str:
    """The SHA-256 of a key's text, in hex."""
    return hashlib.sha256(key_text(key).encode("utf-8", "surrogatepass")).hexdigest()
