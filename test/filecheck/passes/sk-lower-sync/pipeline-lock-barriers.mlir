// RUN: sk-opt %s -p 'sk-form-scopes,sk-outline,sk-place-sync' | filecheck %s --check-prefix=STAGED
// RUN: sk-opt %s -p 'sk-form-scopes,sk-outline,sk-place-sync,sk-lower-sync{patterns="LowerLockRelease,LowerLockAcquire"}' | filecheck %s --check-prefix=AFTER

// LowerLockRelease, LowerLockAcquire: before an in-kernel notify, sk.depend_lock_release <producer class>; after
// an in-kernel wait, sk.depend_lock_acquire <consumer class>. The pattern gives each a barrier
// over every core of that class (docs/design.md §3 (f)-(g)); the class barriers stay depends here.
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

// Before: the depend ops sk-place-sync places (each takes the ids of the ops its rule gives)
// STAGED:      sk.kernel @locks_sk0 mix_aic_1_2 blocks 8 chain slots 3 {
// STAGED-NEXT:   sk.subtask id 0 @v blocks 16 offset 1 from @s0 seq 0 on aiv
// STAGED-NEXT:   sk.depend_lock_release id 1 aiv on aiv
// STAGED-NEXT:   sk.notify id 2 @e1_cell slot 1 on aiv
// STAGED-NEXT:   sk.depend_barrier id 3 aiv -> aic on mix
// STAGED-NEXT:   sk.subtask id 4 @c blocks 8 offset 2 from @s0 seq 2 on aic after [0]
// STAGED-NEXT:   sk.depend_barrier id 5 aic -> aiv on mix
// STAGED-NEXT:   sk.wait_lock id 6 @e2_cell slot 2 on aiv
// STAGED-NEXT:   sk.depend_lock_acquire id 7 aiv on aiv
// STAGED-NEXT:   sk.subtask id 8 @v blocks 16 offset 2 from @s0 seq 6 on aiv after [4]
// STAGED-NEXT:   sk.reset_lock id 9 @e2_cell slot 2 on aiv
// STAGED-NEXT: }

// After LowerLockRelease, LowerLockAcquire: lock_release / lock_acquire are all_aiv barriers at their ids
// AFTER:      sk.kernel @locks_sk0 mix_aic_1_2 blocks 8 chain slots 3 {
// AFTER-NEXT:   sk.subtask id 0 @v blocks 16 offset 1 from @s0 seq 0 on aiv
// AFTER-NEXT:   sk.barrier id 1 all_aiv
// AFTER-NEXT:   sk.notify id 2 @e1_cell slot 1 on aiv
// AFTER-NEXT:   sk.depend_barrier id 3 aiv -> aic on mix
// AFTER-NEXT:   sk.subtask id 4 @c blocks 8 offset 2 from @s0 seq 2 on aic after [0]
// AFTER-NEXT:   sk.depend_barrier id 5 aic -> aiv on mix
// AFTER-NEXT:   sk.wait_lock id 6 @e2_cell slot 2 on aiv
// AFTER-NEXT:   sk.barrier id 7 all_aiv
// AFTER-NEXT:   sk.subtask id 8 @v blocks 16 offset 2 from @s0 seq 6 on aiv after [4]
// AFTER-NEXT:   sk.reset_lock id 9 @e2_cell slot 2 on aiv
// AFTER-NEXT: }
