"""Locate a hang from a dump of a SuperKernel's progress area (`debug-progress=1`, docs/design.md §6).

```python
report = skir.hang.locate("out", "progress.bin")
print(report.text())
# decode_layer_sk0: 72 cores; 71 done, 1 stuck
# aic 0: waiting on flag 15 (point 6) after no sub-task; the set is sk.set_flag 8 on aiv after
#   sub-task 4 rms_norm (@s0 seq 3)
# verdict: aic 0 never completed the wait on flag 15 (point 6) ...
```
The dump is the area's bytes: a raw binary file (its size a whole number of 64-byte lines), or
text as a runtime's exception log prints memory — hex bytes (`5c 00 ...`, 2 digits each) or
little-endian 64-bit words (`0x5c0000...`, 16 digits), each line optionally led by an address
and a colon. The SuperKernel is the one whose progress id the words carry, looked up in
`OUT/sk_meta.json`. Anything else is a one-line `SkirError`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skir.analysis.sync.progress_points import END_POINT, LINE_BYTES, decode
from skir.errors import SkirError

_ADDRESS = re.compile(r"^\s*(?:0x)?[0-9a-fA-F]+\s*:")
_HEX = re.compile(r"(?:0x)?([0-9a-fA-F]+)\Z")


@dataclass
class CoreState:
    """Where one core is, from its line: `index` its position in the program (-1 before the
    first point, past the end when done)."""

    core: str
    state: str
    point: int
    text: str
    index: int = -1
    waits_for: tuple[int, frozenset[str]] | None = None
    """(program index, core types) of what its wait needs done in this SuperKernel, if known."""


@dataclass
class HangReport:
    superkernel: str
    cores: list[CoreState] = field(default_factory=list)
    verdict: str = ""

    def text(self) -> str:
        stuck = [c for c in self.cores if c.state != "done"]
        head = f"{self.superkernel}: {len(self.cores)} cores; {len(self.cores) - len(stuck)} done, {len(stuck)} stuck"
        return "\n".join([head, *(f"{c.core}: {c.text}" for c in self.cores), f"verdict: {self.verdict}"]) + "\n"


def read_dump(path: str | Path) -> bytes:
    """The dump's bytes: a raw binary, or hex text (see the module docstring)."""
    try:
        raw = Path(path).read_bytes()
    except OSError as err:
        raise SkirError(f"{path}: cannot read the dump: {err.strerror or err}") from None
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        text = None
    if text is not None and text.strip() and all(ch.isprintable() or ch.isspace() for ch in text):
        return _from_hex(text, str(path))
    if len(raw) == 0 or len(raw) % LINE_BYTES:
        raise SkirError(f"{path}: a raw dump of the progress area must be a whole number of {LINE_BYTES}-byte "
                        f"lines; it has {len(raw)} bytes")
    return raw


def _from_hex(text: str, source: str) -> bytes:
    out = bytearray()
    for number, line in enumerate(text.splitlines(), 1):
        line = _ADDRESS.sub("", line, count=1)
        for token in line.replace(",", " ").split():
            match = _HEX.match(token)
            if match is None or len(match.group(1)) not in (2, 16):
                raise SkirError(f"{source}:{number}: {token!r} is neither a hex byte (2 digits) nor a 64-bit word "
                                "(16 digits)")
            digits = match.group(1)
            out += bytes([int(digits, 16)]) if len(digits) == 2 else int(digits, 16).to_bytes(8, "little")
    if not out or len(out) % LINE_BYTES:
        raise SkirError(f"{source}: the dump holds {len(out)} bytes; the progress area is a whole number of "
                        f"{LINE_BYTES}-byte lines")
    return bytes(out)


def _superkernels(out_dir: Path) -> list[dict[str, Any]]:
    path = out_dir / "sk_meta.json"
    try:
        meta = json.loads(path.read_text())
    except OSError as err:
        raise SkirError(f"{path}: cannot read SK meta: {err.strerror or err}") from None
    except ValueError as err:
        raise SkirError(f"{path}: not JSON: {err}") from None
    found: list[dict[str, Any]] = []

    def collect(part: dict[str, Any]) -> None:
        found.extend(sk for sk in part.get("superkernels", []) if isinstance(sk, dict) and "progress" in sk)
        for sub in part.get("submodels", []):
            collect(sub)

    collect(meta)
    if not found:
        raise SkirError(f"{path}: no SuperKernel keeps progress words; compile with --options debug-progress=1")
    return found


def _where(sub: dict[str, Any] | None) -> str:
    if not sub:
        return "no sub-task"
    return f"sub-task {sub['subtask']} {sub['kernel']} (@{sub['stream']} seq {sub['seq']})"


def _describe(point: dict[str, Any] | None, state: str, ident: int) -> str:
    if state == "entered":
        return "entered the SuperKernel, before its first point"
    if state == "done":
        return "done"
    if point is None:
        return f"{state} at point {ident}, which SK meta does not list"
    after = f"after {_where(point.get('last_subtask'))}"
    if state == "subtask":
        return f"inside {_where(point)} (point {ident}): the sub-kernel has not returned"
    if state == "wait_flag":
        found = point.get("set")
        by = (f"; the set is sk.set_flag {found['id']} on {'/'.join(found['on'])} after {_where(found['after'])}"
              if found else "; no set of it in this SuperKernel")
        return f"waiting on flag {point['flag']} (point {ident}) {after}{by}"
    if state in ("wait_lock", "timeout"):
        setters = [f"the value write at @{s['stream']} seq {s['seq']}" if s["by"] == "value_write"
                   else f"the notify {s['id']} of {s['superkernel']} after {_where(s.get('after'))}"
                   for s in point.get("set_by", [])]
        by = "; set by " + ", ".join(setters) if setters else "; nothing in the model sets it"
        what = "timed out waiting" if state == "timeout" else "waiting"
        return f"{what} on the GM lock of @{point['cell']} (slot {point['slot']}, point {ident}) {after}{by}"
    if state == "barrier":
        return f"in the {point.get('kind', '')} barrier (point {ident}) {after}"
    return f"in the early-start wait (point {ident}) {after}"


