"""The proofs: the whole-model verifier of `aclgraph.model` (`model_check`), and `sk-check`
(`sk_check`), which rebuilds the original model (`original`), runs the rewritten one on an
abstract machine (`sync_machine`, with its streams `sync_streams` and flag counters
`flag_counters`) and adds the line check (`line_check`)."""
