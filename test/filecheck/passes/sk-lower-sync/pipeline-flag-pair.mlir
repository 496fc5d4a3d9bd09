// RUN: sk-opt %s -p 'sk-form-scopes,sk-outline,sk-place-sync' | filecheck %s --check-prefix=STAGED
// RUN: sk-opt %s -p 'sk-form-scopes,sk-outline,sk-place-sync,sk-lower-sync{patterns="LowerFlagSignal,LowerFlagAwait"}' | filecheck %s --check-prefix=AFTER

// LowerFlagSignal, LowerFlagAwait: in a queue SuperKernel a dependency across core types is a mode-2 flag pair,
// placed by the queue plan as two depends: sk.depend_flag_signal F on the producer's core type
// after its producer barrier, sk.depend_flag_await F on the consumer's before the consumer. The
// pattern sets from PIPE_FIX on the AIC and from PIPE_MTE3 on the AIVs; the producer barriers
// (sk.depend_barrier aic -> aic / aiv -> aiv) stay depends here.
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

// Before: the depend ops sk-place-sync places (each takes the ids of the ops its rule gives)
// STAGED:      sk.kernel @q_sk0 mix_aic_1_2 blocks 24 queue slots 2 {
// STAGED-NEXT:   sk.subtask id 0 @v blocks 48 offset 1 from @s0 seq 0 on aiv
// STAGED-NEXT:   sk.depend_flag_await id 1 flag 15 on aic
// STAGED-NEXT:   sk.subtask id 2 @c blocks 24 offset 1 from @s0 seq 2 on aic after [0]
// STAGED-NEXT:   sk.depend_barrier id 3 aic -> aic on aic
// STAGED-NEXT:   sk.depend_flag_signal id 4 flag 15 on aic
// STAGED-NEXT:   sk.depend_flag_await id 5 flag 15 on aic
// STAGED-NEXT:   sk.subtask id 6 @c blocks 8 offset 1 from @s1 seq 4 on aic after [0]
// STAGED-NEXT:   sk.depend_barrier id 7 aic -> aic on aic
// STAGED-NEXT:   sk.depend_flag_signal id 8 flag 15 on aic
// STAGED-NEXT:   sk.notify id 9 @j_cell slot 1 on aic
// STAGED-NEXT:   sk.depend_barrier id 10 aiv -> aiv on aiv
// STAGED-NEXT:   sk.depend_flag_signal id 11 flag 15 on aiv
// STAGED-NEXT:   sk.depend_flag_signal id 12 flag 15 on aiv
// STAGED-NEXT:   sk.depend_flag_await id 13 flag 15 on aiv
// STAGED-NEXT:   sk.depend_flag_await id 14 flag 15 on aiv
// STAGED-NEXT:   sk.subtask id 15 @v blocks 16 offset 2 from @s0 seq 7 on aiv after [2, 6]
// STAGED-NEXT: }

// After LowerFlagSignal, LowerFlagAwait: the flag halves are sk.set_flag / sk.wait_flag at their ids
// AFTER:      sk.kernel @q_sk0 mix_aic_1_2 blocks 24 queue slots 2 {
// AFTER-NEXT:   sk.subtask id 0 @v blocks 48 offset 1 from @s0 seq 0 on aiv
// AFTER-NEXT:   sk.wait_flag id 1 flag 15 on aic
// AFTER-NEXT:   sk.subtask id 2 @c blocks 24 offset 1 from @s0 seq 2 on aic after [0]
// AFTER-NEXT:   sk.depend_barrier id 3 aic -> aic on aic
// AFTER-NEXT:   sk.set_flag id 4 mode 2 flag 15 pipe fix on aic
// AFTER-NEXT:   sk.wait_flag id 5 flag 15 on aic
// AFTER-NEXT:   sk.subtask id 6 @c blocks 8 offset 1 from @s1 seq 4 on aic after [0]
// AFTER-NEXT:   sk.depend_barrier id 7 aic -> aic on aic
// AFTER-NEXT:   sk.set_flag id 8 mode 2 flag 15 pipe fix on aic
// AFTER-NEXT:   sk.notify id 9 @j_cell slot 1 on aic
// AFTER-NEXT:   sk.depend_barrier id 10 aiv -> aiv on aiv
// AFTER-NEXT:   sk.set_flag id 11 mode 2 flag 15 pipe mte3 on aiv
// AFTER-NEXT:   sk.set_flag id 12 mode 2 flag 15 pipe mte3 on aiv
// AFTER-NEXT:   sk.wait_flag id 13 flag 15 on aiv
// AFTER-NEXT:   sk.wait_flag id 14 flag 15 on aiv
// AFTER-NEXT:   sk.subtask id 15 @v blocks 16 offset 2 from @s0 seq 7 on aiv after [2, 6]
// AFTER-NEXT: }
