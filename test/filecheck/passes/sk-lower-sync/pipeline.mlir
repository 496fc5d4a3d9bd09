// RUN: sk-opt %s -p sk-form-scopes,sk-outline,sk-place-sync,sk-lower-sync | filecheck %s
// RUN: sk-opt %s -p 'superkernel-pipeline,sk-check' > /dev/null

// A chain SuperKernel: one barrier between consecutive sub-tasks, chosen by the class
// pair: aiv -> aiv all_aiv, aic -> aic all_aic, any other pair sync_all (in both
// programs, one id). Mix sub-tasks appear in both programs.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.kernel @c aic_only params 0
  aclgraph.kernel @x mix_aic_1_1 params 0
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @v blocks 8
    aclgraph.launch seq 1 @v blocks 16
    aclgraph.launch seq 2 @c blocks 16
    aclgraph.launch seq 3 @c blocks 4
    aclgraph.launch seq 4 @x blocks 16
    aclgraph.launch seq 5 @v blocks 16
  }
}

// CHECK:      sk.kernel @m_sk0 mix_aic_1_1 blocks 16 chain slots 1 {
// CHECK-NEXT:   %[[T0:[0-9]+]] = sk.subtask @v blocks 8 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:   sk.barrier all_aiv
// CHECK-NEXT:   %[[T2:[0-9]+]] = sk.subtask @v blocks 16 offset 1 from @s0 seq 1 on aiv after %[[T0]]
// CHECK-NEXT:   sk.barrier sync_all
// CHECK-NEXT:   %[[T4:[0-9]+]] = sk.subtask @c blocks 16 offset 1 from @s0 seq 2 on aic after %[[T2]]
// CHECK-NEXT:   sk.barrier all_aic
// CHECK-NEXT:   %[[T6:[0-9]+]] = sk.subtask @c blocks 4 offset 1 from @s0 seq 3 on aic after %[[T4]]
// CHECK-NEXT:   sk.barrier sync_all
// CHECK-NEXT:   %[[T8:[0-9]+]] = sk.subtask @x blocks 16 offset 1 from @s0 seq 4 on mix after %[[T6]]
// CHECK-NEXT:   sk.barrier sync_all
// CHECK-NEXT:   %[[T10:[0-9]+]] = sk.subtask @v blocks 16 offset 1 from @s0 seq 5 on aiv after %[[T8]]
// CHECK-NEXT: }

// -----

// GM locks: an in-kernel notify follows a full barrier of the producer's class; an
// in-kernel wait is followed by a barrier of the consumer's class; resets run at exit.
aclgraph.model @locks cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.kernel @c aic_only params 0
  aclgraph.kernel @o aic_only params 0 not_sk_capable
  aclgraph.event @e1
  aclgraph.event @e2
  aclgraph.event @j
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @v blocks 16
    aclgraph.record seq 1 @e1
    aclgraph.launch seq 2 @c blocks 8
    aclgraph.wait seq 5 @e2
    aclgraph.launch seq 6 @v blocks 16
    aclgraph.wait seq 9 @j
    aclgraph.reset seq 10 @e1
    aclgraph.reset seq 11 @e2
    aclgraph.reset seq 12 @j
  }
  aclgraph.stream @s1 {
    aclgraph.launch seq 3 @o blocks 4
    aclgraph.record seq 4 @e2
    aclgraph.wait seq 7 @e1
    aclgraph.record seq 8 @j
  }
}

// CHECK:      sk.kernel @locks_sk0 mix_aic_1_2 blocks 8 chain slots 3 {
// CHECK-NEXT:   %[[T0:[0-9]+]] = sk.subtask @v blocks 16 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:   sk.barrier all_aiv
// CHECK-NEXT:   sk.notify @e1_cell slot 1 on aiv
// CHECK-NEXT:   sk.barrier sync_all
// CHECK-NEXT:   %[[T4:[0-9]+]] = sk.subtask @c blocks 8 offset 2 from @s0 seq 2 on aic after %[[T0]]
// CHECK-NEXT:   sk.barrier sync_all
// CHECK-NEXT:   %[[T6:[0-9]+]] = sk.wait_lock @e2_cell slot 2 on aiv
// CHECK-NEXT:   sk.barrier all_aiv
// CHECK-NEXT:   %[[T8:[0-9]+]] = sk.subtask @v blocks 16 offset 2 from @s0 seq 6 on aiv after %[[T4]]
// CHECK-NEXT:   sk.reset_lock @e2_cell slot 2 on aiv
// CHECK-NEXT: }
