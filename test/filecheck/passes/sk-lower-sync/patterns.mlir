// RUN: sk-opt %s -p 'sk-lower-sync{patterns="LowerClassBarrier"}' | filecheck %s

// patterns= applies only the named patterns: the class barriers are lowered, the lock release
// stays a depend (which every later pass refuses).
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @proj aic_only params(in)
  aclgraph.cell @c0
  sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 5 {
    %0 = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.depend_barrier aiv -> aic on mix
    %2 = sk.subtask @proj blocks 24 offset 3 from @s0 seq 1 on aic after %0
    sk.depend_lock_release aic on aic
    sk.notify @c0 slot 4 on aic after %2
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 5 {
// CHECK-NEXT:  %[[T0:[0-9]+]] = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  sk.barrier sync_all
// CHECK-NEXT:  %[[T2:[0-9]+]] = sk.subtask @proj blocks 24 offset 3 from @s0 seq 1 on aic after %[[T0]]
// CHECK-NEXT:  sk.depend_lock_release aic on aic
// CHECK-NEXT:  sk.notify @c0 slot 4 on aic after %[[T2]]
// CHECK-NEXT:  }
