"""The arguments of `skir.compile`, checked before anything runs (docs/design.md §1).

Every bad argument is a one-line `SkirError` (exit 1) naming the argument as both the API
and `sk-compile` spell it, so that no type error or `OSError` from deep inside surfaces as
an internal error:

```python
check_arguments({"model": 42, "options": ""})
# SkirError: argument MODEL (model=): expected a path, model text, a capture dict or a module, got int
```
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from skir.errors import SkirError, SkirWarning
from skir.names import shown
from skir.options import SkOptions, parse_options

OPTIONS_WHERE = "argument --options (options=)"
"""Where a bad `options` string came from, in every message about it."""

_NAMES = {
    "model": "MODEL (model=)", "options": "--options (options=)", "verify_each": "--verify-each (verify_each=)",
    "dump_ir": "--dump-ir (dump_ir=)", "costs": "--costs (costs=)", "cores": "--cores (cores=)",
    "profiles": "--profile (profiles=)",
    # the follow-ups of the result
    "out_dir": "-o (write(out_dir))", "emulate": "--emulate (write(emulate=))", "build": "--build (write(build=))",
    "cache": "--no-cache (cache=)", "vendor": "--vendor (compare_with_vendor(vendor))",
    "calibrate": "--calibrate (calibrate(off, on))",
}


def _is_path(value: object) -> bool:
    return isinstance(value, str | os.PathLike)


def _bad(name: str, expected: str, value: object) -> SkirError:
    return SkirError(f"argument {_NAMES[name]}: expected {expected}, got {type(value).__name__}")


def check_arguments(args: Mapping[str, Any]) -> SkOptions:
    """Check the arguments of `skir.compile` or of a follow-up of its result (`args`: name ->
    value) by type and, where a path must name a folder that may exist, by what is there.
    Returns the `options` string parsed (the one parse of the API's options; its warnings said
    here, in the caller's terms), or the defaults when `args` has no options."""
    from xdsl.dialects.builtin import ModuleOp

    model = args.get("model")
    if "model" in args and not (isinstance(model, ModuleOp | dict) or _is_path(model)):
        raise _bad("model", "a path, model text, a capture dict or a module", model)
    for name in ("emulate", "verify_each", "cache"):
        if name in args and not isinstance(args[name], bool):
            raise _bad(name, "True or False", args[name])
    options = args.get("options", "")
    if not isinstance(options, str):
        raise _bad("options", "an option string ('key=value:...')", options)
    typed, messages = parse_options(options, OPTIONS_WHERE) if "options" in args else (SkOptions(), [])
    for message in messages:
        warnings.warn(message, SkirWarning, stacklevel=3)
    for name in ("out_dir", "dump_ir", "build", "vendor"):
        value = args.get(name)
        if (value is not None or (name == "vendor" and name in args)) and not _is_path(value):
            raise _bad(name, "a path", value)
    costs = args.get("costs")
    if costs is not None and not (_is_path(costs) or isinstance(costs, dict)):
        raise _bad("costs", "a path or a dict of cost parameters", costs)
    cores = args.get("cores")
    if cores is not None and not (isinstance(cores, tuple | list) and len(cores) == 2
                                  and all(isinstance(c, int) and not isinstance(c, bool) and c > 0 for c in cores)):
        raise SkirError(f"argument {_NAMES['cores']}: expected two positive core counts (AIC, AIV), got "
                        f"{shown(repr(cores))}")
    profiles = args.get("profiles")
    if profiles is not None and not (isinstance(profiles, list | tuple) and all(_is_path(p) for p in profiles)):
        raise _bad("profiles", "a list of paths", profiles)
    calibrate = args.get("calibrate")
    if calibrate is not None and not (isinstance(calibrate, list | tuple) and len(calibrate) == 2
                                      and all(_is_path(p) for p in calibrate)):
        raise _bad("calibrate", "two paths (the SuperKernel-off and -on profiles)", calibrate)
    dump_ir = args.get("dump_ir")
    if dump_ir is not None and Path(dump_ir).exists() and not Path(dump_ir).is_dir():
        raise SkirError(f"argument {_NAMES['dump_ir']}: {dump_ir}: exists and is not a folder; give a folder "
                        "(it is created)")
    return typed
