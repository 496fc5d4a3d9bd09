"""Run a command; succeed only if it exits with the expected code (lit helper).

Usage in a RUN line: `%expect-exit 1 sk-opt bad.mlir 2>&1 | filecheck %s`. The command's
stdout and stderr pass through unchanged.
"""

import subprocess
import sys

if __name__ == "__main__":
    expected = int(sys.argv[1])
    code = subprocess.call(sys.argv[2:])
    if code != expected:
        print(f"expect-exit: '{' '.join(sys.argv[2:])}' exited {code}, expected {expected}", file=sys.stderr)
        sys.exit(1)
