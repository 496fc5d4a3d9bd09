"""One entry for identical SuperKernels (docs/design.md §5 "Shared entries").

SuperKernels whose canonical keys (`skir.targets.entry_key`) are equal differ only in their
names and argument tables, so they share one entry source, one descriptor, one `build.sh` and
one object, named `sk_<hash>`: the first `HASH_HEX` hex digits of the SHA-256 of the key. A
SuperKernel identical to no other keeps its own name and products, byte for byte as before.

```
OUT/sk_3f9c0e21d7aa/sk_3f9c0e21d7aa_kernel.cpp   entry auto_gen_sk_3f9c0e21d7aa_kernel
OUT/sk_3f9c0e21d7aa/sk_3f9c0e21d7aa.json         its descriptor, with `shared_by`
OUT/sk_3f9c0e21d7aa/build.sh                     builds build/sk_3f9c0e21d7aa.o
```

The plan launches that object from each SuperKernel's slot with the SuperKernel's own argument
table (`shared_entry` names it); SK meta gives each sharing SuperKernel its `entry` and
`shared_entry` (the name and every SuperKernel that uses it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from xdsl.dialects.builtin import ModuleOp, StringAttr

from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.ascendc import SourceOp
from skir.dialects.model_lookup import kernel_table, models
from skir.dialects.superkernel import SuperKernelOp
from skir.errors import ExitCode, SkirError
from skir.names import entry_symbol, name_problem
from skir.targets.ascendc import emit_source
from skir.targets.build_script import build_script
from skir.targets.descriptor import descriptor, own_fields
from skir.targets.entry_key import EntryKey, entry_key, key_digest, normaliser
from skir.targets.origin_name import origin_op_name

HASH_HEX = 12
"""Hex digits of the key's SHA-256 in a shared entry's name (48 bits: two different keys of one
model agreeing in them is refused as an internal error, never merged)."""
PREFIX = "sk_"
"""A shared entry's name is `sk_<hash>`; no SuperKernel is named so (theirs end in `_sk<N>`)."""
PER_SUBTASK = ("stream", "seq", "send_event_list", "recv_event_list")
"""Descriptor fields of a sub-task that belong to one SuperKernel (where its member came from, the
cells its slots hold): a shared descriptor gives them per SuperKernel under `shared_by`."""


@dataclass(frozen=True)
class EntryGroup:
    """SuperKernels with one key: the entry they use and its products."""

    name: str
    """The entry's name: `sk_<hash>` when shared, else the SuperKernel's own."""
    members: tuple[tuple[SuperKernelOp, dict[str, KernelOp]], ...]
    """Each SuperKernel with its model's kernel table, in module order."""
    source: SourceOp
    """The first member's `ascendc.source`."""
    digest: str
    """The SHA-256 of the key's text, in hex (empty for an entry of one SuperKernel)."""

    @property
    def shared(self) -> bool:
        return len(self.members) > 1

    @property
    def entry(self) -> str:
        """The C symbol of the entry."""
        return entry_symbol(self.name)

    @property
    def member_names(self) -> list[str]:
        return [sk.sym_name.data for sk, _ in self.members]


@dataclass(frozen=True)
class SharedEntries:
    """Every emitted SuperKernel's entry group."""

    groups: tuple[EntryGroup, ...]
    by_sk: dict[str, EntryGroup]

    def shared_group(self, sk_name: str) -> EntryGroup | None:
        """The group of `sk_name` if it shares its entry, else None."""
        group = self.by_sk.get(sk_name)
        return group if group is not None and group.shared else None


def shared_of(result: Any) -> SharedEntries:
    """The shared entries of a compile result's module, computed once and kept on the result
    (`ResultData.shared`): the products, the summary and the emulation all read them."""
    if result.shared is None:
        result.shared = shared_entries(result.module)
    shared: SharedEntries = result.shared
    return shared


