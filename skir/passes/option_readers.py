"""Which pass reads which SuperKernel option (docs/design.md §4 "Passes").

Every pass takes the whole option string, so that one string fits a pipeline; most read only
a few keys. `sk-outline` records the options on each `sk.kernel` it creates, so the passes
after it, and the products (descriptor, `build.sh`), see every option given to it; a key given
to another pass that does not read it would be ignored without a word. `sk-opt` warns then,
naming the passes that do read it (the pass still runs):

```
sk-opt m.mlir -p 'sk-form-scopes{options="split-mode=2"}'
sk-opt: warning: pass 'sk-form-scopes' does not read option 'split-mode'; it is read by sk-outline
(which records it on each sk.kernel), sk-to-ascendc, superkernel-pipeline
```

`test/unit/test_option_readers.py` keeps the table honest: it records the option fields each
pass reads while it runs and checks them against it.
"""

from __future__ import annotations

from skir.options import OPTION_KEYS

_DCCI = frozenset({"dcci-before-kernel-start", "dcci-after-kernel-end", "dcci-disable-on-kernel"})
_SELECTION = frozenset({"select", "select-min-gain-us"})
"""Options of `skir.compile` / `sk-compile` alone: selection compiles the model again, round by
round, which no single pass does."""

OPTION_READERS: dict[str, frozenset[str]] = {
    "sk-form-scopes": frozenset({"early-start", "stream-fusion", "strict-scope-check", "feed-sync-all",
                                 "debug-aic-num", "debug-aiv-num", "fuse-comm", "fuse-updated"}) | _DCCI,
    "sk-outline": frozenset(OPTION_KEYS) - _SELECTION,
    "sk-place-sync": frozenset({"early-start", "sync-mode"}),
    "sk-prune-sync": frozenset(),
    "sk-place-blocks": frozenset({"placement"}),
    "sk-insert-preload": frozenset({"preload-code"}),
    "sk-insert-debug": frozenset({"debug-sync-all", "debug-cross-core-sync-check", "debug-dcci-all",
                                  "feed-sync-all", "early-start"}) | _DCCI,
    "sk-to-ascendc": frozenset({"func-align", "profiling", "split-mode", "debug-progress", "debug-wait-timeout-cycles",
                                "feed-sync-all"}),
    "superkernel-pipeline": frozenset(OPTION_KEYS) - _SELECTION,
}
"""Pass name -> the option keys it reads (`sk-outline` and the pipeline: every key but
selection's, which they carry to what comes after them)."""


def readers_of(key: str) -> list[str]:
    """The passes that read option `key`, and the tools for selection's keys."""
    passes = [name for name, keys in OPTION_READERS.items() if key in keys]
    if key in _SELECTION:
        passes.append("sk-compile and skir.compile only (selection compiles the model again)")
    return [f"{p} (which records it on each sk.kernel)" if p == "sk-outline" else p for p in passes]


def unread_options(pass_name: str, given: frozenset[str]) -> list[str]:
    """One warning per key of `given` that pass `pass_name` does not read (none for a pass
    this table does not know)."""
    reads = OPTION_READERS.get(pass_name)
    if reads is None:
        return []
    return [f"pass '{pass_name}' does not read option '{key}'; it is read by {', '.join(readers_of(key))}"
            for key in sorted(given - reads)]
