"""Golden digests of what `sk-compile` writes for every shipped example and suite model.

A refactoring that does not change the contract must leave the products byte-identical: the
entry sources, descriptors, build scripts, plan, SK meta and fail logs. `test_outputs_unchanged`
compiles every case below and compares the SHA-256 of each product with the recorded one.
Left out: `model.rewritten.mlir` (the IR text, which an IR change may legitimately alter) and
`skir_manifest.json` (the provenance of the call).

Record the digests again only for a change that means to alter the products:

    python -m skir.testing.golden --write test/unit/golden_outputs.json
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIPPED = frozenset({"model.rewritten.mlir", "skir_manifest.json"})
"""Products whose bytes are not part of the compared contract."""

_OPTION_SETS = ("", "stream-fusion=0", "early-start=1", "split-mode=2", "sync-mode=data",
                "preload-code=max:debug-sync-all=1", "debug-dcci-all=1:feed-sync-all=1", "placement=auto")
"""Option sets every shipped top-level example is compiled with."""


def cases() -> list[tuple[str, str]]:
    """(model path relative to the repository, options) for every golden case."""
    out: list[tuple[str, str]] = []
    for path in sorted((ROOT / "examples").glob("*.json")) + sorted((ROOT / "examples").glob("*.mlir")):
        out += [(str(path.relative_to(ROOT)), options) for options in _OPTION_SETS]
    out.append(("examples/vendor_dump", ""))
    for path in sorted((ROOT / "examples" / "torch").glob("*.json")):
        out += [(str(path.relative_to(ROOT)), ""), (str(path.relative_to(ROOT)), "early-start=1")]
    for path in sorted((ROOT / "test" / "unit" / "models").iterdir()):
        out += [(str(path.relative_to(ROOT)), ""), (str(path.relative_to(ROOT)), "stream-fusion=0")]
    scenarios = ROOT / "test" / "unit" / "vendor_scenarios"
    expected = json.loads((scenarios / "expected.json").read_text())
    for name in sorted(expected):
        out.append((str((scenarios / f"{name}.json").relative_to(ROOT)), expected[name]["options"]))
    out += [(f"random:{seed}", _random_options(seed)) for seed in range(RANDOM_MODELS)]
    return out


RANDOM_MODELS = 60
"""Random models (`skir.testing.random_models`, seeds 0 to 59, every feature on) in the cases."""


def _random_options(seed: int) -> str:
    from skir.testing.option_space import draw_options

    return draw_options(random.Random(f"options {seed}"), gain=False)


def _random_model(seed: int, folder: Path) -> Path:
    from skir.testing.random_models import random_model

    rng = random.Random(seed)
    data = random_model(rng, spare_slots=seed % 2 == 0, with_comm=seed % 3 == 0, with_updates=seed % 4 == 1,
                        with_conds=seed % 5 == 2, with_active=seed % 6 == 3)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"random_{seed}.json"
    path.write_text(json.dumps(data))
    return path


def digests(out_dir: Path) -> dict[str, str]:
    """SHA-256 of every compared product under `out_dir`, by relative path."""
    return {str(p.relative_to(out_dir)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out_dir.rglob("*")) if p.is_file() and p.name not in SKIPPED}


def compile_case(model: str, options: str, out_dir: Path) -> dict[str, str]:
    """Compile one case with `sk-compile` (in this process) and digest its products (or its refusal)."""
    from skir.tools.sk_compile import main

    path = _random_model(int(model[7:]), out_dir.parent / "models") if model.startswith("random:") else ROOT / model
    argv = [str(path), "-o", str(out_dir), "-q"] + (["--options", options] if options else [])
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
        code = main(argv)
    if code != 0:  # a refusal is a product too: its exit code and message
        return {"<refused>": f"exit {code}: {err.getvalue().strip()}"}
    return digests(out_dir)


def case_key(model: str, options: str) -> str:
    return f"{model} [{options}]"


def record() -> dict[str, dict[str, str]]:
    """The digests of every case."""
    table: dict[str, dict[str, str]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for i, (model, options) in enumerate(cases()):
            table[case_key(model, options)] = compile_case(model, options, Path(tmp) / str(i))
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Record the golden digests of sk-compile's products.")
    parser.add_argument("--write", metavar="FILE", required=True, help="the JSON file to write")
    args = parser.parse_args(argv)
    Path(args.write).write_text(json.dumps(record(), indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
