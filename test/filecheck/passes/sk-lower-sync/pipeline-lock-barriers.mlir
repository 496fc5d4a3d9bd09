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
// STAGED-NEXT:   %[[T0:[0-9]+]] = sk.subtask @v blocks 16 offset 1 from @s0 seq 0 on aiv
// STAGED-NEXT:   sk.depend_lock_release aiv on aiv
// STAGED-NEXT:   sk.notify @e1_cell slot 1 on aiv
// STAGED-NEXT:   sk.depend_barrier aiv -> aic on mix
// STAGED-NEXT:   %[[T4:[0-9]+]] = sk.subtask @c blocks 8 offset 2 from @s0 seq 2 on aic after %[[T0]]
// STAGED-NEXT:   sk.depend_barrier aic -> aiv on mix
// STAGED-NEXT:   %[[T6:[0-9]+]] = sk.wait_lock @e2_cell slot 2 on aiv
// STAGED-NEXT:   sk.depend_lock_acquire aiv on aiv
// STAGED-NEXT:   %[[T8:[0-9]+]] = sk.subtask @v blocks 16 offset 2 from @s0 seq 6 on aiv after %[[T4]]
// STAGED-NEXT:   sk.reset_lock @e2_cell slot 2 on aiv
// STAGED-NEXT: }

// After LowerLockRelease, LowerLockAcquire: lock_release / lock_acquire are all_aiv barriers at their ids
// AFTER:      sk.kernel @locks_sk0 mix_aic_1_2 blocks 8 chain slots 3 {
// AFTER-NEXT:   %[[T0:[0-9]+]] = sk.subtask @v blocks 16 offset 1 from @s0 seq 0 on aiv
// AFTER-NEXT:   sk.barrier all_aiv
// AFTER-NEXT:   sk.notify @e1_cell slot 1 on aiv
// AFTER-NEXT:   sk.depend_barrier aiv -> aic on mix
// AFTER-NEXT:   %[[T4:[0-9]+]] = sk.subtask @c blocks 8 offset 2 from @s0 seq 2 on aic after %[[T0]]
// AFTER-NEXT:   sk.depend_barrier aic -> aiv on mix
// AFTER-NEXT:   %[[T6:[0-9]+]] = sk.wait_lock @e2_cell slot 2 on aiv
// AFTER-NEXT:   sk.barrier all_aiv
// AFTER-NEXT:   %[[T8:[0-9]+]] = sk.subtask @v blocks 16 offset 2 from @s0 seq 6 on aiv after %[[T4]]
// AFTER-NEXT:   sk.reset_lock @e2_cell slot 2 on aiv
// AFTER-NEXT: }
