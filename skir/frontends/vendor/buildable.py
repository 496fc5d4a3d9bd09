"""Whether the SuperKernels of a model read from the vendor's dumps can be built (`--build`).

A sub-task's arguments are copied, slot by slot, from the argument block of the task it
replaces (docs/design.md §3 "Argument table"); a kernel of a dump carries that block as
`argsSize / 8` opaque 64-bit slots. Where the dumps do not give the size (no `argsSize`, or a
size that is not a whole number of slots), the importer marks the kernel
(`skir.vendor_args_unknown`): its entry would call it with no arguments, so `--build` refuses
that SuperKernel instead of building an entry that cannot work.

```python
refuse_unbuildable(module)   # SkirError: argument --build (build=): SuperKernel m_sk0 calls ...
```
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp, StringAttr

from skir.dialects.aclgraph import ModelOp
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.superkernel import SuperKernelOp
from skir.dialects.vendor_provenance import ARGS_UNKNOWN_ATTR, NAME_ATTR
from skir.errors import SkirError
from skir.names import shown


def refuse_unbuildable(module: ModuleOp) -> None:
    """Raise `SkirError` (exit 1) naming the first SuperKernel that calls a kernel whose
    argument size the vendor's dumps do not give; nothing otherwise."""
    for model in module.ops:
        if not isinstance(model, ModelOp):
            continue
        unknown = {op.sym_name.data: op for op in model.body.block.ops
                   if isinstance(op, KernelOp) and ARGS_UNKNOWN_ATTR in op.attributes}
        if not unknown:
            continue
        for sk in model.body.block.ops:
            if not isinstance(sk, SuperKernelOp):
                continue
            for sub in sk.subtasks():
                kernel = unknown.get(sub.kernel.root_reference.data)
                if kernel is None:
                    continue
                vendor_name = kernel.attributes.get(NAME_ATTR)
                named = f" (funcName {shown(vendor_name.data)})" if isinstance(vendor_name, StringAttr) else ""
                raise SkirError(
                    f"argument --build (build=): SuperKernel {sk.sym_name.data} calls @{kernel.sym_name.data}"
                    f"{named} at @{sub.stream.root_reference.data} seq {sub.seq.data}, whose argument size the "
                    "vendor's dump does not give (no argsSize, or not a multiple of 8 bytes): its entry could "
                    "not pass that kernel's arguments")
