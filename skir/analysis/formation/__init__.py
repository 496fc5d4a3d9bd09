"""SuperKernel formation (docs/design.md §3): which kernel tasks fuse together, and why the rest
do not (`formation`, `fail_reasons`); scope labels and runs (`scopes`), updated kernels
(`updated`), the rules a SuperKernel must keep (`range_hull`, `range_join`, `or_wait_rule`,
`deadlock_rule`, `superkernel_cycles`, `superkernel_shape`), the cuts of `select=gain`
(`cut_points`), and what formation plans for each SuperKernel: its boundary and slot rewrite
(`boundary`), its members' order (`member_order`), its program (`sk_program`) and that program's
naive queue sync with cross-core flag ids (`queue_plan`), whose flag budget formation checks."""
