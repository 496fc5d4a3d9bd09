"""Reports of the unit test run."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The syncs per sub-task that the property test's random models needed before and after pruning."""
    for module in list(sys.modules.values()):
        stats = getattr(module, "SYNC_STATS", None)
        if isinstance(stats, dict) and stats.get("subtasks"):
            n = stats["subtasks"]
            terminalreporter.write_line(
                f"sync lowering: {stats['models']} random models, {stats['superkernels']} SuperKernels, "
                f"{n} sub-tasks; syncs per sub-task {stats['lowered'] / n:.2f} after sk-lower-sync, "
                f"{stats['pruned'] / n:.2f} after sk-prune-sync"
            )
            return


@pytest.fixture(autouse=True, scope="session")
def _empty_working_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every test runs in an empty folder of this test run, not the user's working tree: no test
    can depend on what the tree holds (the `out/` that `make demo` writes), and a relative path a
    test writes lands here. Tests name the repository's files by absolute paths."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp_path_factory.mktemp("cwd"))
        yield


@pytest.fixture(autouse=True, scope="session")
def _private_emulation_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The emulation's shared object cache in a folder of this test run, not the user's."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SKIR_CACHE_DIR", str(tmp_path_factory.mktemp("skir-cache")))
        yield


@pytest.fixture(autouse=True, scope="session")
def _prove_every_compile() -> Iterator[None]:
    """Every `skir.compile` in the tests also proves its result with sk-check, on the side: the
    result is left as the test's calls make it (`proof` is set by a test's own `check()` only,
    so the products and the summary are those a user's call would give)."""
    import skir
    import skir.api
    from skir.analysis.proof import sk_check
    from skir.errors import CheckFailedError

    original = skir.api.compile

    def compile_and_check(*args: Any, **kwargs: Any) -> Any:
        result = original(*args, **kwargs)
        proof = sk_check.check_module(result.module)
        if not proof.ok:
            raise CheckFailedError(f"sk-check (run on every compile of the tests) found {len(proof.violations)} "
                                   f"violation(s): {proof.violations[0]}", proof.violations)
        return result

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(skir, "compile", compile_and_check)
        patch.setattr(skir.api, "compile", compile_and_check)
        yield
