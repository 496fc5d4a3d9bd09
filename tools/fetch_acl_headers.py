#!/usr/bin/env python3
"""Fetch the ACL headers from the torch-npu wheel into DIR/acl/ (skir.runtime.acl_headers).

The CPU runtime model and the header-layout probe are built against them; `make test` runs this
first. Nothing is downloaded when DIR/acl/acl_rt.h is there already.

```sh
python tools/fetch_acl_headers.py .acl
```
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dest", type=Path, help="the folder to unpack acl/ into")
    args = parser.parse_args()
    from skir.errors import SkirError
    from skir.runtime.acl_headers import TORCH_NPU, fetch

    try:
        fetch(args.dest)
    except SkirError as err:
        print(f"fetch_acl_headers: error: {err}", file=sys.stderr)
        return 1
    print(f"fetch_acl_headers: {args.dest / 'acl'} (from {TORCH_NPU})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
