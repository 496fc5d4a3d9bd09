// RUN: sk-opt %s --split-input-file -p sk-insert-debug | filecheck %s
// RUN: sk-opt %s --split-input-file -p 'sk-insert-debug,sk-check,sk-to-ascendc' -t ascendc | filecheck %s --check-prefix=CPP

// debug-cross-core-sync-check=1: after the mix sub-task @mm (its AIC and AIVs both run it),
// every core sets and waits each cross-core flag id 0-10 and 15, one mode-2 round each way per
// id, then fills each counter to 15 credits and drains it; the aiv-only @norm gets none.
// Before a debug-sync-all barrier, after a dcci.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @mm mix_aic_1_2 params(in, out)
  aclgraph.kernel @norm aiv_only params(inout)
  sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 4 options "debug-cross-core-sync-check=1:debug-sync-all=1:debug-dcci-all=1" {
    %0 = sk.subtask @mm blocks 24 offset 1 from @s0 seq 0 on mix
    sk.barrier sync_all
    %2 = sk.subtask @norm blocks 48 offset 3 from @s0 seq 1 on aiv after %0
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 4
// CHECK-NEXT:  %[[T0:[0-9]+]] = sk.subtask @mm blocks 24 offset 1 from @s0 seq 0 on mix
// CHECK-NEXT:  sk.dcci on aic
// CHECK-NEXT:  sk.dcci on aiv
// CHECK-NEXT:  sk.set_flag mode 2 flag 0 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag mode 2 flag 0 pipe fix on aic
// CHECK-NEXT:  sk.wait_flag flag 0 on aic
// CHECK-NEXT:  sk.wait_flag flag 0 on aiv
// CHECK-NEXT:  sk.set_flag mode 2 flag 1 pipe mte3 on aiv
// CHECK:       sk.wait_flag flag 10 on aiv
// CHECK-NEXT:  sk.set_flag mode 2 flag 15 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag mode 2 flag 15 pipe fix on aic
// CHECK-NEXT:  sk.wait_flag flag 15 on aic
// CHECK-NEXT:  sk.wait_flag flag 15 on aiv
// The fill (skir.analysis.sync.self_test_fill): nothing of skir's own is pending, ids 0, 1, 2, 3
// are r, q, s, t. The handshake: the AIVs signal r, q (both), then the AIC.
// CHECK-NEXT:  sk.set_flag mode 2 flag 0 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag mode 2 flag 1 pipe mte3 on aiv
// CHECK-NEXT:  sk.wait_flag flag 0 on aic
// CHECK-NEXT:  sk.wait_flag flag 1 on aic
// CHECK-NEXT:  sk.set_flag mode 2 flag 0 pipe fix on aic
// CHECK-NEXT:  sk.set_flag mode 2 flag 1 pipe fix on aic
// CHECK-NEXT:  sk.wait_flag flag 0 on aiv
// CHECK-NEXT:  sk.wait_flag flag 1 on aiv
// Step 1: 15 AIV sets of every id but r, q (15 - 0 pending), the signal on r, q; only then
// does the AIC drain them.
// CHECK-NEXT:  sk.set_flag mode 2 flag 2 pipe mte3 on aiv
// CHECK-COUNT-14: mode 2 flag 2 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag mode 2 flag 3 pipe mte3 on aiv
// CHECK-COUNT-14: mode 2 flag 3 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag mode 2 flag 4 pipe mte3 on aiv
// CHECK-COUNT-14: mode 2 flag 4 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag mode 2 flag 5 pipe mte3 on aiv
// CHECK-COUNT-14: mode 2 flag 5 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag mode 2 flag 6 pipe mte3 on aiv
// CHECK-COUNT-14: mode 2 flag 6 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag mode 2 flag 7 pipe mte3 on aiv
// CHECK-COUNT-14: mode 2 flag 7 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag mode 2 flag 8 pipe mte3 on aiv
// CHECK-COUNT-14: mode 2 flag 8 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag mode 2 flag 9 pipe mte3 on aiv
// CHECK-COUNT-14: mode 2 flag 9 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag mode 2 flag 10 pipe mte3 on aiv
// CHECK-COUNT-14: mode 2 flag 10 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag mode 2 flag 15 pipe mte3 on aiv
// CHECK-COUNT-14: mode 2 flag 15 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag mode 2 flag 0 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag mode 2 flag 1 pipe mte3 on aiv
// CHECK-NEXT:  sk.wait_flag flag 0 on aic
// CHECK-NEXT:  sk.wait_flag flag 1 on aic
// CHECK-NEXT:  sk.wait_flag flag 2 on aic
// CHECK-COUNT-14: flag 2 on aic
// CHECK-NEXT:  sk.wait_flag flag 3 on aic
// CHECK-COUNT-14: flag 3 on aic
// CHECK-NEXT:  sk.wait_flag flag 4 on aic
// CHECK-COUNT-14: flag 4 on aic
// CHECK-NEXT:  sk.wait_flag flag 5 on aic
// CHECK-COUNT-14: flag 5 on aic
// CHECK-NEXT:  sk.wait_flag flag 6 on aic
// CHECK-COUNT-14: flag 6 on aic
// CHECK-NEXT:  sk.wait_flag flag 7 on aic
// CHECK-COUNT-14: flag 7 on aic
// CHECK-NEXT:  sk.wait_flag flag 8 on aic
// CHECK-COUNT-14: flag 8 on aic
// CHECK-NEXT:  sk.wait_flag flag 9 on aic
// CHECK-COUNT-14: flag 9 on aic
// CHECK-NEXT:  sk.wait_flag flag 10 on aic
// CHECK-COUNT-14: flag 10 on aic
// CHECK-NEXT:  sk.wait_flag flag 15 on aic
// CHECK-COUNT-14: flag 15 on aic
// Step 2: the same from the AIC toward the AIVs.
// CHECK-NEXT:  sk.set_flag mode 2 flag 2 pipe fix on aic
// CHECK-COUNT-14: mode 2 flag 2 pipe fix on aic
// CHECK-NEXT:  sk.set_flag mode 2 flag 3 pipe fix on aic
// CHECK-COUNT-14: mode 2 flag 3 pipe fix on aic
// CHECK-NEXT:  sk.set_flag mode 2 flag 4 pipe fix on aic
// CHECK-COUNT-14: mode 2 flag 4 pipe fix on aic
// CHECK-NEXT:  sk.set_flag mode 2 flag 5 pipe fix on aic
// CHECK-COUNT-14: mode 2 flag 5 pipe fix on aic
// CHECK-NEXT:  sk.set_flag mode 2 flag 6 pipe fix on aic
// CHECK-COUNT-14: mode 2 flag 6 pipe fix on aic
// CHECK-NEXT:  sk.set_flag mode 2 flag 7 pipe fix on aic
// CHECK-COUNT-14: mode 2 flag 7 pipe fix on aic
// CHECK-NEXT:  sk.set_flag mode 2 flag 8 pipe fix on aic
// CHECK-COUNT-14: mode 2 flag 8 pipe fix on aic
// CHECK-NEXT:  sk.set_flag mode 2 flag 9 pipe fix on aic
// CHECK-COUNT-14: mode 2 flag 9 pipe fix on aic
// CHECK-NEXT:  sk.set_flag mode 2 flag 10 pipe fix on aic
// CHECK-COUNT-14: mode 2 flag 10 pipe fix on aic
// CHECK-NEXT:  sk.set_flag mode 2 flag 15 pipe fix on aic
// CHECK-COUNT-14: mode 2 flag 15 pipe fix on aic
// CHECK-NEXT:  sk.set_flag mode 2 flag 0 pipe fix on aic
// CHECK-NEXT:  sk.set_flag mode 2 flag 1 pipe fix on aic
// CHECK-NEXT:  sk.wait_flag flag 0 on aiv
// CHECK-NEXT:  sk.wait_flag flag 1 on aiv
// CHECK-NEXT:  sk.wait_flag flag 2 on aiv
// CHECK-COUNT-14: flag 2 on aiv
// CHECK-NEXT:  sk.wait_flag flag 3 on aiv
// CHECK-COUNT-14: flag 3 on aiv
// CHECK-NEXT:  sk.wait_flag flag 4 on aiv
// CHECK-COUNT-14: flag 4 on aiv
// CHECK-NEXT:  sk.wait_flag flag 5 on aiv
// CHECK-COUNT-14: flag 5 on aiv
// CHECK-NEXT:  sk.wait_flag flag 6 on aiv
// CHECK-COUNT-14: flag 6 on aiv
// CHECK-NEXT:  sk.wait_flag flag 7 on aiv
// CHECK-COUNT-14: flag 7 on aiv
// CHECK-NEXT:  sk.wait_flag flag 8 on aiv
// CHECK-COUNT-14: flag 8 on aiv
// CHECK-NEXT:  sk.wait_flag flag 9 on aiv
// CHECK-COUNT-14: flag 9 on aiv
// CHECK-NEXT:  sk.wait_flag flag 10 on aiv
// CHECK-COUNT-14: flag 10 on aiv
// CHECK-NEXT:  sk.wait_flag flag 15 on aiv
// CHECK-COUNT-14: flag 15 on aiv
// Step 3: the AIVs fill r, q, signal s, t; the AIC drains.
// CHECK-NEXT:  sk.set_flag mode 2 flag 0 pipe mte3 on aiv
// CHECK-COUNT-14: mode 2 flag 0 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag mode 2 flag 1 pipe mte3 on aiv
// CHECK-COUNT-14: mode 2 flag 1 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag mode 2 flag 2 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag mode 2 flag 3 pipe mte3 on aiv
// CHECK-NEXT:  sk.wait_flag flag 2 on aic
// CHECK-NEXT:  sk.wait_flag flag 3 on aic
// CHECK-NEXT:  sk.wait_flag flag 0 on aic
// CHECK-COUNT-14: flag 0 on aic
// CHECK-NEXT:  sk.wait_flag flag 1 on aic
// CHECK-COUNT-14: flag 1 on aic
// Step 4: the AIC fills r, q, signal s, t; the AIVs drain.
// CHECK-NEXT:  sk.set_flag mode 2 flag 0 pipe fix on aic
// CHECK-COUNT-14: mode 2 flag 0 pipe fix on aic
// CHECK-NEXT:  sk.set_flag mode 2 flag 1 pipe fix on aic
// CHECK-COUNT-14: mode 2 flag 1 pipe fix on aic
// CHECK-NEXT:  sk.set_flag mode 2 flag 2 pipe fix on aic
// CHECK-NEXT:  sk.set_flag mode 2 flag 3 pipe fix on aic
// CHECK-NEXT:  sk.wait_flag flag 2 on aiv
// CHECK-NEXT:  sk.wait_flag flag 3 on aiv
// CHECK-NEXT:  sk.wait_flag flag 0 on aiv
// CHECK-COUNT-14: flag 0 on aiv
// CHECK-NEXT:  sk.wait_flag flag 1 on aiv
// CHECK-COUNT-14: flag 1 on aiv
// The last AIV signal on s, t: the AIC leaves once the AIVs have drained.
// CHECK-NEXT:  sk.set_flag mode 2 flag 2 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag mode 2 flag 3 pipe mte3 on aiv
// CHECK-NEXT:  sk.wait_flag flag 2 on aic
// CHECK-NEXT:  sk.wait_flag flag 3 on aic
// CHECK-NEXT:  sk.barrier sync_all
// CHECK-NEXT:  sk.barrier sync_all
// CHECK-NEXT:  %[[T801:[0-9]+]] = sk.subtask @norm blocks 48 offset 3 from @s0 seq 1 on aiv after %[[T0]]
// CHECK-NEXT:  sk.dcci on aiv
// CHECK-NEXT:  sk.barrier sync_all
// CHECK-NEXT:  }

// The entry: each set and wait written in the entry itself, under its core type's guard, up to
// the last signal of the fill.
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
// After the round, flag 3 is waited 15 times by the AIC and 15 by the AIVs (the drains of steps 1
// and 2), once in each signal of steps 3 and 4 and once in the last signal, which ends the fill.
// CPP-COUNT-32:   wait_flag_dev(3);
// CPP:           ffts_cross_core_sync(PIPE_MTE3, AscendC::GetffstMsg(0x2, 3));
// CPP-NEXT:  }
// CPP-NEXT:  if ASCEND_IS_AIC {
// CPP-NEXT:      wait_flag_dev(2);
// CPP-NEXT:  }
// CPP-NEXT:  if ASCEND_IS_AIC {
// CPP-NEXT:      wait_flag_dev(3);
// CPP-NEXT:  }
// CPP-NEXT:  // begin inter ops barrier
// CPP-NEXT:  AscendC::SyncAll<false>();

// -----

// A queue SuperKernel whose own sync has a credit pending across the mix sub-task: the AIC sets
// flag 15 for the AIVs before @mm, the AIVs wait for it after. The pending count there is 1, so
// the AIC fills flag 15 of its AIVs with 14 sets (and drains 14), every other counter with 15.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @c aic_only params(in, out)
  aclgraph.kernel @mm mix_aic_1_2 params(in, in, out)
  aclgraph.kernel @v aiv_only params(in, out)
  sk.kernel @m_sk0 mix_aic_1_2 blocks 4 queue slots 8 options "debug-cross-core-sync-check=1" {
    %0 = sk.subtask @c blocks 4 offset 1 from @s1 seq 0 on aic
    sk.barrier all_aic
    sk.set_flag mode 2 flag 15 pipe fix on aic
    %3 = sk.subtask @mm blocks 4 offset 3 from @s0 seq 1 on mix
    sk.wait_flag flag 15 on aiv
    %5 = sk.subtask @v blocks 8 offset 6 from @s1 seq 2 on aiv after %0
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aic_1_2 blocks 4 queue slots 8
// The fills: 15 credits of each id, 10 then 15, then the next id (one set of 10 comes before them).
// CHECK-COUNT-16: sk.set_flag mode 2 flag 10 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag mode 2 flag 15 pipe mte3 on aiv
// CHECK-COUNT-14: mode 2 flag 15 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag mode 2 flag 0 pipe mte3 on aiv
// CHECK-COUNT-15: sk.set_flag mode 2 flag 10 pipe fix on aic
// CHECK-NEXT:  sk.set_flag mode 2 flag 15 pipe fix on aic
// CHECK-COUNT-13: mode 2 flag 15 pipe fix on aic
// CHECK-NEXT:  sk.set_flag mode 2 flag 0 pipe fix on aic
// CHECK-COUNT-15: sk.wait_flag flag 10 on aiv
// CHECK-NEXT:  sk.wait_flag flag 15 on aiv
// CHECK-COUNT-13: flag 15 on aiv
// CHECK-NEXT:  sk.set_flag mode 2 flag 0 pipe mte3 on aiv
// CHECK:       sk.wait_flag flag 15 on aiv
// CHECK-NEXT:  %[[T799:[0-9]+]] = sk.subtask @v blocks 8 offset 6 from @s1 seq 2 on aiv after %[[T0]]
// CHECK-NEXT:  }

// -----

// Fewer than four quiet ids: the AIC sets 15 and 10-3 for the AIVs before @mm, which wait for
// them after, so only 0, 1 and 2 have no credit pending; the fill needs four (two per signal),
// so only the balanced round follows @mm.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @c aic_only params(in, out)
  aclgraph.kernel @mm mix_aic_1_2 params(in, in, out)
  aclgraph.kernel @v aiv_only params(in, out)
  sk.kernel @m_sk0 mix_aic_1_2 blocks 4 queue slots 8 options "debug-cross-core-sync-check=1" {
    %0 = sk.subtask @c blocks 4 offset 1 from @s1 seq 0 on aic
    sk.barrier all_aic
    sk.set_flag mode 2 flag 15 pipe fix on aic
    sk.set_flag mode 2 flag 10 pipe fix on aic
    sk.set_flag mode 2 flag 9 pipe fix on aic
    sk.set_flag mode 2 flag 8 pipe fix on aic
    sk.set_flag mode 2 flag 7 pipe fix on aic
    sk.set_flag mode 2 flag 6 pipe fix on aic
    sk.set_flag mode 2 flag 5 pipe fix on aic
    sk.set_flag mode 2 flag 4 pipe fix on aic
    sk.set_flag mode 2 flag 3 pipe fix on aic
    %11 = sk.subtask @mm blocks 4 offset 3 from @s0 seq 1 on mix
    sk.wait_flag flag 15 on aiv
    sk.wait_flag flag 10 on aiv
    sk.wait_flag flag 9 on aiv
    sk.wait_flag flag 8 on aiv
    sk.wait_flag flag 7 on aiv
    sk.wait_flag flag 6 on aiv
    sk.wait_flag flag 5 on aiv
    sk.wait_flag flag 4 on aiv
    sk.wait_flag flag 3 on aiv
    %21 = sk.subtask @v blocks 8 offset 6 from @s1 seq 2 on aiv after %0
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aic_1_2 blocks 4 queue slots 8
// CHECK:       %[[T11:[0-9]+]] = sk.subtask @mm
// CHECK-NEXT:  sk.set_flag mode 2 flag 0 pipe mte3 on aiv
// CHECK:       sk.wait_flag flag 15 on aiv
// CHECK-NEXT:  sk.wait_flag flag 15 on aiv
// CHECK-NEXT:  sk.wait_flag flag 10 on aiv

// -----

// Without a mix sub-task nothing is added (and the option alone leaves the SuperKernel as it is).
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 3 options "debug-cross-core-sync-check=1" {
    %0 = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 3 options "debug-cross-core-sync-check=1" {
// CHECK-NEXT:  %[[T0:[0-9]+]] = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  }
// CPP-LABEL: // SuperKernel m_sk0 (mix_aiv_1_0), generated by skir
// CPP-NOT:   GetffstMsg(0x2
