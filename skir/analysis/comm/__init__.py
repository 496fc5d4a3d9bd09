"""Communication kernels (docs/design.md §3, "Communication kernels"): formation's rule
(`comm_rule`), sk-check's rules on a rewritten model (`comm_check`), and the order every rank
runs each group's collectives in (`rank_order`, `sk-check-ranks`). They read only
`skir.analysis.graph`."""
