"""Compile an emitted SuperKernel entry against the host shim, run it, and judge the log.

`emulate(spec, work_dir)` writes into `work_dir`:

    <name>_kernel.cpp     the entry source, unchanged
    <name>_stubs.cpp      host stubs of the sub-kernels (see `stubs`)
    <name>_main.cpp       the driver: arg table, lock words, `sk_shim::Run`
    sk_shim_runtime.cpp   the shim runtime unit
    *.o, <name>_emu       objects and the binary (reused while their inputs are unchanged)

Compiled objects are also kept in a cache folder shared by every run (`SKIR_CACHE_DIR`, else
`$XDG_CACHE_HOME/skir` or `~/.cache/skir`; `cache=False`, `sk-compile --no-cache`, turns it off),
keyed by a hash of the compiler's `--version` text, its argv and flags, the shim headers and the
unit's source, so the shim runtime is compiled once per compiler and shim version. The cache is
capped (`SKIR_CACHE_MAX_MB`, default 512): after a run that added objects, the least recently
used are deleted until it fits; `clear_cache()` (or deleting the folder) empties it.
    <name>.log            the shim's log (format: top of include/kernel_operator.h)
    <name>.update.log     with updated members: the log of the second run, after the update

and compiles each unit with `$CXX -std=c++17 -O1 -Wall -Werror -pthread -I<include>` (in
parallel), links, runs the binary with `SKIR_EMU_SEED` / `SKIR_EMU_LOG` set and a wall-clock limit
as a last resort (the shim's own watchdog normally ends a deadlock after `timeout_ms`), and decides
with `logcheck`.  A missing compiler raises `MissingToolError`; everything else (compile errors of
the entry, races, deadlocks, leftovers, shim errors) is a problem line in the result.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from skir.errors import MissingToolError
from skir.hostsim.logcheck import check_log, parse_log, verdict_line
from skir.hostsim.spec import PROGRESS_FILE, EmulationResult, EmulationSpec, SubTaskInstance
from skir.hostsim.stubs import RUNTIME_SOURCE, driver_source, stub_source
from skir.hostsim.update_check import check_update

__all__ = ["EmulationResult", "EmulationSpec", "SubTaskInstance", "cache_dir", "clear_cache", "emulate",
           "include_dir", "prune_cache"]

CXX_FLAGS = ("-std=c++17", "-O1", "-Wall", "-Werror", "-pthread")
_HEADERS = ("kernel_operator.h", "sk_shim_impl.h", "sk_shim_model.h", "sk_shim_sync.h", "sk_shim_harness.h")

# Objects compiled in this process, by content hash, so that the runtime unit (the slow one) and
# unchanged units are compiled once per process even across work directories.
_OBJECT_CACHE: dict[str, Path] = {}
_VERSIONS: dict[tuple[str, ...], str] = {}


def cache_dir() -> Path:
    """The folder of compiled objects kept across runs."""
    given = os.environ.get("SKIR_CACHE_DIR")
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "skir"


DEFAULT_CACHE_MAX_MB = 512
"""The cache's size cap unless `SKIR_CACHE_MAX_MB` says otherwise: the shim runtime and the
entries of some hundred SuperKernels."""


def cache_max_bytes() -> int:
    """The cache's cap in bytes (`SKIR_CACHE_MAX_MB`, a whole number of MiB; a value that is not
    one is ignored for the default)."""
    given = os.environ.get("SKIR_CACHE_MAX_MB", "")
    mib = int(given) if given.isdigit() else DEFAULT_CACHE_MAX_MB
    return mib << 20


def prune_cache(folder: Path, max_bytes: int) -> int:
    """Delete the least recently used objects of `folder` (by modification time, which a reuse
    renews) until the rest hold at most `max_bytes`; returns how many were deleted. A folder that
    cannot be read or an object another run deleted first is skipped, never an error."""
    try:
        objects = [(entry.stat().st_mtime, entry.stat().st_size, entry) for entry in folder.glob("*.o")]
    except OSError:
        return 0
    total = sum(size for _, size, _ in objects)
    deleted = 0
    for _, size, entry in sorted(objects, key=lambda item: item[0]):
        if total <= max_bytes:
            break
        try:
            entry.unlink()
        except OSError:
            continue
        total -= size
        deleted += 1
    return deleted


def clear_cache() -> int:
    """Empty the cache folder (`cache_dir()`); returns how many objects were deleted."""
    return prune_cache(cache_dir(), 0)


def _version(cxx: list[str]) -> str:
    """The compiler's `--version` text (part of every object's key: an upgrade recompiles)."""
    key = tuple(cxx)
    if key not in _VERSIONS:
        done = subprocess.run([*cxx, "--version"], capture_output=True, text=True, check=False)
        _VERSIONS[key] = done.stdout + done.stderr
    return _VERSIONS[key]


def include_dir() -> Path:
    """The folder holding `kernel_operator.h` and `sk_shim_impl.h` (with its parts, `_HEADERS`)."""
    return Path(__file__).resolve().parent / "include"


def _compiler(cxx: str | None) -> list[str]:
    text = cxx or os.environ.get("CXX") or "g++"
    argv = shlex.split(text)
    if not argv or shutil.which(argv[0]) is None:
        raise MissingToolError(f"C++ compiler not found: '{text}' (install g++ or set CXX)")
    return argv


def _first_error(stderr: str, work_dir: Path) -> str:
    lines = [ln.replace(str(work_dir) + os.sep, "") for ln in stderr.splitlines()]
    for ln in lines:  # a link failure says what is missing before collect2 says it failed
        if "error" in ln.lower() or "undefined reference" in ln:
            return ln.strip()
    return next((ln.strip() for ln in lines if ln.strip()), "no diagnostic")


class _Builder:
    """Compiles the units of one emulation, reusing objects whose inputs did not change."""

    def __init__(self, cxx: list[str], work_dir: Path, cache: Path | None):
        self.cxx = cxx
        self.work_dir = work_dir
        self.cache = cache
        inc = include_dir()
        self.flags = [*CXX_FLAGS, f"-I{inc}"]
        h = hashlib.sha256(" ".join([*cxx, *CXX_FLAGS]).encode())
        h.update(_version(cxx).encode())
        for name in _HEADERS:
            h.update((inc / name).read_bytes())
        self.base_hash = h.hexdigest()
        self.kept = False  # whether this build added an object to the shared cache (then it is pruned)

    def _compile(self, src: Path) -> tuple[Path, str | None]:
        obj = src.with_suffix(".o")
        digest = hashlib.sha256((self.base_hash + src.read_text()).encode()).hexdigest()
        stamp = src.with_suffix(".o.sha256")
        if obj.exists() and stamp.exists() and stamp.read_text() == digest:
            return obj, None
        cached = _OBJECT_CACHE.get(digest)
        if (cached is None or not cached.exists()) and self.cache is not None:
            kept = self.cache / f"{digest}.o"
            cached = kept if kept.is_file() else None
        if cached is not None and cached.exists() and cached != obj:
            shutil.copyfile(cached, obj)
            stamp.write_text(digest)
            if self.cache is not None and cached.parent == self.cache:
                _touch(cached)  # used: the last to go when the cache is pruned
            return obj, None
        stamp.unlink(missing_ok=True)
        proc = subprocess.run(
            [*self.cxx, *self.flags, "-c", src.name, "-o", obj.name],
            cwd=self.work_dir,
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            return obj, _first_error(proc.stderr, self.work_dir)
        stamp.write_text(digest)
        _OBJECT_CACHE[digest] = obj
        if self.cache is not None:
            self._keep(obj, digest)
        return obj, None

    def _keep(self, obj: Path, digest: str) -> None:
        """Copy a fresh object into the shared cache (atomically; a cache that cannot be
        written is skipped, never an error)."""
        assert self.cache is not None
        try:
            self.cache.mkdir(parents=True, exist_ok=True)
            tmp = self.cache / f".{digest}.{os.getpid()}.tmp"
            shutil.copyfile(obj, tmp)
            os.replace(tmp, self.cache / f"{digest}.o")
            self.kept = True
        except OSError:
            pass

    def build(self, sources: list[Path], binary: Path) -> list[str]:
        """Compile and link; returns compile problems (empty on success)."""
        workers = max(1, min(len(sources), os.cpu_count() or 1))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(self._compile, sources))
        if self.kept and self.cache is not None:
            prune_cache(self.cache, cache_max_bytes())
        problems = [f"compile: {err}" for _, err in results if err]
        if problems:
            return problems
        objs = [o for o, _ in results]
        digest = hashlib.sha256("".join(o.with_suffix(".o.sha256").read_text() for o in objs).encode()).hexdigest()
        stamp = binary.with_name(binary.name + ".sha256")
        if binary.exists() and stamp.exists() and stamp.read_text() == digest:
            return []
        stamp.unlink(missing_ok=True)
        proc = subprocess.run(
            [*self.cxx, "-pthread", *[o.name for o in objs], "-o", binary.name],
            cwd=self.work_dir,
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            return [f"compile: link: {_first_error(proc.stderr, self.work_dir)}"]
        stamp.write_text(digest)
        return []


def _touch(path: Path) -> None:
    try:
        os.utime(path)
    except OSError:  # another run pruned it meanwhile
        pass


def _write(path: Path, text: str) -> None:
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def _run_binary(binary: Path, log_path: Path, timeout_ms: int, seed: int,
                update_log: Path | None = None) -> list[str]:
    """Runs the emulation (twice with `update_log`); returns crash / timeout problems (the logs
    hold the rest)."""
    env = dict(os.environ, SKIR_EMU_SEED=str(seed), SKIR_EMU_LOG=str(log_path))
    log_path.unlink(missing_ok=True)
    extra = []
    if update_log is not None:
        update_log.unlink(missing_ok=True)
        extra = [str(update_log)]
    wall = (30.0 + 5.0 * timeout_ms / 1000.0) * (2 if extra else 1)
    try:
        proc = subprocess.run(
            [str(binary), str(log_path), str(timeout_ms), *extra],
            cwd=binary.parent,
            env=env,
            capture_output=True,
            text=True,
            timeout=wall,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return [f"timeout: the emulation binary was killed after {wall:.0f} s"]
    if proc.returncode in (0, 1, 2):
        return []
    how = f"signal {-proc.returncode}" if proc.returncode < 0 else f"exit code {proc.returncode}"
    tail = " | ".join(proc.stderr.strip().splitlines()[-3:])
    return [f"crash: the emulation binary ended with {how}" + (f": {tail}" if tail else "")]


def emulate(
    spec: EmulationSpec,
    work_dir: Path,
    *,
    cxx: str | None = None,
    timeout_ms: int = 2000,
    seed: int = 0,
    cache: bool = True,
) -> EmulationResult:
    """Compile `spec.source` unchanged against the host shim, run it and judge it.

    Raises `MissingToolError` when the C++ compiler is missing and `ValueError` for an
    inconsistent spec; every finding about the entry itself is a problem line in the result.
    """
    spec.validate()
    compiler = _compiler(cxx)
    work_dir = Path(work_dir)
    work_dir.mkdir(parents=True, exist_ok=True)
    kernel = work_dir / f"{spec.name}_kernel.cpp"
    stubs = work_dir / f"{spec.name}_stubs.cpp"
    main = work_dir / f"{spec.name}_main.cpp"
    runtime = work_dir / "sk_shim_runtime.cpp"
    _write(kernel, spec.source)
    _write(stubs, stub_source(spec))
    _write(main, driver_source(spec))
    _write(runtime, RUNTIME_SOURCE)
    binary = work_dir / f"{spec.name}_emu"
    log_path = work_dir / f"{spec.name}.log"

    problems = _Builder(compiler, work_dir, cache_dir() if cache else None).build([runtime, kernel, stubs, main],
                                                                               binary)
    if problems:
        return EmulationResult(spec.name, False, problems[0], problems, work_dir)

    update_log = work_dir / f"{spec.name}.update.log" if spec.updates else None
    problems = _run_binary(binary, log_path, timeout_ms, seed, update_log)
    log = parse_log(log_path.read_text(errors="replace") if log_path.exists() else "")
    found, proven = check_log(spec, log)
    if update_log is not None and not found:
        second = parse_log(update_log.read_text(errors="replace") if update_log.exists() else "")
        again, _ = check_log(spec, second)
        found = [f"after the update: {p}" for p in again] or check_update(spec, log, second)
    if problems:  # the binary crashed or hung: keep what the log shows, minus "no verdict"
        found = [p for p in found if not p.startswith("crash: the emulation log ends")]
    problems += found
    return EmulationResult(
        name=spec.name,
        ok=not problems,
        verdict=verdict_line(spec, problems, len(log.cores), proven),
        problems=problems,
        work_dir=work_dir,
        log_path=log_path if log_path.exists() else None,
        progress_path=work_dir / PROGRESS_FILE if (work_dir / PROGRESS_FILE).exists() else None,
        edges_proven=proven,
    )
