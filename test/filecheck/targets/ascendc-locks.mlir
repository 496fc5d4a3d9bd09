// RUN: sk-opt %s -p superkernel-pipeline -t ascendc | filecheck %s
// RUN: sk-opt %s -p 'superkernel-pipeline,sk-check' > /dev/null

// GM-lock helpers in the entry: a notify (block 0 of the producer's type stores 1), a
// wait (block 0 of the consumer's type polls), and the reset of the wait lock at exit.
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

// CHECK:      template <bool aic_flag>
// CHECK-NEXT: __aicore__ inline void NotifyFunc(GM_ADDR notify_lock_addr)
// CHECK:      __aicore__ inline void ResetFunc(GM_ADDR lock_addr)
// CHECK:      __aicore__ inline void WaitFunc(GM_ADDR wait_lock_addr)
// CHECK:      v_middle(1);
// CHECK:          // begin inter ops barrier
// CHECK-NEXT:     if ASCEND_IS_AIV {
// CHECK-NEXT:         ffts_cross_core_sync(PIPE_MTE3, AscendC::GetffstMsg(0x0, AscendC::SYNC_AIV_ONLY_ALL));
// CHECK-NEXT:         wait_flag_dev(AscendC::SYNC_AIV_ONLY_ALL);
// CHECK-NEXT:     }
// CHECK-NEXT:     if ASCEND_IS_AIV {
// CHECK-NEXT:         NotifyFunc<false>(param_base[1]);
// CHECK-NEXT:     }
// CHECK:          if ASCEND_IS_AIV {
// CHECK-NEXT:         WaitFunc<false>(param_base[2]);
// CHECK-NEXT:     }
// CHECK:              v_middle(2);
// CHECK:          if ASCEND_IS_AIV {
// CHECK-NEXT:         ResetFunc<false>(param_base[2]);
// CHECK-NEXT:     }
// CHECK-NEXT: }
