// RUN: sk-opt %s --split-input-file -p sk-form-scopes,sk-outline,sk-place-sync,sk-lower-sync | filecheck %s
// RUN: sk-opt %s --split-input-file -p 'superkernel-pipeline,sk-check' > /dev/null

// Stream fusion: @s0's `c` and @s1's `c` are unordered, so the SuperKernel is a queue:
// one program per core type, mix sub-tasks in both. Every dependency gets an all-core
// barrier of the producer's type after the producer, and across core types a mode-2 flag
// pair: a set after that barrier (PIPE_FIX from the AIC, PIPE_MTE3 from the AIVs) and a
// wait before the consumer. Flag ids come from 15 down; pairs of one direction share an
// id when their sets and waits come in the same order. `sk-prune-sync` then drops what the
// rest implies (see sk-prune-sync.mlir). @s1's suffix waits for the SuperKernel through a
// back block: the AIC notifies its cell after @s1's last member.
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
// CHECK-NEXT:   sk.barrier all_aic
// CHECK-NEXT:   sk.set_flag mode 2 flag 15 pipe fix on aic
// CHECK-NEXT:   sk.wait_flag flag 15 on aic
// CHECK-NEXT:   %[[T6:[0-9]+]] = sk.subtask @c blocks 8 offset 1 from @s1 seq 4 on aic after %[[T0]]
// CHECK-NEXT:   sk.barrier all_aic
// CHECK-NEXT:   sk.set_flag mode 2 flag 15 pipe fix on aic
// CHECK-NEXT:   sk.notify @j_cell slot 1 on aic
// CHECK-NEXT:   sk.barrier all_aiv
// CHECK-NEXT:   sk.set_flag mode 2 flag 15 pipe mte3 on aiv
// CHECK-NEXT:   sk.set_flag mode 2 flag 15 pipe mte3 on aiv
// CHECK-NEXT:   sk.wait_flag flag 15 on aiv
// CHECK-NEXT:   sk.wait_flag flag 15 on aiv
// CHECK-NEXT:   %[[T15:[0-9]+]] = sk.subtask @v blocks 16 offset 2 from @s0 seq 7 on aiv after %[[T2]], %[[T6]]
// CHECK-NEXT: }

// -----

// A mix producer of an aiv consumer: a barrier on the AIVs (same type) and an AIC -> AIV
// pair (the AIC half must finish too). Members declaring `sync_flags` keep those ids: the
// pairs take 9, the first id left from 15 down after 15 and 10. The copy on @s1 after
// its `v` needs it done on every AIV: the barrier before the back-block notify.
aclgraph.model @mixq cores(aic = 24, aiv = 48) {
  aclgraph.kernel @x mix_aic_1_2 params 0 sync_flags [15, 10]
  aclgraph.kernel @v aiv_only params 0
  aclgraph.event @e1
  aclgraph.event @j
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @x blocks 24
    aclgraph.record seq 1 @e1
    aclgraph.launch seq 2 @v blocks 48
    aclgraph.wait seq 7 @j
    aclgraph.reset seq 8 @e1
    aclgraph.reset seq 9 @j
  }
  aclgraph.stream @s1 {
    aclgraph.wait seq 3 @e1
    aclgraph.launch seq 4 @v blocks 8
    aclgraph.opaque seq 5 memcpy
    aclgraph.record seq 6 @j
  }
}

// CHECK-LABEL: aclgraph.model @mixq cores(aic = 24, aiv = 48) {
// CHECK:      sk.kernel @mixq_sk0 mix_aic_1_2 blocks 24 queue slots 2 {
// CHECK-NEXT:   %[[T0:[0-9]+]] = sk.subtask @x blocks 24 offset 1 from @s0 seq 0 on mix
// CHECK-NEXT:   sk.barrier all_aiv
// CHECK-NEXT:   sk.wait_flag flag 9 on aiv
// CHECK-NEXT:   %[[T3:[0-9]+]] = sk.subtask @v blocks 48 offset 1 from @s0 seq 2 on aiv after %[[T0]]
// CHECK-NEXT:   sk.wait_flag flag 9 on aiv
// CHECK-NEXT:   %[[T5:[0-9]+]] = sk.subtask @v blocks 8 offset 1 from @s1 seq 4 on aiv after %[[T0]]
// CHECK-NEXT:   sk.barrier all_aiv
// CHECK-NEXT:   sk.notify @mixq_sk0_back_s1 slot 1 on aiv
// CHECK-NEXT:   sk.barrier all_aic
// CHECK-NEXT:   sk.set_flag mode 2 flag 9 pipe fix on aic
// CHECK-NEXT:   sk.set_flag mode 2 flag 9 pipe fix on aic
// CHECK-NEXT: }