def locate(out_dir: str | Path, dump: str | Path) -> HangReport:
    """Decode `dump` against the SK meta of `out_dir` (see the module docstring)."""
    keeping = _superkernels(Path(out_dir))  # first: an OUT without progress words is the thing to say
    data = read_dump(dump)
    words = [int.from_bytes(data[i:i + 8], "little") for i in range(0, len(data), LINE_BYTES)]
    decoded = [decode(w) for w in words]
    ids = {d[0] for d in decoded if d is not None}
    if not ids:
        raise SkirError(f"{dump}: no progress word in the dump (every line is 0 or not one)")
    if len(ids) > 1:
        raise SkirError(f"{dump}: the words name {len(ids)} SuperKernels ({sorted(ids)}); a dump is one area")
    (sk_id,) = ids
    sk = next((s for s in keeping if s["progress"]["id"] == sk_id), None)
    if sk is None:
        raise SkirError(f"{dump}: the words name SuperKernel progress id {sk_id}, which {out_dir}/sk_meta.json "
                        "does not list")
    progress = sk["progress"]
    if len(words) != progress["lines"]:
        raise SkirError(f"{dump}: {len(words)} lines, but {sk['name']} launches {progress['lines']} cores")
    table = {p["point"]: p for p in progress["points"]}
    report = HangReport(sk["name"])
    aiv = progress["aiv_lines"]
    for line, found in enumerate(decoded):
        core = f"aiv {line}" if line < aiv else f"aic {line - aiv}"
        if found is None:
            report.cores.append(CoreState(core, "untouched", -1, "no progress word: the core never started"))
            continue
        _, ident, state, at = found
        if at != line:
            raise SkirError(f"{dump}: line {line} holds the word of line {at}; the dump is not of the progress area")
        point = None if ident == END_POINT else table.get(ident)
        if point is not None and core.split()[0] not in point["on"]:
            raise SkirError(f"{dump}: line {line} ({core}) is at point {ident}, which only {'/'.join(point['on'])} "
                            f"cores of {sk['name']} reach; the dump is not of this compile")
        if point is not None and state not in ("entered", "done", "timeout") and state != point["state"]:
            raise SkirError(f"{dump}: line {line} ({core}) says {state} at point {ident}, which is a "
                            f"{point['state']} point of {sk['name']}; the dump is not of this compile")
        index = len(progress["points"]) * 1_000_000 if state == "done" else -1 if point is None else point["index"]
        report.cores.append(CoreState(core, state, ident, _describe(point, state, ident), index,
                                      _needs(point, state, sk["name"])))
    report.verdict = _verdict(report)
    return report


def _needs(point: dict[str, Any] | None, state: str, name: str) -> tuple[int, frozenset[str]] | None:
    """What a core at `point` waits for inside this SuperKernel: the program index and core
    types of the set or notify it needs, or of the point itself for a sub-task or a barrier
    (every core of its types must reach it)."""
    if point is None:
        return None
    if state == "wait_flag" and point.get("set"):
        return point["set"]["index"], frozenset(point["set"]["on"])
    if state in ("wait_lock", "timeout"):
        inside = [s for s in point.get("set_by", []) if s["by"] == "notify" and s["superkernel"] == name]
        return (inside[0]["index"], frozenset(inside[0]["on"])) if inside else None
    if state in ("subtask", "barrier", "early_start"):
        return point["index"], frozenset(point["on"])
    return None


_CAUSE = {"subtask": 0, "timeout": 1, "wait_lock": 2, "wait_flag": 3, "early_start": 4, "barrier": 5, "entered": 6}
"""A core inside a sub-kernel that never returns explains the waits of the others; a lock or
flag wait explains the barriers behind it."""


def _behind(core: CoreState, cores: list[CoreState]) -> bool:
    """Whether another core has not yet reached what `core` waits for: then `core` waits on it,
    and is not itself the cause of the hang."""
    if core.waits_for is None:
        return False
    index, types = core.waits_for
    return any(other is not core and other.core.split()[0] in types and other.index < index
               and other.state != "done" for other in cores)


def _verdict(report: HangReport) -> str:
    stuck = [c for c in report.cores if c.state not in ("done", "untouched")]
    if not stuck:
        return "every core finished: no hang in this SuperKernel"
    causes = [c for c in stuck if not _behind(c, report.cores)] or stuck
    first = min(causes, key=lambda c: _CAUSE.get(c.state, len(_CAUSE)))  # the likeliest cause first
    same = [c.core for c in stuck if c.point == first.point and c.state == first.state]
    more = ", ..." if len(same) > 3 else ""
    cores = same[0] if len(same) == 1 else f"{len(same)} cores ({', '.join(same[:3])}{more})"
    return f"{cores} never completed: {first.text}"
