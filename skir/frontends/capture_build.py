"""The model builder of the capture JSON importer (docs/design.md §8): the tasks `TaskReader`
read -> a verified `builtin.module { aclgraph.model }`.

Every task gets its seq (given, or the capture order `skir.frontends.capture_seq` simulates
when no task has one); the declarations go first (kernels, buffers, events, cells), then one
`aclgraph.stream` per stream with `slots` = its number of tasks, each condition task holding
its sub-models' `aclgraph.model`s. The built module is verified, and a verifier error on a
task, a stream or a declaration is reported at its JSON path (`streams[1].tasks[4]`).
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Block, Operation, Region
from xdsl.utils.exceptions import DiagnosticException

from skir.dialects.aclgraph import ModelOp, StreamOp, TaskOp
from skir.dialects.aclgraph_decls import BufferOp, CellOp, EventOp, KernelOp
from skir.dialects.model_lookup import all_submodels
from skir.dialects.syntax import int_attr, new_op
from skir.errors import ExitCode, SkirError, TaskVerifyException
from skir.frontends.capture_seq import simulate_capture
from skir.frontends.capture_submodels import BRANCHES_KEY, build_submodel
from skir.frontends.capture_tasks import TaskRead, TaskReader
from skir.json_reader import key_path


class ModelBuilder(TaskReader):
    """Builds and verifies the module of the tasks read (`build`)."""

    def __init__(self, source: str):
        super().__init__(source)
        self.stream_paths: dict[StreamOp, str] = {}
        """Each built stream -> its JSON path, for the verifier's errors."""

    def assign_seq(self, tasks: list[list[TaskRead]]) -> list[list[int]]:
        first: tuple[bool, str] | None = None
        for si, stream in enumerate(tasks):
            for ti, (_, _, seq) in enumerate(stream):
                has = seq is not None
                if first is None:
                    first = (has, f"streams[{si}].tasks[{ti}]")
                elif has != first[0]:
                    where = f"streams[{si}].tasks[{ti}]"
                    self.fail(where + (".seq" if has else ""),
                              f"{'has' if has else 'has no'} 'seq' but {first[1]} "
                              f"{'has none' if has else 'has one'}; give every task a seq or none")
        if self.subs.subs:  # seqs order the model and its sub-models: no capture order to replay
            for name, sub in self.subs.subs.items():
                for si, stream in enumerate(sub.tasks):
                    for ti, (_, _, seq) in enumerate(stream):
                        if seq is None or first is None or not first[0]:
                            self.fail(f"{sub.path}.streams[{si}].tasks[{ti}]",
                                      "a capture with submodels gives every task a seq")
        if first is None or first[0]:
            return [[seq for _, _, seq in stream] for stream in tasks]
        return simulate_capture(tasks, self.fail, self.stream_names)

    def build(self, model_name: str, aic: int, aiv: int, soc: str | None, names: list[str],
              tasks: list[list[TaskRead]]) -> ModuleOp:
        seqs = self.assign_seq(tasks)
        decls: list[Operation] = []
        for name, spec in self.kernels.items():
            params = spec.get("params")
            if params is None:
                if name not in self.args_len:
                    self.fail(key_path("kernels", name), f"kernel '{name}' has no 'params' and no "
                              "launch passes 'args'; give its params")
                params = self.args_len[name][0]
            kwargs = {k: v for k, v in spec.items() if k not in ("kernel_type", "params")}
            decls.append(KernelOp(name, spec["kernel_type"], params, **kwargs))
        decls.extend(BufferOp(name, size) for name, size in self.buffers.items())
        declared = self.kind_of  # in declaration (JSON) order
        decls.extend(EventOp(n) for n, (k, _) in declared.items() if k == "event")
        decls.extend(CellOp(n) for n, (k, _) in declared.items() if k == "cell")

        def sub_model(name: str) -> ModelOp:
            sub = self.subs.subs[name]
            made = make_streams(sub.streams, sub.tasks, [[q for _, _, q in st] for st in sub.tasks],
                                f"{sub.path}.")
            return build_submodel(name, aic, aiv, soc, decls, made)  # type: ignore[arg-type]

        def make_streams(names: list[str], tasks: list[list[TaskRead]],
                         seqs: list[list[int]], prefix: str) -> list[StreamOp]:
            made: list[StreamOp] = []
            for si, (name, stream, seq_list) in enumerate(zip(names, tasks, seqs)):
                ops: list[Operation] = []
                for (cls, props, _), seq in zip(stream, seq_list):
                    props["seq"] = int_attr(seq)
                    branches = props.pop(BRANCHES_KEY, None)
                    if branches is None:
                        ops.append(new_op(cls, props))
                    else:
                        subs = [sub_model(b.data) for b in branches.data]  # type: ignore[attr-defined]
                        ops.append(new_op(cls, props, [Region(Block([m])) for m in subs]))
                made.append(StreamOp(name, Region(Block(ops)), slots=len(ops)))
                self.stream_paths[made[-1]] = f"{prefix}streams[{si}]"
            return made

        streams = make_streams(names, tasks, seqs, "")
        model = ModelOp(model_name, aic, aiv, Region(Block([*decls, *streams])), soc)
        module = ModuleOp([model])
        self.verify(module, model, streams)
        return module

    def verify(self, module: ModuleOp, model: ModelOp, streams: list[StreamOp]) -> None:
        try:
            _verify_quietly(module, model)
            for sub in all_submodels(model):
                _verify_quietly(module, sub)
            return
        except TaskVerifyException as e:
            path = self.op_path(e.op, model, streams) if e.op is not None else None
            message = _first_line(str(e))
        except DiagnosticException as e:
            path, message = None, _first_line(str(e))
        except Exception as e:  # a bug in a verifier: still one line, marked internal
            raise SkirError(f"{self.source}: internal error while verifying the model: "
                            f"{type(e).__name__}: {e}", ExitCode.INTERNAL) from e
        self.fail(path or "", message)

    def op_path(self, op: Operation, model: ModelOp, streams: list[StreamOp]) -> str | None:
        parent = op.parent_op()
        if isinstance(op, TaskOp) and isinstance(parent, StreamOp) and parent in self.stream_paths:
            ti = next(i for i, o in enumerate(parent.body.block.ops) if o is op)
            return f"{self.stream_paths[parent]}.tasks[{ti}]"
        if isinstance(op, StreamOp) and op in self.stream_paths:
            return self.stream_paths[op]
        name = op.properties.get("sym_name")
        if parent is model and name is not None:
            entry = self.kind_of.get(name.data) if isinstance(name, StringAttr) else None
            return None if entry is None else entry[1]
        return None


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else "verification failed"


def _verify_quietly(module: ModuleOp, model: ModelOp) -> None:
    """`module.verify()` for a module this importer built, without xDSL's diagnostic dump.

    `Operation.verify` prints the whole module into the exception's notes on failure
    (seconds at 100k tasks) and re-checks every task's properties against its definition.
    The importer builds each task's properties from validated JSON with the right attribute
    types, and the task ops' own verifiers check only what the importer already checked
    (blocks range, notify kinds), so tasks are not re-verified one by one. Everything else
    runs as in `module.verify()`: each declaration and stream op's verifier, then the
    model's whole-model check (`skir.analysis.proof.model_check`), then the module's. The tests
    run the full `module.verify()` on imported models.
    """
    from skir.analysis.proof.model_check import install

    install()
    for op in model.body.block.ops:
        op.verify_()
    model.verify_()
    module.verify_()
