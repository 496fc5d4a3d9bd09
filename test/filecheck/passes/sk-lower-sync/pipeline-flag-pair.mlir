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
// STAGED-NEXT:   %[[T0:[0-9]+]] = sk.subtask @v blocks 48 offset 1 from @s0 seq 0 on aiv
// STAGED-NEXT:   sk.depend_flag_await flag 15 on aic
// STAGED-NEXT:   %[[T2:[0-9]+]] = sk.subtask @c blocks 24 offset 1 from @s0 seq 2 on aic after %[[T0]]
// STAGED-NEXT:   sk.depend_barrier aic -> aic on aic
// STAGED-NEXT:   sk.depend_flag_signal flag 15 on aic
// STAGED-NEXT:   sk.depend_flag_await flag 15 on aic
// STAGED-NEXT:   %[[T6:[0-9]+]] = sk.subtask @c blocks 8 offset 1 from @s1 seq 4 on aic after %[[T0]]
// STAGED-NEXT:   sk.depend_barrier aic -> aic on aic
// STAGED-NEXT:   sk.depend_flag_signal flag 15 on aic
// STAGED-NEXT:   sk.notify @j_cell slot 1 on aic
// STAGED-NEXT:   sk.depend_barrier aiv -> aiv on aiv
// STAGED-NEXT:   sk.depend_flag_signal flag 15 on aiv
// STAGED-NEXT:   sk.depend_flag_signal flag 15 on aiv
// STAGED-NEXT:   sk.depend_flag_await flag 15 on aiv
// STAGED-NEXT:   sk.depend_flag_await flag 15 on aiv
// STAGED-NEXT:   %[[T15:[0-9]+]] = sk.subtask @v blocks 16 offset 2 from @s0 seq 7 on aiv after %[[T2]], %[[T6]]
// STAGED-NEXT: }

// After LowerFlagSignal, LowerFlagAwait: the flag halves are sk.set_flag / sk.wait_flag at their ids
// AFTER:      sk.kernel @q_sk0 mix_aic_1_2 blocks 24 queue slots 2 {
// AFTER-NEXT:   %[[T0:[0-9]+]] = sk.subtask @v blocks 48 offset 1 from @s0 seq 0 on aiv
// AFTER-NEXT:   sk.wait_flag flag 15 on aic
// AFTER-NEXT:   %[[T2:[0-9]+]] = sk.subtask @c blocks 24 offset 1 from @s0 seq 2 on aic after %[[T0]]
// AFTER-NEXT:   sk.depend_barrier aic -> aic on aic
// AFTER-NEXT:   sk.set_flag mode 2 flag 15 pipe fix on aic
// AFTER-NEXT:   sk.wait_flag flag 15 on aic
// AFTER-NEXT:   %[[T6:[0-9]+]] = sk.subtask @c blocks 8 offset 1 from @s1 seq 4 on aic after %[[T0]]
// AFTER-NEXT:   sk.depend_barrier aic -> aic on aic
// AFTER-NEXT:   sk.set_flag mode 2 flag 15 pipe fix on aic
// AFTER-NEXT:   sk.notify @j_cell slot 1 on aic
// AFTER-NEXT:   sk.depend_barrier aiv -> aiv on aiv
// AFTER-NEXT:   sk.set_flag mode 2 flag 15 pipe mte3 on aiv
// AFTER-NEXT:   sk.set_flag mode 2 flag 15 pipe mte3 on aiv
// AFTER-NEXT:   sk.wait_flag flag 15 on aiv
// AFTER-NEXT:   sk.wait_flag flag 15 on aiv
// AFTER-NEXT:   %[[T15:[0-9]+]] = sk.subtask @v blocks 16 offset 2 from @s0 seq 7 on aiv after %[[T2]], %[[T6]]
// AFTER-NEXT: }
