"""The verdict on a forwarded update (docs/design.md §3 "Updated kernels").

An entry with updated members runs twice (`EmulationSpec.updates`): between the runs the driver
writes fresh argument words into the slots the plan's update map names, as a runtime forwarding
a re-issued kernel's parameters would. Every sub-kernel logs the words of its param slots (ARGS
lines) in both runs. The driver appends what it forwarded for each
argument (UPDATE lines). Judged by where each sub-task's params are, not by the map: each updated
sub-task must see, in param slot `i`, the word forwarded as its argument `i`, and every other
sub-task exactly the words of the first run, so a map that misses a slot, swaps two or writes
one another sub-task owns is caught.
"""

from __future__ import annotations

from skir.hostsim.logcheck import EmuLog
from skir.hostsim.spec import EmulationSpec


def _seen(spec: EmulationSpec, log: EmuLog, run: str, problems: list[str]) -> dict[int, tuple[int, ...]]:
    """Sub-task key -> the words its stubs saw in one run (every core must agree)."""
    key_of = {(st.symbol, st.offset): st.key for st in spec.subtasks}
    seen: dict[int, tuple[int, ...]] = {}
    for tid, symbol, offset, words in log.args:
        key = key_of.get((symbol, offset))
        if key is None:
            continue
        if seen.setdefault(key, words) != words:
            problems.append(f"update: {symbol}@{offset} saw different arguments on different cores in the {run} run "
                            f"(core {tid})")
    return seen


def check_update(spec: EmulationSpec, first: EmuLog, second: EmuLog) -> list[str]:
    """Problems of the update run (`first`: before the update, `second`: after it)."""
    problems: list[str] = []
    before, after = _seen(spec, first, "first", problems), _seen(spec, second, "second", problems)
    updated = {key for key, _ in spec.updates}
    for st in spec.subtasks:
        if st.params == 0:
            continue
        old, new = before.get(st.key), after.get(st.key)
        if old is None or new is None:
            problems.append(f"update: {st.label} logged no arguments in the {'first' if old is None else 'second'} run")
            continue
        for i, (a, b) in enumerate(zip(old, new, strict=False)):
            slot = st.offset + i
            want = second.forwarded.get((st.key, i))
            if st.key in updated and b != want:
                what = "its old argument" if a == b else "a word that is not its forwarded argument"
                problems.append(f"update: {st.label} (updated) saw {what} {i} (slot {slot}) after the update; "
                                f"the plan's update map does not put argument {i} there")
                break
            if st.key not in updated and a != b:
                problems.append(f"update: {st.label} saw its argument {i} (slot {slot}) change, but it was not "
                                "updated; the plan's update map writes a slot it does not own")
                break
    return problems
