"""Front ends: readers that turn a captured model into an `aclgraph` module.

- `skir.frontends.capture`: the capture JSON v1 importer (`load`, `loads`, `from_dict`) and
  exporter (`dump`, `dumps`, `save`), docs/design.md §8.
- `skir.frontends.torch` (needs `skir[torch]`): `capture(module, *example_inputs)` traces a
  PyTorch module with torch.fx, and the `torch.compile` backend `"skir"` takes TorchDynamo's
  graphs; scopes and streams come from `skir.super_kernel_scope` / `skir.stream`.
"""
