"""What `skir.compile` returns: the rewritten module, what happened to every kernel task, and the
follow-ups a caller asks for one by one.

```python
import skir

result = skir.compile("examples/decode_layer.json", options="split-mode=2")
result.check()                      # prove it (sk-check): result.proof, or CheckFailedError
result.simulate()                   # every mode in the simulator: result.report
result.write("out", emulate=True)   # the products, each entry run in host emulation
```
Each follow-up returns the result, so they chain (`skir.compile(m).check().write("out")`); what
it computed is an attribute (`proof`, `report`, `calibration`, `vendor_compare`, `emulation`,
`outputs`) that `write()` turns into products. `sk-compile` is this chain, one flag a follow-up.
A failed proof or emulation raises `CheckFailedError`, a missing toolchain `MissingToolError`,
any other failure a one-line `SkirError`; nothing is written then.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skir import progress
from skir.api_arguments import check_arguments
from skir.errors import CheckFailedError, MissingToolError
from skir.options import SkOptions
from skir.result_records import CutInfo, Member, ModelWarning, ResultData, SkWarning, SuperKernelInfo, Unfused

__all__ = ["CompileResult", "CutInfo", "Member", "ModelWarning", "ResultData", "SkWarning", "SuperKernelInfo",
           "Unfused", "require_cann"]

Path_ = str | os.PathLike[str]


@dataclass
class CompileResult(ResultData):
    """A compiled model and its follow-ups (see the module docstring)."""

    options: str = ""
    """The global options the compile ran with (the call's, after those a vendor dump recorded)."""
    sk_options: SkOptions = field(default_factory=SkOptions)
    """The same, typed (parsed once, by the compile: the follow-ups read these)."""
    costs: Any = None
    """The simulator's `skir.sim.Costs` given to the compile (`costs=`), or None for the defaults."""
    costs_source: str = "default"
    """How the simulation names its costs: `default`, a costs file's name, or `custom`."""
    given_options: str = ""
    """The options as the caller gave them (the provenance records these)."""
    source: Any = None
    """The model as the caller gave it (a path, text, a dict or a module): the products' provenance
    digests it."""
    calls: list[str] = field(default_factory=list)
    """The compile's changed arguments and each follow-up so far, as the provenance lists them."""

    def __repr__(self) -> str:
        """One line, `<skir.CompileResult @decode_layer: 1 SuperKernel(s), fusing 12 of 14 kernel tasks, ...>`
        (the module is `result.module`; `print(result.module)` shows its IR)."""
        from skir.dialects.model_lookup import models

        names = [m.sym_name.data for m in models(self.module)]
        fused = sum(len(sk.members) for sk in self.superkernels)
        done = [what for what, value in (("checked", self.proof), ("simulated", self.report),
                                         ("emulated", self.emulation), ("written", self.outputs)) if value]
        return (f"<skir.CompileResult @{names[0] if names else '?'}: {len(self.superkernels)} SuperKernel(s), fusing "
                f"{fused} of {self.kernel_tasks} kernel tasks, {len(self.warnings)} warning(s)"
                f"{'; ' + ', '.join(done) if done else ''}>")

    def judge_predicted_slower(self, costs: Any, source: str) -> None:
        """Under `select=all`, the `predicted_slower` warnings: each SuperKernel the simulator,
        with `costs` (named `source`) and the measured durations, predicts slower than its
        members in the fair baseline (the faster of aclgraph and aclgraph_es); earlier such
        warnings are replaced (`calibrate()` judges again under the calibrated costs)."""
        from skir.dialects.model_lookup import the_model
        from skir.selection import formed_with_select_all, predicted_slower
        from skir.sim import compare
        from skir.sim.costs import default_costs
        from skir.sim.engine import BASELINES
        from skir.sim.slower_bound import cannot_be_slower

        assert self.original is not None
        self.warnings = [w for w in self.warnings if w.warning != "predicted_slower"]
        base = self.sk_options
        kept_all = formed_with_select_all(self.module, base)
        if not kept_all:
            return  # no SuperKernel, or select=gain judged every one: nothing to simulate
        measured = self.measured
        durations = measured.durations if measured else None
        with progress.phase("prediction"):
            if cannot_be_slower(self.original, self.module, kept_all, costs or default_costs(), durations):
                return  # proved without the simulation (`skir.sim.slower_bound`)
            simulated = compare(self.original, self.module, costs or default_costs(), (*BASELINES, "superkernel"),
                                durations, graph=self.graph_of(the_model(self.original)), spans_only=True)
        named = source + (" and measured durations" if measured is not None else "")
        self.warnings += [SkWarning(e.name, "predicted_slower", before_us=e.before, after_us=e.after, costs=named,
                                    baseline=e.baseline) for e in predicted_slower(self.module, base, simulated)]

    def check(self) -> CompileResult:
        """Prove the result with sk-check (order kept, no deadlock, credits): `self.proof`; a
        violation raises `CheckFailedError` naming the first."""
        from skir.analysis.proof.sk_check import check_module

        with progress.phase("sk-check"):
            self.proof = check_module(self.module)
        self.calls.append("check()")
        if not self.proof.ok:
            count = len(self.proof.violations)
            raise CheckFailedError(
                f"sk-check found {count} violation{'s' if count != 1 else ''}: {self.proof.violations[0]}",
                self.proof.violations,
            )
        return self

    def simulate(self) -> CompileResult:
        """Simulate the model in every mode with the compile's costs and measured durations:
        `self.report` (`write()` adds `timeline.json`, the charts and SK meta's `profiling`)."""
        from skir.dialects.model_lookup import the_model
        from skir.sim import Report, compare, load_costs

        assert self.original is not None
        with progress.phase("simulation"):
            measured = self.measured.durations if self.measured is not None else None
            graph = self.graph_of(the_model(self.original))
            self.report = Report(compare(self.original, self.module, load_costs(self.costs), measured=measured,
                                         graph=graph), self.costs_source)
        self.calls.append("simulate()")
        return self

    def calibrate(self, off: Path_, on: Path_) -> CompileResult:
        """Fit the simulator's dispatch and sync costs to a SuperKernel-off profile and a
        SuperKernel-on one: `self.calibration` (`OUT/costs.calibrated.json`)."""
        from skir.profiles import load_profiles, measure
        from skir.sim.calibrate import calibrate as fit

        check_arguments({"calibrate": (off, on)})
        assert self.original is not None
        with progress.phase("calibration"):
            before, after = (measure(load_profiles([path]), self.original) for path in (off, on))
            self.calibration = fit(self.original, self.module, before, after, self.costs)
        self.judge_predicted_slower(self.calibration.costs, "costs.calibrated.json")
        self.calls.append(f"calibrate({_portable(off)}, {_portable(on)})")
        return self

    def compare_with_vendor(self, vendor: Path_) -> CompileResult:
        """Compare with the vendor's result for the same model (its `sk_graph_updated.json` or
        dump folder): `self.vendor_compare` (`OUT/vendor_compare.json`, a table in the summary)."""
        from skir.frontends.vendor.result import read_result
        from skir.vendor_comparison import compare_with_vendor

        check_arguments({"vendor": vendor})
        assert self.original is not None
        with progress.phase("vendor comparison"):
            self.vendor_compare = compare_with_vendor(self, read_result(vendor, self.original), self.sk_options,
                                                      self.costs)
        self.calls.append(f"compare_with_vendor({_portable(vendor)})")
        return self

    def emulate(self, cache: bool = True) -> CompileResult:
        """Run every SuperKernel's entry in host emulation (needs g++ or `$CXX`) and keep nothing
        on disk: `self.emulation`; a failure raises `CheckFailedError`. `cache=False`: without the
        shared cache of compiled shim objects."""
        check_arguments({"cache": cache})
        return self._run_outputs(None, emulate=True, cache=cache, build=None, call=f"emulate({_flags(cache=cache)})")

    def write(self, out_dir: Path_ | None = None, *, emulate: bool = False, build: Path_ | None = None,
              cache: bool = True) -> CompileResult:
        """Write the products into `out_dir` (atomically: OUT is complete or as it was), with
        `emulate` also run and keep each entry's host emulation, with `build` (a folder of
        sub-kernel objects) also build every SuperKernel with the CANN toolchain
        (`OUT/<name>/build/<name>.o`); `self.outputs` lists what was written."""
        check_arguments({"out_dir": out_dir, "emulate": emulate, "build": build, "cache": cache})
        if build is not None:
            require_cann()
            from skir.frontends.vendor.buildable import refuse_unbuildable

            refuse_unbuildable(self.module)  # a vendor kernel of unknown argument size cannot be called
        if out_dir is None and not emulate and build is None:
            return self  # nothing asked for
        where = "" if out_dir is None else _portable(out_dir)
        flags = _flags(emulate=emulate, build=build, cache=cache)
        return self._run_outputs(None if out_dir is None else Path(out_dir), emulate=emulate, cache=cache,
                                 build=None if build is None else Path(build),
                                 call=f"write({', '.join(x for x in (where, flags) if x)})")

    def _run_outputs(self, out_dir: Path | None, *, emulate: bool, cache: bool, build: Path | None,
                     call: str) -> CompileResult:
        from skir import provenance
        from skir.outputs import write_outputs

        self.calls.append(call)
        entry = provenance.record(self.source if self.source is not None else self.original, self.given_options,
                                  self.calls)
        with provenance.active(entry):
            write_outputs(self, out_dir, emulate=emulate, cache=cache, build=build)
        return self


def require_cann() -> None:
    """A CANN build needs the toolchain's environment: `MissingToolError` (exit 2) without it."""
    if not os.environ.get("ASCEND_HOME_PATH"):
        raise MissingToolError("--build needs the CANN toolchain: ASCEND_HOME_PATH is not set "
                               "(source the CANN set_env.sh)")


def _portable(value: Path_) -> str:
    """A path as the provenance shows it: its last component."""
    return Path(value).name or os.fspath(value)


def _flags(**given: object) -> str:
    """The follow-up's keywords that differ from their defaults, as the provenance shows them."""
    defaults = {"emulate": False, "build": None, "cache": True}
    return ", ".join(f"{k}={_portable(v) if isinstance(v, str | os.PathLike) else repr(v)}"
                     for k, v in given.items() if v != defaults[k])
