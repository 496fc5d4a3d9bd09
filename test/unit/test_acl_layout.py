"""The ctypes layouts of `skir.runtime.acl_types` are the headers' own: a C probe compiled against
torch-npu's `acl/acl_rt.h` prints `sizeof` and `offsetof` of every struct and member the applier
passes, and each must equal what ctypes computes. The headers come from the wheel (`make
acl-headers`, `SKIR_ACL_INCLUDE`), never from the tree."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from skir.runtime.acl_types import LAYOUT, SIGNATURES, layout_of

ACL = os.environ.get("SKIR_ACL_INCLUDE")
needs_headers = pytest.mark.skipif(not ACL or shutil.which("gcc") is None,
                                   reason="needs the ACL headers (make acl-headers sets SKIR_ACL_INCLUDE) and gcc")


def _probe(tmp_path: Path) -> dict[str, tuple[int, dict[str, int]]]:
    lines = ["#include <stdio.h>", "#include <stddef.h>", '#include "acl/acl_rt.h"', "int main(void) {"]
    for struct, (_, members) in LAYOUT.items():
        lines.append(f'  printf("{struct} size %zu\\n", sizeof({struct}));')
        for member in members:
            lines.append(f'  printf("{struct} {member} %zu\\n", offsetof({struct}, {member}));')
    lines += ["  return 0;", "}"]
    source = tmp_path / "probe.c"
    source.write_text("\n".join(lines) + "\n")
    subprocess.run(["gcc", f"-I{ACL}", str(source), "-o", str(tmp_path / "probe")], check=True, capture_output=True)
    out: dict[str, tuple[int, dict[str, int]]] = {}
    printed = subprocess.run([str(tmp_path / "probe")], check=True, capture_output=True, text=True).stdout
    for line in printed.splitlines():
        struct, member, value = line.split()
        size, offsets = out.get(struct, (0, {}))
        out[struct] = (int(value), offsets) if member == "size" else (size, {**offsets, member: int(value)})
    return out


@needs_headers
def test_every_struct_the_applier_passes_has_the_headers_layout(tmp_path: Path) -> None:
    probed = _probe(tmp_path)
    assert set(probed) == set(LAYOUT)
    for struct, (ctype, members) in LAYOUT.items():
        assert layout_of(ctype, members) == probed[struct], struct
    # a hand-derived anchor, as the header's declaration reads: type, 3 words, an 8-byte handle
    assert probed["aclmdlRITaskParams"][1]["taskGrp"] == 16 and probed["aclmdlRITaskParams"][0] == 200


@needs_headers
def test_every_call_the_applier_makes_is_declared_so(tmp_path: Path) -> None:
    """Each call of `SIGNATURES` is declared in `acl_rt.h` with as many parameters as ctypes passes
    (the CPU model, compiled against the same header, checks the types: skir.runtime.cpu_model)."""
    header = (Path(ACL or "") / "acl" / "acl_rt.h").read_text()
    for name, argtypes in SIGNATURES.items():
        start = header.index(f" {name}(")
        params = header[start:header.index(")", start)].split("(", 1)[1]
        assert len([p for p in params.split(",") if p.strip()]) == len(argtypes), name
