"""Where the ACL headers come from: the torch-npu wheel on the package registry, never skir's tree.

The headers (`acl/acl_rt.h`, `acl/acl_base_rt.h`, ...) are the vendor's, under the CANN Open
Software License: skir uses them at build and test time and commits none. `fetch(dest)` downloads
torch-npu (`TORCH_NPU`, no dependencies, about 43 MB) and unpacks `torch_npu/include/acl/` into
`dest/acl/`; `include_dir()` finds them for a build: `$SKIR_ACL_INCLUDE`, else a CANN install's
`$ASCEND_HOME_PATH/include`.

```sh
python tools/fetch_acl_headers.py .acl        # then SKIR_ACL_INCLUDE=.acl (make does both)
```
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from skir.errors import MissingToolError, SkirError

TORCH_NPU = "torch-npu==2.14.0"
"""The wheel whose headers the CPU runtime model and the layout probe are built against."""
PREFIX = "torch_npu/include/acl/"


def include_dir() -> Path:
    """The folder holding `acl/acl_rt.h`: `$SKIR_ACL_INCLUDE`, else `$ASCEND_HOME_PATH/include`."""
    for variable, sub in (("SKIR_ACL_INCLUDE", ""), ("ASCEND_HOME_PATH", "include")):
        given = os.environ.get(variable)
        if given:
            folder = Path(given) / sub if sub else Path(given)
            if (folder / "acl" / "acl_rt.h").is_file():
                return folder
            raise MissingToolError(f"${variable}: {folder} holds no acl/acl_rt.h")
    raise MissingToolError("the ACL headers are not here: fetch them with 'python tools/fetch_acl_headers.py DIR' "
                           f"(from {TORCH_NPU}) and set SKIR_ACL_INCLUDE=DIR, or set ASCEND_HOME_PATH to a CANN "
                           "install")


def fetch(dest: Path) -> Path:
    """Download the torch-npu wheel and unpack its `acl/` headers into `dest/acl/`; returns `dest`.
    An existing `dest/acl/acl_rt.h` is kept (nothing is downloaded)."""
    dest = Path(dest)
    if (dest / "acl" / "acl_rt.h").is_file():
        return dest
    with tempfile.TemporaryDirectory(prefix="skir-acl-") as tmp:
        done = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", tmp, TORCH_NPU],
                              capture_output=True, text=True, check=False)
        wheels = sorted(Path(tmp).glob("torch_npu-*.whl"))
        if done.returncode != 0 or not wheels:
            last = (done.stderr.strip().splitlines() or ["no wheel"])[-1]
            raise SkirError(f"cannot download {TORCH_NPU}: {last}")
        with zipfile.ZipFile(wheels[0]) as wheel:
            for member in wheel.namelist():
                if member.startswith(PREFIX) and not member.endswith("/"):
                    target = dest / "acl" / member[len(PREFIX):]
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(wheel.read(member))
    if not (dest / "acl" / "acl_rt.h").is_file():
        raise SkirError(f"{TORCH_NPU} holds no {PREFIX}acl_rt.h")
    return dest
