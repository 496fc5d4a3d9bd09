// RUN: sk-opt %s --split-input-file -p sk-insert-debug | filecheck %s
// RUN: sk-opt %s --split-input-file -p 'sk-insert-debug,sk-check,sk-to-ascendc' -t ascendc | filecheck %s --check-prefix=CPP

// debug-cross-core-sync-check=1: after the mix sub-task @mm (its AIC and AIVs both run it),
// every core sets and waits each cross-core flag id 0-10 and 15, one mode-2 round each way per
// id; the aiv-only @norm gets none. Before a debug-sync-all barrier, after a dcci.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @mm mix_aic_1_2 params(in, out)
  aclgraph.kernel @norm aiv_only params(inout)
  sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 4 options "debug-cross-core-sync-check=1:debug-sync-all=1:debug-dcci-all=1" {
    sk.subtask id 0 @mm blocks 24 offset 1 from @s0 seq 0 on mix
    sk.barrier id 1 sync_all
    sk.subtask id 2 @norm blocks 48 offset 3 from @s0 seq 1 on aiv after [0]
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 4
// CHECK-NEXT:  sk.subtask id 0 @mm blocks 24 offset 1 from @s0 seq 0 on mix
// CHECK-NEXT:  sk.dcci id 1 on aic
// CHECK-NEXT:  sk.dcci id 2 on aiv
// CHECK-NEXT:  sk.set_flag id 3 mode 2 flag 0 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag id 4 mode 2 flag 0 pipe fix on aic
// CHECK-NEXT:  sk.wait_flag id 5 flag 0 on aic
// CHECK-NEXT:  sk.wait_flag id 6 flag 0 on aiv
// CHECK-NEXT:  sk.set_flag id 7 mode 2 flag 1 pipe mte3 on aiv
// CHECK:       sk.wait_flag id 46 flag 10 on aiv
// CHECK-NEXT:  sk.set_flag id 47 mode 2 flag 15 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag id 48 mode 2 flag 15 pipe fix on aic
// CHECK-NEXT:  sk.wait_flag id 49 flag 15 on aic
// CHECK-NEXT:  sk.wait_flag id 50 flag 15 on aiv
// CHECK-NEXT:  sk.barrier id 51 sync_all
// CHECK-NEXT:  sk.barrier id 52 sync_all
// CHECK-NEXT:  sk.subtask id 53 @norm blocks 48 offset 3 from @s0 seq 1 on aiv after [0]
// CHECK-NEXT:  sk.dcci id 54 on aiv
// CHECK-NEXT:  sk.barrier id 55 sync_all
// CHECK-NEXT:  }

// The entry: each set and wait written in the entry itself, under its core type's guard.
// CPP:           ffts_cross_core_sync(PIPE_MTE3, AscendC::GetffstMsg(0x2, 0));
// CPP-NEXT:  }
// CPP-NEXT:  if ASCEND_IS_AIC {
// CPP-NEXT:      ffts_cross_core_sync(PIPE_FIX, AscendC::GetffstMsg(0x2, 0));
// CPP-NEXT:  }
// CPP-NEXT:  if ASCEND_IS_AIC {
// CPP-NEXT:      wait_flag_dev(0);
// CPP-NEXT:  }
// CPP-NEXT:  if ASCEND_IS_AIV {
// CPP-NEXT:      wait_flag_dev(0);
// CPP-NEXT:  }
// CPP:           ffts_cross_core_sync(PIPE_FIX, AscendC::GetffstMsg(0x2, 15));
// CPP:           wait_flag_dev(15);
// CPP:           wait_flag_dev(15);
// CPP-NEXT:  }
// CPP-NEXT:  // begin inter ops barrier
// CPP-NEXT:  AscendC::SyncAll<false>();

// -----

// Without a mix sub-task nothing is added (and the option alone leaves the SuperKernel as it is).
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 3 options "debug-cross-core-sync-check=1" {
    sk.subtask id 0 @norm blocks 48 offset 1 from @s0 seq 0 on aiv
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 3 options "debug-cross-core-sync-check=1" {
// CHECK-NEXT:  sk.subtask id 0 @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  }
// CPP-NOT:   GetffstMsg(0x2
