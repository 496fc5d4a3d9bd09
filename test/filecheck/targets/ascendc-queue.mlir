// RUN: sk-opt %s -p 'superkernel-pipeline{options="preload-code=none:split-mode=1"}' -t ascendc | filecheck %s
// RUN: sk-opt %s -p 'superkernel-pipeline,sk-check' > /dev/null

// A queue SuperKernel prints as two straight-line functions, one per core type, which the
// entry calls on that core type. A flag pair is
// `ffts_cross_core_sync(<pipe>, GetffstMsg(0x2, <id>))` after the producer type's all-core
// barrier and `wait_flag_dev(<id>)` before the consumer; the back-block notify is the GM-lock
// helper on block 0 of the AIC.
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

// CHECK: __aicore__ inline void auto_gen_q_sk0_kernel_aic(void)
// CHECK-NEXT: {
// CHECK-NEXT:     GM_ADDR *param_base = (GM_ADDR *)get_para_base();
// CHECK-NEXT:     wait_flag_dev(15);
// CHECK-NEXT:     // begin func call of sub operator c (seq 2)
// CHECK-NEXT:     if (get_block_idx() < 24) {
// CHECK-NEXT:         c_middle(1);
// CHECK-NEXT:     }
// CHECK-NEXT:     // begin func call of sub operator c (seq 4)
// CHECK-NEXT:     if (get_block_idx() < 8) {
// CHECK-NEXT:         c_middle(1);
// CHECK-NEXT:     }
// CHECK-NEXT:     // begin inter ops barrier
// CHECK-NEXT:     ffts_cross_core_sync(PIPE_FIX, AscendC::GetffstMsg(0x0, AscendC::SYNC_AIC_FLAG));
// CHECK-NEXT:     wait_flag_dev(AscendC::SYNC_AIC_FLAG);
// CHECK-NEXT:     ffts_cross_core_sync(PIPE_FIX, AscendC::GetffstMsg(0x2, 15));
// CHECK-NEXT:     NotifyFunc<true>(param_base[1]);
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: __aicore__ inline void auto_gen_q_sk0_kernel_aiv(void)
// CHECK-NEXT: {
// CHECK-NEXT:     // begin func call of sub operator v (seq 0)
// CHECK-NEXT:     if (AscendC::GetBlockIdx() < 48) {
// CHECK-NEXT:         v_middle(1);
// CHECK-NEXT:     }
// CHECK-NEXT:     // begin inter ops barrier
// CHECK-NEXT:     ffts_cross_core_sync(PIPE_MTE3, AscendC::GetffstMsg(0x0, AscendC::SYNC_AIV_ONLY_ALL));
// CHECK-NEXT:     wait_flag_dev(AscendC::SYNC_AIV_ONLY_ALL);
// CHECK-NEXT:     ffts_cross_core_sync(PIPE_MTE3, AscendC::GetffstMsg(0x2, 15));
// CHECK-NEXT:     wait_flag_dev(15);
// CHECK-NEXT:     // begin func call of sub operator v (seq 7)
// CHECK-NEXT:     if (AscendC::GetBlockIdx() < 16) {
// CHECK-NEXT:         v_middle(2);
// CHECK-NEXT:     }
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: extern "C" __global__ __attribute__((aligned(512))) __aicore__ void auto_gen_q_sk0_kernel(void)
// CHECK-NEXT: {
// CHECK-NEXT:     GM_ADDR *param_base = (GM_ADDR *)get_para_base();
// CHECK-NEXT:     GM_ADDR ffts_addr = param_base[0];
// CHECK-NEXT:     if (ffts_addr != nullptr) {
// CHECK-NEXT:         set_ffts_base_addr((uint64_t)ffts_addr);
// CHECK-NEXT:     }
// CHECK-NEXT:     if ASCEND_IS_AIC {
// CHECK-NEXT:         auto_gen_q_sk0_kernel_aic();
// CHECK-NEXT:     }
// CHECK-NEXT:     if ASCEND_IS_AIV {
// CHECK-NEXT:         auto_gen_q_sk0_kernel_aiv();
// CHECK-NEXT:     }
// CHECK-NEXT: }
