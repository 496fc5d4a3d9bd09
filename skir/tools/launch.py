"""The console scripts (`sk-opt`, `sk-compile`, `sk-check-ranks`, `sk-hang`): `TOOL --version` is answered
before the tool's own modules (and xDSL's) load, so it costs a Python start-up and nothing more
(`tools/bench_startup.py` measures it); anything else runs the tool's `run`.

```sh
sk-opt --version      # sk-opt (skir 0.1.0) built on xdsl 0.74.0
```
"""

from __future__ import annotations

import importlib
import sys
from typing import NoReturn

from skir.tools.cli import exit_now, version_text


def _launch(tool: str, module: str) -> NoReturn:
    if sys.argv[1:] == ["--version"]:
        print(version_text(tool))
        exit_now(0)
    importlib.import_module(module).run()
    raise AssertionError(f"{module}.run returned")  # every tool's run ends the process


def sk_opt() -> NoReturn:
    """`sk-opt`: `skir.tools.sk_opt.run`."""
    _launch("sk-opt", "skir.tools.sk_opt")


def sk_compile() -> NoReturn:
    """`sk-compile`: `skir.tools.sk_compile.run`."""
    _launch("sk-compile", "skir.tools.sk_compile")


def sk_check_ranks() -> NoReturn:
    """`sk-check-ranks`: `skir.tools.sk_check_ranks.run`."""
    _launch("sk-check-ranks", "skir.tools.sk_check_ranks")


def sk_apply() -> NoReturn:
    """`sk-apply`: `skir.tools.sk_apply.run`."""
    _launch("sk-apply", "skir.tools.sk_apply")


def sk_hang() -> NoReturn:
    """`sk-hang`: `skir.tools.sk_hang.run`."""
    _launch("sk-hang", "skir.tools.sk_hang")
