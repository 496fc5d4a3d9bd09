// RUN: sk-opt %s -p 'superkernel-pipeline{options="feed-sync-all=1:debug-dcci-all=1:sync-mode=data:split-mode=2"}' -t ascendc | filecheck %s
// RUN: sk-opt %s -p 'superkernel-pipeline{options="feed-sync-all=1:debug-dcci-all=1:sync-mode=data:split-mode=2"},sk-check' > /dev/null

// Preloads (per-func, split dispatch on get_coreid() % 2 like the calls), a local pipe
// barrier between independent sub-tasks (sync-mode=data), a whole data-cache clean after
// every call (debug-dcci-all), and feed-sync-all: the workspace (the last arg slot) is
// zeroed by the AIVs before anything else; around the batch kernel `k` the active cores
// announce it and end it, the idle ones mirror its SyncAll rounds.
aclgraph.model @f cores(aic = 24, aiv = 48) {
  aclgraph.kernel @scale aiv_only params(inout) code_bytes 2048
  aclgraph.kernel @k aiv_only params(in, out) batch code_bytes 6000
  aclgraph.buffer @x bytes 4096
  aclgraph.buffer @y bytes 4096
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @scale blocks 48 args(@x)
    aclgraph.launch seq 1 @scale blocks 48 args(@y)
    aclgraph.launch seq 2 @k blocks 16 args(@x, @y)
  }
}

