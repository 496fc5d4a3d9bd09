"""Plain-Python analyses of skir's IR, grouped by concern (importers name a module's full path):

- `skir.analysis.graph`: the task graph, happens-before and the other graph basics;
- `skir.analysis.comm`: communication kernels (formation's rule, sk-check's, the ranks' order);
- `skir.analysis.formation`: formation and its rules, the boundary, a planned SuperKernel's
  program and its naive queue sync;
- `skir.analysis.sync`: what follows on a lowered SuperKernel's sync: pruning, the self-test
  fill, the progress points;
- `skir.analysis.placement`: placement and lanes (`placement=auto`), core ranges, the placement
  check;
- `skir.analysis.proof`: the whole-model verifier, the sync machine and sk-check.

The families import one way (test/unit/test_imports.py holds them to it): `graph` imports no
other family, `placement` none either, `comm` only `graph`, `formation` neither `placement`,
`sync` nor `proof`, `sync` neither `placement` nor `proof`, and `proof` any but `sync`.
"""
