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
// STAGED-NEXT:   sk.subtask id 0 @v blocks 8 offset 1 from @s0 seq 0 on aiv
// STAGED-NEXT:   sk.depend_barrier id 1 aiv -> aiv on aiv
// STAGED-NEXT:   sk.subtask id 2 @v blocks 16 offset 1 from @s0 seq 1 on aiv after [0]
// STAGED-NEXT:   sk.depend_barrier id 3 aiv -> aic on mix
// STAGED-NEXT:   sk.subtask id 4 @c blocks 16 offset 1 from @s0 seq 2 on aic after [2]
// STAGED-NEXT:   sk.depend_barrier id 5 aic -> aic on aic
// STAGED-NEXT:   sk.subtask id 6 @c blocks 4 offset 1 from @s0 seq 3 on aic after [4]
// STAGED-NEXT:   sk.depend_barrier id 7 aic -> mix on mix
// STAGED-NEXT:   sk.subtask id 8 @x blocks 16 offset 1 from @s0 seq 4 on mix after [6]
// STAGED-NEXT:   sk.depend_barrier id 9 mix -> aiv on mix
// STAGED-NEXT:   sk.subtask id 10 @v blocks 16 offset 1 from @s0 seq 5 on aiv after [8]
// STAGED-NEXT: }

// After LowerClassBarrier: each depend is its barrier
// AFTER:      sk.kernel @m_sk0 mix_aic_1_1 blocks 16 chain slots 1 {
// AFTER-NEXT:   sk.subtask id 0 @v blocks 8 offset 1 from @s0 seq 0 on aiv
// AFTER-NEXT:   sk.barrier id 1 all_aiv
// AFTER-NEXT:   sk.subtask id 2 @v blocks 16 offset 1 from @s0 seq 1 on aiv after [0]
// AFTER-NEXT:   sk.barrier id 3 sync_all
// AFTER-NEXT:   sk.subtask id 4 @c blocks 16 offset 1 from @s0 seq 2 on aic after [2]
// AFTER-NEXT:   sk.barrier id 5 all_aic
// AFTER-NEXT:   sk.subtask id 6 @c blocks 4 offset 1 from @s0 seq 3 on aic after [4]
// AFTER-NEXT:   sk.barrier id 7 sync_all
// AFTER-NEXT:   sk.subtask id 8 @x blocks 16 offset 1 from @s0 seq 4 on mix after [6]
// AFTER-NEXT:   sk.barrier id 9 sync_all
// AFTER-NEXT:   sk.subtask id 10 @v blocks 16 offset 1 from @s0 seq 5 on aiv after [8]
// AFTER-NEXT: }
