// RUN: sk-opt %s -p 'sk-form-scopes,sk-outline,sk-place-sync' | filecheck %s --check-prefix=STAGED
// RUN: sk-opt %s -p 'sk-form-scopes,sk-outline,sk-place-sync,sk-lower-sync{patterns="LowerClassBarrier"}' | filecheck %s --check-prefix=AFTER

// LowerClassBarrier: a chain SuperKernel's dependency between consecutive sub-tasks is an
// sk.depend_barrier <class before> -> <class after>, on the barrier's core types;
// the pattern picks the barrier of the class pair: aiv -> aiv all_aiv, aic -> aic all_aic, any
// other pair sync_all (one id in both programs).
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

// Before: the depend ops sk-place-sync places (each takes the ids of the ops its rule gives)
// STAGED:      sk.kernel @m_sk0 mix_aic_1_1 blocks 16 chain slots 1 {
// STAGED-NEXT:   %[[T0:[0-9]+]] = sk.subtask @v blocks 8 offset 1 from @s0 seq 0 on aiv
// STAGED-NEXT:   sk.depend_barrier aiv -> aiv on aiv
// STAGED-NEXT:   %[[T2:[0-9]+]] = sk.subtask @v blocks 16 offset 1 from @s0 seq 1 on aiv after %[[T0]]
// STAGED-NEXT:   sk.depend_barrier aiv -> aic on mix
// STAGED-NEXT:   %[[T4:[0-9]+]] = sk.subtask @c blocks 16 offset 1 from @s0 seq 2 on aic after %[[T2]]
// STAGED-NEXT:   sk.depend_barrier aic -> aic on aic
// STAGED-NEXT:   %[[T6:[0-9]+]] = sk.subtask @c blocks 4 offset 1 from @s0 seq 3 on aic after %[[T4]]
// STAGED-NEXT:   sk.depend_barrier aic -> mix on mix
// STAGED-NEXT:   %[[T8:[0-9]+]] = sk.subtask @x blocks 16 offset 1 from @s0 seq 4 on mix after %[[T6]]
// STAGED-NEXT:   sk.depend_barrier mix -> aiv on mix
// STAGED-NEXT:   %[[T10:[0-9]+]] = sk.subtask @v blocks 16 offset 1 from @s0 seq 5 on aiv after %[[T8]]
// STAGED-NEXT: }

// After LowerClassBarrier: each depend is its barrier
// AFTER:      sk.kernel @m_sk0 mix_aic_1_1 blocks 16 chain slots 1 {
// AFTER-NEXT:   %[[T0:[0-9]+]] = sk.subtask @v blocks 8 offset 1 from @s0 seq 0 on aiv
// AFTER-NEXT:   sk.barrier all_aiv
// AFTER-NEXT:   %[[T2:[0-9]+]] = sk.subtask @v blocks 16 offset 1 from @s0 seq 1 on aiv after %[[T0]]
// AFTER-NEXT:   sk.barrier sync_all
// AFTER-NEXT:   %[[T4:[0-9]+]] = sk.subtask @c blocks 16 offset 1 from @s0 seq 2 on aic after %[[T2]]
// AFTER-NEXT:   sk.barrier all_aic
// AFTER-NEXT:   %[[T6:[0-9]+]] = sk.subtask @c blocks 4 offset 1 from @s0 seq 3 on aic after %[[T4]]
// AFTER-NEXT:   sk.barrier sync_all
// AFTER-NEXT:   %[[T8:[0-9]+]] = sk.subtask @x blocks 16 offset 1 from @s0 seq 4 on mix after %[[T6]]
// AFTER-NEXT:   sk.barrier sync_all
// AFTER-NEXT:   %[[T10:[0-9]+]] = sk.subtask @v blocks 16 offset 1 from @s0 seq 5 on aiv after %[[T8]]
// AFTER-NEXT: }
