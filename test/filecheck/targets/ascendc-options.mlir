// RUN: sk-opt %s -p 'superkernel-pipeline{options="func-align=256:preload-code=max:split-mode=1"}' -t ascendc | filecheck %s --check-prefix=ALIGN
// RUN: sk-opt %s -p 'superkernel-pipeline{options="func-align=0:preload-code=none"}' -t ascendc | filecheck %s --check-prefix=NOALIGN
// RUN: sk-opt %s -p 'superkernel-pipeline{options="debug-sync-all=1:preload-code=none:split-mode=1"}' -t ascendc | filecheck %s --check-prefix=DSYNC
// RUN: sk-opt %s -p 'superkernel-pipeline{options="dcci-before-kernel-start=a:dcci-after-kernel-end=b:preload-code=none:split-mode=1"}' -t ascendc | filecheck %s --check-prefix=DCCI
// RUN: sk-opt %s -p 'superkernel-pipeline{options="profiling=1:preload-code=none:split-mode=1"}' -t ascendc | filecheck %s --check-prefix=PROF
// RUN: sk-opt %s -p 'superkernel-pipeline{options="profiling=1:debug-sync-all=1:dcci-before-kernel-start=a"},sk-check' > /dev/null

// One emitted entry per option, on a two-kernel AIV chain. (Early-start, stream fusion,
// feed-sync-all, sync-mode=data and per-func preloads have their own files.)
aclgraph.model @o cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params 0 code_bytes 4096
  aclgraph.kernel @b aiv_only params 0
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @a blocks 48
    aclgraph.launch seq 1 @b blocks 8
  }
}

// func-align=256 aligns the entry; preload-code=max is one PreLoad(8) per core type at the
// top; split-mode=1 calls the sub-kernel directly.
// ALIGN:      extern "C" __aicore__ void a_middle(uint64_t args_offset);
// ALIGN-NOT:  a_middle_split1
// ALIGN:      extern "C" __global__ __attribute__((aligned(256))) __aicore__ void auto_gen_o_sk0_kernel(void)
// ALIGN:          if ASCEND_IS_AIV {
// ALIGN-NEXT:         AscendC::PreLoad(8);
// ALIGN-NEXT:     }
// ALIGN:              a_middle(1);
// ALIGN-NOT:      preload(

// NOALIGN: extern "C" __global__ __aicore__ void auto_gen_o_sk0_kernel(void)
// NOALIGN-NOT: PreLoad

// debug-sync-all: the SuperKernel type's hard sync after every call (here the AIV-only one).
// DSYNC:              a_middle(1);
// DSYNC-NEXT:     }
// DSYNC-NEXT: }
// DSYNC-NEXT: // begin inter ops barrier
// DSYNC-NEXT: if ASCEND_IS_AIV {
// DSYNC-NEXT:     ffts_cross_core_sync(PIPE_MTE3, AscendC::GetffstMsg(0x0, AscendC::SYNC_AIV_ONLY_ALL));
// DSYNC-NEXT:     wait_flag_dev(AscendC::SYNC_AIV_ONLY_ALL);
// DSYNC:              b_middle(1);
// DSYNC-NEXT:     }
// DSYNC-NEXT: }
// DSYNC-NEXT: // begin inter ops barrier
// DSYNC-NEXT: if ASCEND_IS_AIV {
// DSYNC-NEXT:     ffts_cross_core_sync(PIPE_MTE3, AscendC::GetffstMsg(0x0, AscendC::SYNC_AIV_ONLY_ALL));

// The dcci lists: a whole data-cache clean before `a`, after `b` (by sub-kernel symbol too).
// DCCI:      if ASCEND_IS_AIV {
// DCCI-NEXT:     pipe_barrier(PIPE_ALL);
// DCCI-NEXT:     dcci((__gm__ uint64_t *)0, cache_line_t::ENTIRE_DATA_CACHE, dcci_dst_t::CACHELINE_OUT);
// DCCI-NEXT: }
// DCCI:              a_middle(1);
// DCCI:              b_middle(1);
// DCCI-NEXT:     }
// DCCI-NEXT: }
// DCCI-NEXT: if ASCEND_IS_AIV {
// DCCI-NEXT:     pipe_barrier(PIPE_ALL);
// DCCI-NEXT:     dcci((__gm__ uint64_t *)0, cache_line_t::ENTIRE_DATA_CACHE, dcci_dst_t::CACHELINE_OUT);

// profiling=1: the helpers, an init and a start record per core type, a record around each
// call on the cores that run it, and the end record; the buffer and the task id are the two
// last argument slots.
// PROF:      __aicore__ inline void InitProfiling(GM_ADDR base, GM_ADDR task_id)
// PROF:      __aicore__ inline void RecordProfiling(GM_ADDR base, uint32_t index, uint32_t type, bool end)
// PROF:          InitProfiling<false>(param_base[1], param_base[2]);
// PROF-NEXT:     RecordProfiling<false>(param_base[1], 0, 0x0, false);
// PROF:          if (AscendC::GetBlockIdx() < 48) {
// PROF-NEXT:         RecordProfiling<false>(param_base[1], 1, 0x8, false);
// PROF-NEXT:         a_middle(1);
// PROF-NEXT:         RecordProfiling<false>(param_base[1], 1, 0x8, true);
// PROF:              RecordProfiling<false>(param_base[1], 2, 0x8, true);
// PROF:          RecordProfiling<false>(param_base[1], 0, 0x0, true);
