// RUN: sk-opt %s --split-input-file -p 'sk-form-scopes,sk-outline,sk-place-sync,sk-lower-sync,sk-prune-sync' | filecheck %s
// RUN: sk-opt %s --split-input-file -p 'sk-form-scopes,sk-outline,sk-place-sync,sk-lower-sync,sk-prune-sync,sk-check' > /dev/null
// RUN: sk-opt %s --split-input-file -p 'sk-form-scopes,sk-outline,sk-place-sync,sk-lower-sync,sk-prune-sync{stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=STATS

// With stats=true each module reports the syncs per sub-task before and after pruning.
// STATS:      sk-prune-sync: 1 SuperKernels, 2.75 -> 1.50 syncs per sub-task (11 -> 6)
// STATS-NEXT: sk-prune-sync: 1 SuperKernels, 1.00 -> 0.67 syncs per sub-task (3 -> 2)

// Crossing events between two streams (see sk-lower-sync-queue.mlir for the naive
// program). Of the four flag pairs only two survive: one AIV -> AIC pair before @s0's `c`
// also orders `v` before @s1's `c` (the AIC runs them in that order), and one AIC -> AIV
// pair after both `c`s, behind the AIC barrier after the later one, orders both before the
// last `v`. The AIC barrier between the two unordered `c`s goes; the one the notify needs
// stays.
aclgraph.model @q cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.kernel @c aic_only params 0
  aclgraph.event @e1
  aclgraph.event @e2
  aclgraph.event @j
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @v blocks 48
    aclgraph.record seq 1 @e1
    aclgraph.launch seq 2 @c blocks 24
    aclgraph.wait seq 6 @e2
    aclgraph.launch seq 7 @v blocks 16
    aclgraph.wait seq 10 @j
    aclgraph.reset seq 11 @e1
    aclgraph.reset seq 12 @e2
    aclgraph.reset seq 13 @j
  }
  aclgraph.stream @s1 {
    aclgraph.wait seq 3 @e1
    aclgraph.launch seq 4 @c blocks 8
    aclgraph.record seq 5 @e2
    aclgraph.placeholder seq 8
    aclgraph.record seq 9 @j
  }
}

// CHECK-LABEL: aclgraph.model @q cores(aic = 24, aiv = 48) {
// CHECK:      sk.kernel @q_sk0 mix_aic_1_2 blocks 24 queue slots 2 {
// CHECK-NEXT:   %[[T0:[0-9]+]] = sk.subtask @v blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:   sk.wait_flag flag 15 on aic
// CHECK-NEXT:   %[[T2:[0-9]+]] = sk.subtask @c blocks 24 offset 1 from @s0 seq 2 on aic after %[[T0]]
// CHECK-NEXT:   %[[T6:[0-9]+]] = sk.subtask @c blocks 8 offset 1 from @s1 seq 4 on aic after %[[T0]]
// CHECK-NEXT:   sk.barrier all_aic
// CHECK-NEXT:   sk.set_flag mode 2 flag 15 pipe fix on aic
// CHECK-NEXT:   sk.notify @j_cell slot 1 on aic
// CHECK-NEXT:   sk.barrier all_aiv
// CHECK-NEXT:   sk.set_flag mode 2 flag 15 pipe mte3 on aiv
// CHECK-NEXT:   sk.wait_flag flag 15 on aiv
// CHECK-NEXT:   %[[T15:[0-9]+]] = sk.subtask @v blocks 16 offset 2 from @s0 seq 7 on aiv after %[[T2]], %[[T6]]
// CHECK-NEXT: }

// -----

// A chain: the class-pair barrier after a notify repeats the full barrier before it
// (nothing ran in between), so it goes; the barrier before the notify stays (docs/design.md §3 (f)).
aclgraph.model @n cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.kernel @x mix_aic_1_1 params 0
  aclgraph.kernel @o aiv_only params 0 not_sk_capable
  aclgraph.event @e1
  aclgraph.event @j
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @x blocks 16
    aclgraph.record seq 1 @e1
    aclgraph.launch seq 2 @x blocks 8
    aclgraph.launch seq 3 @v blocks 8
    aclgraph.wait seq 7 @j
    aclgraph.reset seq 8 @e1
    aclgraph.reset seq 9 @j
  }
  aclgraph.stream @s1 {
    aclgraph.wait seq 4 @e1
    aclgraph.launch seq 5 @o blocks 4
    aclgraph.record seq 6 @j
  }
}


// CHECK-LABEL: aclgraph.model @n cores(aic = 24, aiv = 48) {
// CHECK:      sk.kernel @n_sk0 mix_aic_1_1 blocks 16 chain slots 2 {
// CHECK-NEXT:   %[[T0:[0-9]+]] = sk.subtask @x blocks 16 offset 1 from @s0 seq 0 on mix
// CHECK-NEXT:   sk.barrier sync_all
// CHECK-NEXT:   sk.notify @e1_cell slot 1 on aic
// CHECK-NEXT:   %[[T4:[0-9]+]] = sk.subtask @x blocks 8 offset 2 from @s0 seq 2 on mix after %[[T0]]
// CHECK-NEXT:   sk.barrier sync_all
// CHECK-NEXT:   %[[T6:[0-9]+]] = sk.subtask @v blocks 8 offset 2 from @s0 seq 3 on aiv after %[[T4]]
// CHECK-NEXT: }
