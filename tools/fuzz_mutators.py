"""Structure-aware mutators for `tools/fuzz.py`: capture JSON, `.mlir`, option and pipeline strings.

Every mutator takes a `random.Random` and returns new bytes or text; the hostile values are the
classes a bounded campaign found (names that escape OUT or hold shell text, non-UTF-8 bytes, lone
surrogates, NULs, long names, unterminated strings, out-of-range integers, crossing references).
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

HOSTILE_NAMES = (
    "../evil", "/abs/evil", "a b", "a{b}", "a\nb", "x\n; touch INJECTED\n", "$(touch INJECTED)", "`id`",
    "a;b", "'q'", '"dq"', "é", "名前", "\u0000nul", "\ud800", "", " ", "9lead", "a" * 300, "a" * 129, "a" * 128,
    "k.0", "a-b", "..", ".", "CON", "a/b", "\\x", "$HOME", "*", "?", "\t", "\x7f",
)
HOSTILE_STRINGS = (*HOSTILE_NAMES, "x" * 5000, "scope\r\nname", "\u202e", "%s%n", "{}", "null")
NUMBERS = (0, -1, 1, 2, 7, 15, 16, 24, 48, 64, 65535, 65536, 2**31, 2**63 - 1, 2**63, 2**64, -(2**63), 10**30)
OTHER_VALUES: tuple[Any, ...] = (None, True, False, 0.5, -0.0, [], {}, "", [1, 2], {"a": 1}, "1e999")
OPTION_KEYS = (
    "early-start", "stream-fusion", "preload-code", "split-mode", "func-align", "debug-sync-all",
    "debug-dcci-all", "dcci-before-kernel-start", "dcci-after-kernel-end", "dcci-disable-on-kernel",
    "feed-sync-all", "debug-aic-num", "debug-aiv-num", "strict-scope-check", "profiling",
    "compile-options", "sync-mode", "early_start", "bogus", "",
)
OPTION_VALUES = (
    "0", "1", "2", "4", "64", "65", "-1", "256", "3", "max", "per-func", "none", "bypass", "abort", "data",
    "conservative", "-g", "-g,-O2", "-g;rm -rf x", "$(touch INJECTED)", "-D`id`", "-g -O2", "-g\n-O2", "k0",
    "k0,k1", "'1'", '"0"', "", "x" * 300, "\ud800", "24", "48", "12",
)
PASSES = (
    "sk-form-scopes", "sk-outline", "sk-lower-sync", "sk-prune-sync", "sk-insert-preload", "sk-insert-debug",
    "sk-to-ascendc", "sk-check", "superkernel-pipeline", "sk-bogus", "canonicalize", "",
)
TARGETS = ("mlir", "ascendc", "ascendc{sk=x}", "ascendc{b=1}", "sk-meta", "sk-descriptor", "sk-plan",
           "sk-descriptor{sk=m_sk0}", "nope", "ascendc{sk=", "")


# ---- JSON ----------------------------------------------------------------------------------


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _nodes(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _nodes(v, (*path, i))
    return out


def _get(root: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        root = root[key]
    return root


def _set(root: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    _get(root, path[:-1])[path[-1]] = value
    return root


def _hostile_value(rng: random.Random, old: Any) -> Any:
    r = rng.random()
    if isinstance(old, str) and r < 0.6:
        return rng.choice(HOSTILE_STRINGS)
    if isinstance(old, int) and not isinstance(old, bool) and r < 0.7:
        return rng.choice(NUMBERS) if rng.random() < 0.7 else old + rng.choice((-1, 1))
    if r < 0.8:
        return rng.choice(OTHER_VALUES)
    return rng.choice(HOSTILE_STRINGS)


_NAME_SLOTS = ("model", "name", "kernel", "event", "cell", "scope", "options", "notify", "sk_symbol", "soc")


def _rename(rng: random.Random, doc: Any) -> Any:
    """A hostile value in a slot that holds a name (or text that reaches a script), and the
    same for a declaring key (a kernel or buffer) with every use of it."""
    slots = [p for p in _nodes(doc) if p and p[-1] in _NAME_SLOTS and isinstance(_get(doc, p), str | type(None))]
    hostile = rng.choice(HOSTILE_NAMES if rng.random() < 0.8 else HOSTILE_STRINGS)
    if slots and rng.random() < 0.6:
        path = ("model",) if ("model",) in slots and rng.random() < 0.3 else rng.choice(slots)
        old = _get(doc, path)
        if path[-1] == "options":
            hostile = f"compile-options={hostile}" if rng.random() < 0.7 else hostile
        text = json.dumps(doc)
        if isinstance(old, str) and rng.random() < 0.5:  # every use of the name
            return json.loads(text.replace(json.dumps(old), json.dumps(hostile)))
        return _set(doc, path, hostile)
    for table in ("kernels", "buffers"):
        if isinstance(doc, dict) and isinstance(doc.get(table), dict) and doc[table] and rng.random() < 0.5:
            old = rng.choice(list(doc[table]))
            return json.loads(json.dumps(doc).replace(json.dumps(old), json.dumps(hostile)))
    return doc


def mutate_json_doc(rng: random.Random, doc: Any) -> Any:
    """One structural change to a capture document."""
    doc = copy.deepcopy(doc)
    if rng.random() < 0.25:
        return _rename(rng, doc)
    paths = _nodes(doc)
    path = rng.choice(paths)
    target = _get(doc, path)
    r = rng.random()
    if r < 0.35:
        return _set(doc, path, _hostile_value(rng, target))
    if r < 0.5 and path and isinstance(_get(doc, path[:-1]), dict):
        parent = _get(doc, path[:-1])
        del parent[path[-1]]
        return doc
    if r < 0.6 and path and isinstance(_get(doc, path[:-1]), list):
        parent = _get(doc, path[:-1])
        i = path[-1]
        if rng.random() < 0.5:
            del parent[i]
        else:
            parent.insert(rng.randrange(len(parent) + 1), copy.deepcopy(parent[i]))
        return doc
    if r < 0.7 and isinstance(target, dict):
        if target and rng.random() < 0.5:  # rename a key (a name declared by the key)
            key = rng.choice(list(target))
            target[rng.choice(HOSTILE_NAMES)] = target.pop(key)
        else:
            target[rng.choice(("extra", "seq", "external", "task_group", "options", "model"))] = rng.choice(
                (1, True, "x", None))
        return doc
    if r < 0.8:  # swap two values of the same kind somewhere in the document
        a, b = rng.choice(paths), rng.choice(paths)
        if a and b and not _prefix(a, b) and not _prefix(b, a):
            va, vb = _get(doc, a), _get(doc, b)
            _set(doc, a, copy.deepcopy(vb))
            _set(doc, b, copy.deepcopy(va))
        return doc
    if r < 0.9 and isinstance(doc, dict) and isinstance(doc.get("streams"), list) and doc["streams"]:
        # move a task to another stream, or renumber seqs
        streams = [s for s in doc["streams"] if isinstance(s, dict) and isinstance(s.get("tasks"), list)]
        if len(streams) >= 2 and streams[0]["tasks"]:
            src, dst = rng.sample(streams, 2)
            if src["tasks"]:
                task = src["tasks"].pop(rng.randrange(len(src["tasks"])))
                dst["tasks"].insert(rng.randrange(len(dst["tasks"]) + 1), task)
        return doc
    return _set(doc, path, _hostile_value(rng, target))


def _prefix(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    return b[: len(a)] == a


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    """Byte-level damage: truncation, a non-UTF-8 byte, a NUL, a BOM, a flipped byte."""
    r = rng.random()
    pos = rng.randrange(len(data) + 1) if data else 0
    if r < 0.2:
        return data[:pos]
    if r < 0.4:
        return data[:pos] + rng.choice((b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80")) + data[pos:]
    if r < 0.5:
        return data[:pos] + b"\x00" + data[pos:]
    if r < 0.6:
        return b"\xef\xbb\xbf" + data
    if r < 0.8 and data:
        i = rng.randrange(len(data))
        return data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1:]
    return data[:pos] + data[pos: pos + rng.randint(1, 64)] * 2 + data[pos:]


def json_mutant(rng: random.Random, text: str) -> bytes:
    doc = json.loads(text)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        doc = mutate_json_doc(rng, doc)
    out = json.dumps(doc, ensure_ascii=rng.random() < 0.5)
    raw = out.encode("utf-8", "surrogatepass")
    if rng.random() < 0.15:
        raw = mutate_bytes(rng, raw)
    if rng.random() < 0.05:  # a duplicate key, which json.dumps cannot write
        raw = raw.replace(b'"streams":', b'"streams": [], "streams":', 1)
    return raw


# ---- MLIR ----------------------------------------------------------------------------------


def mlir_mutant(rng: random.Random, text: str) -> bytes:
    lines = text.split("\n")
    for _ in range(rng.choice((1, 1, 2, 3))):
        r = rng.random()
        i = rng.randrange(len(lines))
        if r < 0.15:
            del lines[i]
        elif r < 0.3:
            lines.insert(rng.randrange(len(lines) + 1), lines[i])
        elif r < 0.4:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif r < 0.6:
            lines[i] = _mutate_token(rng, lines[i])
        elif r < 0.7:
            lines[i] = lines[i] + ' "' + "a" * rng.randint(20, 60)  # an unterminated string
        elif r < 0.8:
            name = rng.choice(HOSTILE_NAMES)
            lines[i] = lines[i].replace("@", "@" + json.dumps(name, ensure_ascii=False) + " @", 1)
        else:
            words = lines[i].split(" ")
            k = rng.randrange(len(words))
            words[k] = rng.choice(("external", "batch", "{", "}", "seq", "blocks", "0", "-1", "99999999999999999999",
                                   "task_group", "was", "attributes", "{sk.group = 0 : i64}", "@x", "\"\\q\""))
            lines[i] = " ".join(words)
    raw = "\n".join(lines).encode("utf-8", "surrogatepass")
    if rng.random() < 0.15:
        raw = mutate_bytes(rng, raw)
    return raw


def _mutate_token(rng: random.Random, line: str) -> str:
    import re

    numbers = list(re.finditer(r"-?\d+", line))
    symbols = list(re.finditer(r"@[A-Za-z_][A-Za-z0-9_.]*", line))
    if numbers and (not symbols or rng.random() < 0.5):
        m = rng.choice(numbers)
        return line[: m.start()] + str(rng.choice(NUMBERS)) + line[m.end():]
    if symbols:
        m = rng.choice(symbols)
        replacement = "@" + (json.dumps(rng.choice(HOSTILE_NAMES), ensure_ascii=False)
                             if rng.random() < 0.5 else rng.choice(("x", "s0", "e0", "k", "m_sk0", "norm")))
        return line[: m.start()] + replacement + line[m.end():]
    return line


# ---- options and pipelines -----------------------------------------------------------------


def option_string(rng: random.Random) -> str:
    """A hostile option string, or a third of the time a valid one drawn as the property test
    draws them (every documented option, combinations that interact; `select=gain`, which
    compiles again round by round, one time in ten of those)."""
    if rng.random() < 0.33:
        from skir.testing.option_space import draw_options

        return draw_options(rng, gain=rng.random() < 0.1)
    segments = []
    for _ in range(rng.randint(0, 4)):
        r = rng.random()
        if r < 0.8:
            segments.append(f"{rng.choice(OPTION_KEYS)}={rng.choice(OPTION_VALUES)}")
        elif r < 0.9:
            segments.append(rng.choice(("noequals", "=", "", " ", "a=b=c")))
        else:
            segments.append(rng.choice(OPTION_VALUES))
    text = ":".join(segments)
    if rng.random() < 0.1:
        text = f'"{text}"'
    return text


def pipeline_string(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(1, 4)):
        name = rng.choice(PASSES)
        r = rng.random()
        if r < 0.4:
            args = f'{{options="{option_string(rng)}"}}'
        elif r < 0.5:
            args = rng.choice(("{b=1}", "{stats=true}", "{stats=maybe}", "{options=}", "{", "{}",
                               "{verify-each=false}"))
        else:
            args = ""
        parts.append(name + args)
    return ",".join(parts)


def target_string(rng: random.Random) -> str:
    return rng.choice(TARGETS)