// CHECK: extern "C" __global__ __attribute__((aligned(512))) __aicore__ void auto_gen_f_sk0_kernel(void)
// CHECK-NEXT: {
// CHECK-NEXT:     GM_ADDR *param_base = (GM_ADDR *)get_para_base();
// CHECK-NEXT:     GM_ADDR ffts_addr = param_base[0];
// CHECK-NEXT:     if (ffts_addr != nullptr) {
// CHECK-NEXT:         set_ffts_base_addr((uint64_t)ffts_addr);
// CHECK-NEXT:     }
// CHECK-NEXT:     GM_ADDR workspace = param_base[5];
// CHECK-NEXT:     AscendC::g_superKernelAutoSyncAllConfigGmBaseAddr = workspace;
// CHECK-NEXT:     if ASCEND_IS_AIV {
// CHECK-NEXT:         AscendC::DuplicateImpl<uint32_t>((__ubuf__ uint32_t *)0, (uint32_t)0, 128);
// CHECK-NEXT:         AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
// CHECK-NEXT:         AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
// CHECK-NEXT:         for (uint64_t off = (uint64_t)AscendC::GetBlockIdx() * 512; off < 24576; off += (uint64_t)AscendC::GetBlockNum() * 512) {
// CHECK-NEXT:             copy_ubuf_to_gm(workspace + off, (__ubuf__ void *)0, 0, 1, 16, 1, 1);
// CHECK-NEXT:         }
// CHECK-NEXT:         AscendC::PipeBarrier<PIPE_ALL>();
// CHECK-NEXT:     }
// CHECK-NEXT:     if ASCEND_IS_AIV {
// CHECK-NEXT:         ffts_cross_core_sync(PIPE_MTE3, AscendC::GetffstMsg(0x0, AscendC::SYNC_AIV_ONLY_ALL));
// CHECK-NEXT:         wait_flag_dev(AscendC::SYNC_AIV_ONLY_ALL);
// CHECK-NEXT:     }
// CHECK-NEXT:     if ASCEND_IS_AIV {
// CHECK-NEXT:         if (AscendC::GetBlockIdx() < 48) {
// CHECK-NEXT:             uint8_t coreid = (uint8_t)get_coreid();
// CHECK-NEXT:             if ((coreid % 2) == 0) {
// CHECK-NEXT:                 preload((const void *)scale_middle, 1);
// CHECK-NEXT:             } else if ((coreid % 2) == 1) {
// CHECK-NEXT:                 preload((const void *)scale_middle_split1, 1);
// CHECK-NEXT:             }
// CHECK-NEXT:         }
// CHECK-NEXT:     }
// CHECK-NEXT:     // begin func call of sub operator scale (seq 0)
// CHECK-NEXT:     if ASCEND_IS_AIV {
// CHECK-NEXT:         if (AscendC::GetBlockIdx() < 48) {
// CHECK-NEXT:             uint8_t coreid = (uint8_t)get_coreid();
// CHECK-NEXT:             if ((coreid % 2) == 0) {
// CHECK-NEXT:                 scale_middle(1);
// CHECK-NEXT:             } else if ((coreid % 2) == 1) {
// CHECK-NEXT:                 scale_middle_split1(1);
// CHECK-NEXT:             }
// CHECK-NEXT:         }
// CHECK-NEXT:     }
// CHECK-NEXT:     if ASCEND_IS_AIV {
// CHECK-NEXT:         pipe_barrier(PIPE_ALL);
// CHECK-NEXT:         dcci((__gm__ uint64_t *)0, cache_line_t::ENTIRE_DATA_CACHE, dcci_dst_t::CACHELINE_OUT);
// CHECK-NEXT:     }
// CHECK-NEXT:     if ASCEND_IS_AIV {
// CHECK-NEXT:         if (AscendC::GetBlockIdx() < 16) {
// CHECK-NEXT:             uint8_t coreid = (uint8_t)get_coreid();
// CHECK-NEXT:             if ((coreid % 2) == 0) {
// CHECK-NEXT:                 preload((const void *)k_middle, 3);
// CHECK-NEXT:             } else if ((coreid % 2) == 1) {
// CHECK-NEXT:                 preload((const void *)k_middle_split1, 3);
// CHECK-NEXT:             }
// CHECK-NEXT:         }
// CHECK-NEXT:     }
// CHECK-NEXT:     // begin inter ops barrier
// CHECK-NEXT:     if ASCEND_IS_AIV {
// CHECK-NEXT:         pipe_barrier(PIPE_ALL);
// CHECK-NEXT:     }
// CHECK-NEXT:     // begin func call of sub operator scale (seq 1)
// CHECK-NEXT:     if ASCEND_IS_AIV {
// CHECK-NEXT:         if (AscendC::GetBlockIdx() < 48) {
// CHECK-NEXT:             uint8_t coreid = (uint8_t)get_coreid();
// CHECK-NEXT:             if ((coreid % 2) == 0) {
// CHECK-NEXT:                 scale_middle(2);
// CHECK-NEXT:             } else if ((coreid % 2) == 1) {
// CHECK-NEXT:                 scale_middle_split1(2);
// CHECK-NEXT:             }
// CHECK-NEXT:         }
// CHECK-NEXT:     }
// CHECK-NEXT:     if ASCEND_IS_AIV {
// CHECK-NEXT:         pipe_barrier(PIPE_ALL);
// CHECK-NEXT:         dcci((__gm__ uint64_t *)0, cache_line_t::ENTIRE_DATA_CACHE, dcci_dst_t::CACHELINE_OUT);
// CHECK-NEXT:     }
// CHECK-NEXT:     // begin inter ops barrier
// CHECK-NEXT:     if ASCEND_IS_AIV {
// CHECK-NEXT:         ffts_cross_core_sync(PIPE_MTE3, AscendC::GetffstMsg(0x0, AscendC::SYNC_AIV_ONLY_ALL));
// CHECK-NEXT:         wait_flag_dev(AscendC::SYNC_AIV_ONLY_ALL);
// CHECK-NEXT:     }
// CHECK-NEXT:     // begin func call of sub operator k (seq 2)
// CHECK-NEXT:     if ASCEND_IS_AIV {
// CHECK-NEXT:         AscendC::g_superKernelAutoSyncAllSyncIdx = 0;
// CHECK-NEXT:         AscendC::g_superKernelAutoSyncAllEnable = true;
// CHECK-NEXT:         AscendC::g_superKernelAutoSyncAllConfigGmAddr = workspace + 192;
// CHECK-NEXT:         if (AscendC::GetBlockIdx() < 16) {
// CHECK-NEXT:             uint8_t coreid = (uint8_t)get_coreid();
// CHECK-NEXT:             if ((coreid % 2) == 0) {
// CHECK-NEXT:                 k_middle(3);
// CHECK-NEXT:             } else if ((coreid % 2) == 1) {
// CHECK-NEXT:                 k_middle_split1(3);
// CHECK-NEXT:             }
// CHECK-NEXT:             AscendC::SuperKernelAutoSyncAllEndImpl();
// CHECK-NEXT:         }
// CHECK-NEXT:         if (AscendC::GetBlockIdx() >= 16) {
// CHECK-NEXT:             AscendC::SuperKernelAutoSyncAllComplementImpl();
// CHECK-NEXT:         }
// CHECK-NEXT:         AscendC::g_superKernelAutoSyncAllEnable = false;
// CHECK-NEXT:     }
// CHECK-NEXT:     if ASCEND_IS_AIV {
// CHECK-NEXT:         pipe_barrier(PIPE_ALL);
// CHECK-NEXT:         dcci((__gm__ uint64_t *)0, cache_line_t::ENTIRE_DATA_CACHE, dcci_dst_t::CACHELINE_OUT);
// CHECK-NEXT:     }
// CHECK-NEXT: }
