// RUN: sk-opt %s -p 'sk-lower-sync{patterns="LowerClassBarrier"}' | filecheck %s

// patterns= applies only the named patterns: the class barriers are lowered, the lock release
// stays a depend (which every later pass refuses).
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @proj aic_only params(in)
  aclgraph.cell @c0
  sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 5 {
    sk.subtask id 0 @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.depend_barrier id 1 aiv -> aic on mix
    sk.subtask id 2 @proj blocks 24 offset 3 from @s0 seq 1 on aic after [0]
    sk.depend_lock_release id 3 aic on aic
    sk.notify id 4 @c0 slot 4 on aic after [2]
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 5 {
// CHECK-NEXT:  sk.subtask id 0 @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  sk.barrier id 1 sync_all
// CHECK-NEXT:  sk.subtask id 2 @proj blocks 24 offset 3 from @s0 seq 1 on aic after [0]
// CHECK-NEXT:  sk.depend_lock_release id 3 aic on aic
// CHECK-NEXT:  sk.notify id 4 @c0 slot 4 on aic after [2]
// CHECK-NEXT:  }
