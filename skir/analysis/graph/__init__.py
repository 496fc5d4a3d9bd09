"""Graph basics every other analysis reads: the task graph of an `aclgraph.model`
(`task_graph`), happens-before over it (`happens_before`), strongly connected parts
(`strong_parts`), range-maximum queries over per-stream values (`range_max`) and data
dependence between kernel tasks (`data_deps`). They import no other analysis family."""
