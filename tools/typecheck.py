"""Run the type checker (mypy, strict; configuration in pyproject.toml) as `make typecheck` does.

The torch front end (`skir/frontends/torch/`) is checked only where torch is installed; without
it the run leaves it out and says so (`make extras` installs torch, as CI does). Without
matplotlib the charts are checked against `Any` (pyproject.toml).

```sh
python tools/typecheck.py
```
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys

OPTIONAL = {"torch": "skir/frontends/torch/"}
"""An optional package -> the modules that need it."""


def main() -> int:
    command = [sys.executable, "-m", "mypy"]
    for package, path in OPTIONAL.items():
        if importlib.util.find_spec(package) is None:
            print(f"typecheck: {package} is not installed; {path} is not checked (make extras installs it)")
            command += ["--exclude", path]
    return subprocess.run(command, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
