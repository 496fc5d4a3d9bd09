"""What follows on the synchronisation of a lowered SuperKernel: which syncs the rest already
implies (`sync_prune`, `sk-prune-sync`), how far the cross-core self-test can fill each flag
counter (`self_test_fill`, `debug-cross-core-sync-check=1`), and the progress words of
`debug-progress=1` (`progress_points`)."""
