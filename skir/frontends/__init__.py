"""Front ends: readers that turn a captured model into an `aclgraph` module.

- `skir.frontends.capture`: the capture JSON v1 importer (`load`, `loads`, `from_dict`) and
  exporter (`dump`, `dumps`, `save`), DESIGN §8.
"""
