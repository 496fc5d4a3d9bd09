"""Every pass's lit folder holds its refusals (CONTRIBUTING.md, "Recipe: a new pass", step 4):
`test/filecheck/passes/<pass>/invalid.mlir`, run with `--verify-diagnostics`, one refusal a
`--split-input-file` chunk, each with an expected-error check."""

from __future__ import annotations

import re
from pathlib import Path

PASSES = Path(__file__).resolve().parents[2] / "test" / "filecheck" / "passes"
_ERROR_CHECK = re.compile(r"^// CHECK(-NEXT|-SAME)?: .*error: ", re.MULTILINE)


def _folders() -> list[Path]:
    """The pass folders (not lit's `Output` folder, which a lit run leaves beside them)."""
    return sorted(path for path in PASSES.iterdir() if path.is_dir() and path.name != "Output")


def test_every_pass_folder_has_an_invalid_file_run_with_verify_diagnostics() -> None:
    assert _folders(), f"no pass folder under {PASSES}"
    problems = []
    for folder in _folders():
        invalid = folder / "invalid.mlir"
        if not invalid.is_file():
            problems.append(f"{folder.name}: no invalid.mlir (write the pass's refusals there)")
            continue
        runs = [line for line in invalid.read_text(encoding="utf-8").splitlines() if line.startswith("// RUN:")]
        if not any("--verify-diagnostics" in run and "--split-input-file" in run for run in runs):
            problems.append(f"{folder.name}/invalid.mlir: no RUN line with --split-input-file --verify-diagnostics")
    assert not problems, "\n".join(problems)


def test_every_chunk_of_an_invalid_file_checks_an_error() -> None:
    problems = []
    for folder in _folders():
        invalid = folder / "invalid.mlir"
        if not invalid.is_file():
            continue
        for i, chunk in enumerate(invalid.read_text(encoding="utf-8").split("// -----")):
            if not _ERROR_CHECK.search(chunk):
                problems.append(f"{folder.name}/invalid.mlir: chunk {i} has no '// CHECK: error: ...' line")
    assert not problems, "\n".join(problems)
