// RUN: sk-opt %s -p 'sk-form-scopes{options="early-start=1"},sk-outline{options="early-start=1"},sk-place-sync{options="early-start=1"}' | filecheck %s --check-prefix=STAGED
// RUN: sk-opt %s -p 'sk-form-scopes{options="early-start=1"},sk-outline{options="early-start=1"},sk-place-sync{options="early-start=1"},sk-lower-sync{patterns="LowerEarlyStartHandshake"}' | filecheck %s --check-prefix=AFTER

// LowerEarlyStartHandshake: with early-start=1 each dependency of a chain is an
// sk.depend_early_start <class before> -> <class after>, on the core types that take part: on each core type
// the pattern gives its set (if it runs the sub-task before; `set_idle N of C`: the sub-kernel
// sets itself, so the cores of class C set from block N on) and its wait with
// cfg = 4 x class(before) + class(after) (aic 0, aiv 1, mix 2; `wait_idle N`: the sub-kernel
// after waits itself). Every set of a handshake comes before its waits, numbered from the depend's id.
aclgraph.model @es cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params 0 early_start(set)
  aclgraph.kernel @b aiv_only params 0 early_start(wait)
  aclgraph.kernel @c aic_only params 0
  aclgraph.kernel @x mix_aic_1_1 params 0 early_start(set, wait)
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @a blocks 16
    aclgraph.launch seq 1 @b blocks 8
    aclgraph.launch seq 2 @c blocks 24
    aclgraph.launch seq 3 @x blocks 12
  }
}

// Before: the depend ops sk-place-sync places (each takes the ids of the ops its rule gives)
// STAGED:      sk.kernel @es_sk0 mix_aic_1_1 blocks 24 chain slots 1 options "early-start=1" {
// STAGED-NEXT:   %[[T0:[0-9]+]] = sk.subtask @a blocks 16 offset 1 from @s0 seq 0 on aiv
// STAGED-NEXT:   sk.depend_early_start aiv -> aiv set_idle 16 of aiv wait_idle 8 on mix
// STAGED-NEXT:   %[[T4:[0-9]+]] = sk.subtask @b blocks 8 offset 1 from @s0 seq 1 on aiv after %[[T0]]
// STAGED-NEXT:   sk.depend_early_start aiv -> aic on mix
// STAGED-NEXT:   %[[T8:[0-9]+]] = sk.subtask @c blocks 24 offset 1 from @s0 seq 2 on aic after %[[T4]]
// STAGED-NEXT:   sk.depend_early_start aic -> mix wait_idle 12 on mix
// STAGED-NEXT:   %[[T12:[0-9]+]] = sk.subtask @x blocks 12 offset 1 from @s0 seq 3 on mix after %[[T8]]
// STAGED-NEXT:   sk.depend_early_start mix -> mix set_idle 12 of mix on mix
// STAGED-NEXT: }

// After LowerEarlyStartHandshake: the handshakes
// AFTER:      sk.kernel @es_sk0 mix_aic_1_1 blocks 24 chain slots 1 options "early-start=1" {
// AFTER-NEXT:   %[[T0:[0-9]+]] = sk.subtask @a blocks 16 offset 1 from @s0 seq 0 on aiv
// AFTER-NEXT:   sk.early_start_set on aiv idle 16
// AFTER-NEXT:   sk.early_start_wait cfg 5 on aic
// AFTER-NEXT:   sk.early_start_wait cfg 5 on aiv idle 8
// AFTER-NEXT:   %[[T4:[0-9]+]] = sk.subtask @b blocks 8 offset 1 from @s0 seq 1 on aiv after %[[T0]]
// AFTER-NEXT:   sk.early_start_set on aiv
// AFTER-NEXT:   sk.early_start_wait cfg 4 on aic
// AFTER-NEXT:   sk.early_start_wait cfg 4 on aiv
// AFTER-NEXT:   %[[T8:[0-9]+]] = sk.subtask @c blocks 24 offset 1 from @s0 seq 2 on aic after %[[T4]]
// AFTER-NEXT:   sk.early_start_set on aic
// AFTER-NEXT:   sk.early_start_wait cfg 2 on aic idle 12
// AFTER-NEXT:   sk.early_start_wait cfg 2 on aiv idle 12
// AFTER-NEXT:   %[[T12:[0-9]+]] = sk.subtask @x blocks 12 offset 1 from @s0 seq 3 on mix after %[[T8]]
// AFTER-NEXT:   sk.early_start_set on aic idle 12
// AFTER-NEXT:   sk.early_start_set on aiv idle 12
// AFTER-NEXT:   sk.early_start_wait cfg 10 on aic
// AFTER-NEXT:   sk.early_start_wait cfg 10 on aiv
// AFTER-NEXT: }
