"""skir's patterns inside another compiler's pipeline (`examples/embedding/my_compiler.py`): its
own rewrite and its own sub-task pattern beside skir's `sk` → `ascendc` patterns; the result is
proved by sk-check and, where g++ exists, runs clean in host emulation."""

from __future__ import annotations

import importlib.util
import shutil
import sys
import tempfile
from pathlib import Path
from types import ModuleType

import pytest

import skir
from skir.analysis.proof.sk_check import check_module
from skir.dialects.superkernel import PreloadOp, SubtaskOp, SuperKernelOp
from skir.targets.ascendc import emit_source, sources

ROOT = Path(__file__).resolve().parents[2]


def _example() -> ModuleType:
    path = ROOT / "examples" / "embedding" / "my_compiler.py"
    spec = importlib.util.spec_from_file_location("skir_example_my_compiler", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("model", ["chain.mlir", "decode_layer.json"])
def test_my_compiler_composes_skir_patterns(model: str, capsys: pytest.CaptureFixture[str]) -> None:
    example = _example()
    module = example.compile_model(str(ROOT / "examples" / model))
    assert check_module(module).ok
    sks = [op for op in module.walk() if isinstance(op, SuperKernelOp)]
    assert sks and not any(isinstance(op, PreloadOp) for op in module.walk())  # its own rewrite
    texts = {s.sym_name.data: emit_source(s) for s in sources(module)}
    assert set(texts) == {sk.sym_name.data for sk in sks}
    for sk in sks:
        text = texts[sk.sym_name.data]
        assert "preload(" not in text and "PreLoad(" not in text
        # its pattern won for every sub-task: its line before each call, skir's call after it
        calls = [op for op in sk.program() if isinstance(op, SubtaskOp)]
        for sub in calls:
            line = f"// my-compiler: {sub.kernel.root_reference.data} from {sub.stream.root_reference.data} " \
                   f"seq {sub.seq.data}"
            copies = len(sub.core_set())  # a queue stages a copy for each core type that runs it
            assert text.count(line) == (copies if sk.form.data.value == "queue" else 1)
        assert text.count("// my-compiler: ") >= len(calls)
    assert example.main([str(ROOT / "examples" / model)]) == 0
    assert capsys.readouterr().out == "".join(texts.values())


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_my_compilers_entries_run_clean_in_emulation() -> None:
    from skir.hostsim.runner import emulate
    from skir.targets.emulation import emulation_specs

    example = _example()
    path = ROOT / "examples" / "chain.mlir"
    module = example.compile_model(str(path))
    for spec in emulation_specs(module, skir.load_model(path)):
        with tempfile.TemporaryDirectory() as work:
            result = emulate(spec, Path(work))
        assert result.ok, (result.verdict, result.problems)
