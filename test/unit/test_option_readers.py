"""`skir.passes.option_readers` against what the passes read: each pass runs on the shipped
examples with every option set, while every read of an option field outside the option
parser itself is recorded; a pass that reads a key the table does not give it fails."""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

import pytest

from skir.api import load_model, make_context
from skir.options import OPTION_KEYS, SkOptions
from skir.passes.option_readers import OPTION_READERS, readers_of, unread_options
from skir.passes.pipeline import pipeline_passes

ROOT = Path(__file__).resolve().parents[2]
MODELS = [ROOT / "examples" / "decode_layer.json", ROOT / "examples" / "chain.mlir",
          ROOT / "test" / "unit" / "models" / "locks.mlir", ROOT / "examples" / "torch" / "mlp_block.json"]
OPTIONS = [
    "",
    "early-start=1:sync-mode=data:feed-sync-all=1:profiling=1:debug-sync-all=1:debug-dcci-all=1:preload-code=max"
    ":split-mode=2:func-align=256",
    "stream-fusion=0:strict-scope-check=bypass:dcci-before-kernel-start=rms_norm:dcci-after-kernel-end=rms_norm"
    ":dcci-disable-on-kernel=rms_norm:compile-options=-g",
    "debug-aic-num=24:debug-aiv-num=48:early-start=2",
]
_FIELDS = {key.replace("-", "_"): key for key in OPTION_KEYS}


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_every_read_is_in_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    reads: dict[str, set[str]] = defaultdict(set)
    running: list[str] = []
    plain = SkOptions.__getattribute__

    def spy(self: SkOptions, name: str) -> object:
        if running and name in _FIELDS:
            caller = sys._getframe(1).f_code.co_filename
            if not caller.endswith(("options.py", "dataclasses.py")):  # merging copies every field
                reads[running[-1]].add(_FIELDS[name])
        return plain(self, name)

    monkeypatch.setattr(SkOptions, "__getattribute__", spy)
    ctx = make_context()
    for model in MODELS:
        for options in OPTIONS:
            module = load_model(model)
            for p in pipeline_passes(options):
                running.append(p.name)
                p.apply(ctx, module)
                running.pop()
    assert set(reads) <= set(OPTION_READERS)
    for name, keys in reads.items():
        assert keys <= OPTION_READERS[name], (name, sorted(keys - OPTION_READERS[name]))
    # and the recording saw the reads it should: formation reads stream-fusion, lowering sync-mode
    assert {"stream-fusion", "strict-scope-check"} <= reads["sk-form-scopes"]
    assert {"early-start", "sync-mode"} <= reads["sk-place-sync"]
    assert "preload-code" in reads["sk-insert-preload"] and "split-mode" in reads["sk-to-ascendc"]


def test_every_key_has_a_reader() -> None:
    for key in OPTION_KEYS:
        assert readers_of(key), key
    assert unread_options("sk-outline", frozenset(OPTION_KEYS) - {"select", "select-min-gain-us"}) == []
    assert unread_options("no-such-pass", frozenset({"split-mode"})) == []
    assert unread_options("sk-prune-sync", frozenset({"sync-mode"})) == [
        "pass 'sk-prune-sync' does not read option 'sync-mode'; it is read by sk-outline (which records it on each "
        "sk.kernel), sk-place-sync, superkernel-pipeline"]
