// RUN: sk-opt %s -p 'superkernel-pipeline{options="early-start=1:preload-code=none:split-mode=1"}' -t ascendc | filecheck %s
// RUN: sk-opt %s -p 'superkernel-pipeline{options="early-start=1"},sk-check' > /dev/null

// The early-start handshake: the previous sub-task's core types call SetNextTaskStart
// (only the idle cores, `>= blocks`, when the sub-kernel sets itself), the config is
// stored, and both core types call WaitPreTaskEndImpl<cfg> (again only the idle cores of a
// sub-kernel that waits itself).
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

// CHECK: extern "C" __global__ __attribute__((aligned(512))) __aicore__ void auto_gen_es_sk0_kernel(void)
// CHECK: // begin func call of sub operator a (seq 0)
// CHECK: if ASCEND_IS_AIV {
// CHECK: if ASCEND_IS_AIV {
// CHECK: if (AscendC::GetBlockIdx() >= 16) {
// CHECK: AscendC::SetNextTaskStart();
// CHECK: g_super_kernel_early_start_config = 5;
// CHECK: if ASCEND_IS_AIC {
// CHECK: AscendC::WaitPreTaskEndImpl<5>();
// CHECK: if ASCEND_IS_AIV {
// CHECK: if (AscendC::GetBlockIdx() >= 8) {
// CHECK: AscendC::WaitPreTaskEndImpl<5>();
// CHECK: // begin func call of sub operator b (seq 1)
// CHECK: if ASCEND_IS_AIV {
// CHECK: if ASCEND_IS_AIV {
// CHECK: AscendC::SetNextTaskStart();
// CHECK: g_super_kernel_early_start_config = 4;
// CHECK: if ASCEND_IS_AIC {
// CHECK: AscendC::WaitPreTaskEndImpl<4>();
// CHECK: if ASCEND_IS_AIV {
// CHECK: AscendC::WaitPreTaskEndImpl<4>();
// CHECK: // begin func call of sub operator c (seq 2)
// CHECK: if ASCEND_IS_AIC {
// CHECK: if ASCEND_IS_AIC {
// CHECK: AscendC::SetNextTaskStart();
// CHECK: g_super_kernel_early_start_config = 2;
// CHECK: if ASCEND_IS_AIC {
// CHECK: if (get_block_idx() >= 12) {
// CHECK: AscendC::WaitPreTaskEndImpl<2>();
// CHECK: if ASCEND_IS_AIV {
// CHECK: if (get_block_idx() >= 12) {
// CHECK: AscendC::WaitPreTaskEndImpl<2>();
// CHECK: // begin func call of sub operator x (seq 3)
// CHECK: if ASCEND_IS_AIC {
// CHECK: if ASCEND_IS_AIV {
// CHECK: if ASCEND_IS_AIC {
// CHECK: if (get_block_idx() >= 12) {
// CHECK: AscendC::SetNextTaskStart();
// CHECK: if ASCEND_IS_AIV {
// CHECK: if (get_block_idx() >= 12) {
// CHECK: AscendC::SetNextTaskStart();
// CHECK: g_super_kernel_early_start_config = 10;
// CHECK: if ASCEND_IS_AIC {
// CHECK: AscendC::WaitPreTaskEndImpl<10>();
// CHECK: if ASCEND_IS_AIV {
// CHECK: AscendC::WaitPreTaskEndImpl<10>();
