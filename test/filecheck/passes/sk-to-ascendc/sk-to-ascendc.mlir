// RUN: sk-opt %s -p 'sk-to-ascendc{options="split-mode=1"}' | filecheck %s

// One ascendc.source per sk.kernel (which stays): declarations, the entry with its core-type
// and block guards, one guarded call per sub-task, the barrier in place.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @proj aic_only params(in)
  sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 5 {
    %0 = sk.subtask @norm blocks 40 offset 1 from @s0 seq 0 on aiv
    sk.barrier sync_all
    %2 = sk.subtask @proj blocks 24 offset 3 from @s0 seq 1 on aic after %0
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 5 {
// CHECK-NEXT:  %[[T0:[0-9]+]] = sk.subtask @norm blocks 40 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  sk.barrier sync_all
// CHECK-NEXT:  %[[T2:[0-9]+]] = sk.subtask @proj blocks 24 offset 3 from @s0 seq 1 on aic after %[[T0]]
// CHECK-NEXT:  }
// CHECK-LABEL: ascendc.source @m_sk0 mix_aic_1_2 {
// CHECK-NEXT:  ascendc.lock_helpers
// CHECK-NEXT:  ascendc.declare "norm_middle" copies 1
// CHECK-NEXT:  ascendc.declare "proj_middle" copies 1
// CHECK-NEXT:  ascendc.entry "auto_gen_m_sk0_kernel" align 512 {
// CHECK-NEXT:  ascendc.ffts_base
// CHECK-NEXT:  ascendc.guarded_call "norm_middle" offset 1 copies 1 on aiv logical 40 note "begin func call of sub operator norm (seq 0)"
// CHECK-NEXT:  ascendc.comment "begin inter ops barrier"
// CHECK-NEXT:  ascendc.sync_all
// CHECK-NEXT:  ascendc.guarded_call "proj_middle" offset 3 copies 1 on aic block 24 note "begin func call of sub operator proj (seq 1)"
// CHECK-NEXT:  }
// CHECK-NEXT:  }
