// RUN: sk-opt %s -p 'sk-form-scopes,sk-outline{options="split-mode=1:preload-code=none"},sk-place-sync,sk-lower-sync,sk-to-ascendc{patterns="none"}' | filecheck %s --check-prefix=STAGED
// RUN: sk-opt %s -p 'sk-form-scopes,sk-outline{options="split-mode=1:preload-code=none"},sk-place-sync,sk-lower-sync,sk-to-ascendc{patterns="LowerFlag"}' | filecheck %s --check-prefix=FLAG
// RUN: sk-opt %s -p 'sk-form-scopes,sk-outline{options="split-mode=1:preload-code=none"},sk-place-sync,sk-lower-sync,sk-to-ascendc{patterns="LowerLock"}' | filecheck %s --check-prefix=LOCK
// RUN: sk-opt %s -p 'sk-form-scopes,sk-outline{options="split-mode=1:preload-code=none"},sk-place-sync,sk-lower-sync,sk-to-ascendc{patterns="LowerFlag,LowerLock,LowerSubtask,LowerBarrier"}' -t ascendc | filecheck %s --check-prefix=ALL

// The sync patterns of sk -> ascendc, one at a time, on a queue SuperKernel (two streams: a
// cube kernel hands over to a vector kernel through a cross-core flag pair; the vector side
// notifies the join event's cell). In a core function a statement has no core-type guard.
aclgraph.model @q cores(aic = 24, aiv = 48) {
  aclgraph.kernel @c aic_only params 0
  aclgraph.kernel @v aiv_only params 0
  aclgraph.event @e
  aclgraph.event @j
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @c blocks 8
    aclgraph.record seq 1 @e
    aclgraph.launch seq 2 @c blocks 8
    aclgraph.wait seq 6 @j
    aclgraph.reset seq 7 @e
    aclgraph.reset seq 8 @j
  }
  aclgraph.stream @s1 {
    aclgraph.wait seq 3 @e
    aclgraph.launch seq 4 @v blocks 16
    aclgraph.record seq 5 @j
  }
}

// STAGED:      ascendc.core_function "auto_gen_q_sk0_kernel_aic" aic {
// STAGED-NEXT:   %[[T0:[0-9]+]] = sk.subtask @c blocks 8 offset 1 from @s0 seq 0 on aic
// STAGED-NEXT:   sk.barrier all_aic
// STAGED-NEXT:   sk.set_flag mode 2 flag 15 pipe fix on aic
// STAGED-NEXT:   %[[T3:[0-9]+]] = sk.subtask @c blocks 8 offset 1 from @s0 seq 2 on aic
// STAGED-NEXT: }
// STAGED-NEXT: ascendc.core_function "auto_gen_q_sk0_kernel_aiv" aiv {
// STAGED-NEXT:   sk.wait_flag flag 15 on aiv
// STAGED-NEXT:   %[[T5:[0-9]+]] = sk.subtask @v blocks 16 offset 1 from @s1 seq 4 on aiv
// STAGED-NEXT:   sk.barrier all_aiv
// STAGED-NEXT:   sk.notify @j_cell slot 1 on aiv
// STAGED-NEXT: }

// LowerFlag: the pair's set on the producer's core type, its wait on the consumer's
// FLAG:      ascendc.core_function "auto_gen_q_sk0_kernel_aic" aic {
// FLAG:        sk.barrier all_aic
// FLAG-NEXT:   ascendc.cross_core_set fix mode 2 flag 15
// FLAG:      ascendc.core_function "auto_gen_q_sk0_kernel_aiv" aiv {
// FLAG-NEXT:   ascendc.cross_core_wait flag 15
// FLAG-NEXT:   %[[T5:[0-9]+]] = sk.subtask @v blocks 16 offset 1 from @s1 seq 4 on aiv

// LowerLock: the in-kernel notify of the join event's cell (its lock slot 1)
// LOCK:      ascendc.core_function "auto_gen_q_sk0_kernel_aiv" aiv {
// LOCK:        sk.barrier all_aiv
// LOCK-NEXT:   ascendc.notify_lock slot 1
// LOCK-NEXT: }

// Every pattern: no sk op is left and the entry prints
// ALL:      __aicore__ inline void auto_gen_q_sk0_kernel_aic(void)
// ALL:        ffts_cross_core_sync(PIPE_FIX, AscendC::GetffstMsg(0x2, 15));
// ALL:      __aicore__ inline void auto_gen_q_sk0_kernel_aiv(void)
// ALL-NEXT: {
// ALL:        wait_flag_dev(15);
// ALL:        NotifyFunc<false>(param_base[1]);
