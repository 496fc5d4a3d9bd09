"""skir as seen by plain `xdsl-opt` (and every other xDSL tool): the `xdsl.universe` entry point.

`xdsl-opt` finds skir's dialects, passes and targets through `SKIR_UNIVERSE`
(`skir.registry`). A universe carries no frontends, so `xdsl-opt model.json` would stop on
xDSL's "Unrecognized file extension 'json'" with a traceback. Loading this module, which
xDSL does before it registers its frontends, also teaches xDSL's command-line tools to read
the `.json` models `sk-opt` reads (capture JSON, the vendor's dumps) with skir's importer:

```sh
xdsl-opt examples/decode_layer.json -p superkernel-pipeline -t sk-meta
```

This is the one place skir extends an xDSL class from the outside; it adds a frontend only
where none named `json` exists, and leaves the tool as it is when xDSL's hook is not there.
"""

from __future__ import annotations

from typing import IO, Any

from xdsl.dialects.builtin import ModuleOp

from skir.registry import SKIR_UNIVERSE

__all__ = ["SKIR_UNIVERSE"]


def _read_json(tool: Any) -> Any:
    """A frontend reading skir's JSON models for the xDSL tool `tool`."""

    def read(stream: IO[bytes]) -> ModuleOp:
        from skir.api import loads_json_model
        from skir.source_text import decode_model

        name = tool.get_input_name()
        return loads_json_model(decode_model(stream.read(), name), name)

    return read


def _install() -> None:
    try:
        from xdsl.tools.command_line_tool import CommandLineTool
    except ImportError:  # another xDSL layout: xDSL's own behaviour stays
        return
    plain = getattr(CommandLineTool, "register_all_frontends", None)
    if plain is None or getattr(plain, "_skir_json", False):
        return

    def register_all_frontends(self: Any) -> None:
        plain(self)
        self.available_frontends.setdefault("json", _read_json(self))

    register_all_frontends._skir_json = True  # type: ignore[attr-defined]
    CommandLineTool.register_all_frontends = register_all_frontends  # type: ignore[method-assign]


_install()