def shared_entries(module: ModuleOp) -> SharedEntries:
    """Group the SuperKernels of `module` that have an `ascendc.source` by their key (linear in
    the size of their programs and sources: keys compare by value; each shared one is printed
    once for its name)."""
    sources = {op.sym_name.data: op for op in module.ops if isinstance(op, SourceOp)}
    found: dict[EntryKey, list[tuple[SuperKernelOp, dict[str, KernelOp]]]] = {}
    names: set[str] = set()
    for model in models(module):
        kernels = kernel_table(model)
        for sk in model.body.block.ops:
            if isinstance(sk, SuperKernelOp):
                names.add(sk.sym_name.data)
                if sk.sym_name.data in sources:
                    found.setdefault(entry_key(sk, kernels, sources[sk.sym_name.data]), []).append((sk, kernels))
    groups: list[EntryGroup] = []
    short: dict[str, str] = {}
    for key, members in found.items():
        first = members[0][0].sym_name.data
        name, digest = first, ""
        if len(members) > 1:  # only a shared entry's key is printed, once
            digest = key_digest(key)
            name = PREFIX + digest[:HASH_HEX]
            if short.setdefault(name, digest) != digest or name in names or name_problem(name) is not None:
                raise SkirError(f"shared entries: the name {name} is taken (two keys agree in {HASH_HEX} hex digits, "
                                "or a SuperKernel is named so); please report it", ExitCode.INTERNAL)
        groups.append(EntryGroup(name, tuple(members), sources[first], digest))
    by_sk = {sk.sym_name.data: group for group in groups for sk, _ in group.members}
    return SharedEntries(tuple(groups), by_sk)


def entry_text(group: EntryGroup) -> str:
    """The C++ of the group's entry: the first member's, renamed and with each sub-task's comment
    naming its position (`(sub-task i)`) when shared; a header says where each member's sub-task
    `i` comes from in the original model."""
    if not group.shared:
        return emit_source(group.source)
    first = group.members[0][0]
    rename = normaliser(first, group.name)
    clone = group.source.clone()
    for op in clone.walk():
        for table in (op.properties, op.attributes):
            for key, value in list(table.items()):
                if isinstance(value, StringAttr) and rename(value.data) != value.data:
                    table[key] = StringAttr(rename(value.data))
    head, _, rest = emit_source(clone).partition("\n")
    lines = [head, f"// one entry for {len(group.members)} SuperKernels identical up to their argument tables "
                   "(docs/design.md section 5, shared entries); sub-task i of each is the i-th of:"]
    for sk, _ in group.members:
        where = ", ".join(f"@{sub.stream.root_reference.data} seq {sub.seq.data}" for sub in sk.subtasks())
        lines.append(f"//   {sk.sym_name.data}: {where}")
    return "\n".join(lines) + "\n" + rest


def group_descriptor(group: EntryGroup) -> dict[str, Any]:
    """The descriptor of the group's entry. Shared: the first member's with the entry's name,
    without the per-SuperKernel fields (`origin_op_name`; each sub-task's `PER_SUBTASK`), which
    `shared_by` gives for every member."""
    sk, kernels = group.members[0]
    data = descriptor(sk, kernels)
    if not group.shared:
        return data
    data["name"] = group.name
    data["entry"] = group.entry
    del data["origin_op_name"]
    for item in data["kernelList"]:
        for field in PER_SUBTASK:
            del item[field]
    shared_by = []
    for member, _ in group.members:
        shared_by.append({"name": member.sym_name.data, "origin_op_name": origin_op_name(member),
                          "kernelList": own_fields(member)})
    data["shared_by"] = shared_by
    return data


def group_build_script(group: EntryGroup) -> str:
    """`build.sh` of the group's entry: builds the one object `build/<name>.o`."""
    sk, kernels = group.members[0]
    if not group.shared:
        return build_script(sk, kernels, sk.sk_options())
    return build_script(sk, kernels, sk.sk_options(), name=group.name, users=group.member_names)


def annotate_meta(meta: dict[str, Any], shared: SharedEntries) -> None:
    """Give each SuperKernel of SK meta (the model's, then each sub-model's) that shares its entry
    the entry it launches (`entry`) and `shared_entry`: the entry's name and the SuperKernels that
    use it."""
    parts = [meta]
    while parts:
        part = parts.pop()
        parts.extend(part.get("submodels", []))
        for entry in part["superkernels"]:
            group = shared.shared_group(entry["name"])
            if group is not None:
                entry["entry"] = group.entry
                entry["shared_entry"] = {"name": group.name, "superkernels": group.member_names}
