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
// The fill (skir.analysis.self_test_fill): nothing of skir's own is pending, ids 0, 1, 2, 3
// are r, q, s, t. The handshake: the AIVs signal r, q (both), then the AIC.
// CHECK-NEXT:  sk.set_flag id 51 mode 2 flag 0 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag id 52 mode 2 flag 1 pipe mte3 on aiv
// CHECK-NEXT:  sk.wait_flag id 53 flag 0 on aic
// CHECK-NEXT:  sk.wait_flag id 54 flag 1 on aic
// CHECK-NEXT:  sk.set_flag id 55 mode 2 flag 0 pipe fix on aic
// CHECK-NEXT:  sk.set_flag id 56 mode 2 flag 1 pipe fix on aic
// CHECK-NEXT:  sk.wait_flag id 57 flag 0 on aiv
// CHECK-NEXT:  sk.wait_flag id 58 flag 1 on aiv
// Step 1: 15 AIV sets of every id but r, q (15 - 0 pending), the signal on r, q; only then
// does the AIC drain them.
// CHECK-NEXT:  sk.set_flag id 59 mode 2 flag 2 pipe mte3 on aiv
// CHECK-COUNT-14: mode 2 flag 2 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag id 74 mode 2 flag 3 pipe mte3 on aiv
// CHECK-COUNT-14: mode 2 flag 3 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag id 89 mode 2 flag 4 pipe mte3 on aiv
// CHECK-COUNT-14: mode 2 flag 4 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag id 104 mode 2 flag 5 pipe mte3 on aiv
// CHECK-COUNT-14: mode 2 flag 5 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag id 119 mode 2 flag 6 pipe mte3 on aiv
// CHECK-COUNT-14: mode 2 flag 6 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag id 134 mode 2 flag 7 pipe mte3 on aiv
// CHECK-COUNT-14: mode 2 flag 7 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag id 149 mode 2 flag 8 pipe mte3 on aiv
// CHECK-COUNT-14: mode 2 flag 8 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag id 164 mode 2 flag 9 pipe mte3 on aiv
// CHECK-COUNT-14: mode 2 flag 9 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag id 179 mode 2 flag 10 pipe mte3 on aiv
// CHECK-COUNT-14: mode 2 flag 10 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag id 194 mode 2 flag 15 pipe mte3 on aiv
// CHECK-COUNT-14: mode 2 flag 15 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag id 209 mode 2 flag 0 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag id 210 mode 2 flag 1 pipe mte3 on aiv
// CHECK-NEXT:  sk.wait_flag id 211 flag 0 on aic
// CHECK-NEXT:  sk.wait_flag id 212 flag 1 on aic
// CHECK-NEXT:  sk.wait_flag id 213 flag 2 on aic
// CHECK-COUNT-14: flag 2 on aic
// CHECK-NEXT:  sk.wait_flag id 228 flag 3 on aic
// CHECK-COUNT-14: flag 3 on aic
// CHECK-NEXT:  sk.wait_flag id 243 flag 4 on aic
// CHECK-COUNT-14: flag 4 on aic
// CHECK-NEXT:  sk.wait_flag id 258 flag 5 on aic
// CHECK-COUNT-14: flag 5 on aic
// CHECK-NEXT:  sk.wait_flag id 273 flag 6 on aic
// CHECK-COUNT-14: flag 6 on aic
// CHECK-NEXT:  sk.wait_flag id 288 flag 7 on aic
// CHECK-COUNT-14: flag 7 on aic
// CHECK-NEXT:  sk.wait_flag id 303 flag 8 on aic
// CHECK-COUNT-14: flag 8 on aic
// CHECK-NEXT:  sk.wait_flag id 318 flag 9 on aic
// CHECK-COUNT-14: flag 9 on aic
// CHECK-NEXT:  sk.wait_flag id 333 flag 10 on aic
// CHECK-COUNT-14: flag 10 on aic
// CHECK-NEXT:  sk.wait_flag id 348 flag 15 on aic
// CHECK-COUNT-14: flag 15 on aic
// Step 2: the same from the AIC toward the AIVs.
// CHECK-NEXT:  sk.set_flag id 363 mode 2 flag 2 pipe fix on aic
// CHECK-COUNT-14: mode 2 flag 2 pipe fix on aic
// CHECK-NEXT:  sk.set_flag id 378 mode 2 flag 3 pipe fix on aic
// CHECK-COUNT-14: mode 2 flag 3 pipe fix on aic
// CHECK-NEXT:  sk.set_flag id 393 mode 2 flag 4 pipe fix on aic
// CHECK-COUNT-14: mode 2 flag 4 pipe fix on aic
// CHECK-NEXT:  sk.set_flag id 408 mode 2 flag 5 pipe fix on aic
// CHECK-COUNT-14: mode 2 flag 5 pipe fix on aic
// CHECK-NEXT:  sk.set_flag id 423 mode 2 flag 6 pipe fix on aic
// CHECK-COUNT-14: mode 2 flag 6 pipe fix on aic
// CHECK-NEXT:  sk.set_flag id 438 mode 2 flag 7 pipe fix on aic
// CHECK-COUNT-14: mode 2 flag 7 pipe fix on aic
// CHECK-NEXT:  sk.set_flag id 453 mode 2 flag 8 pipe fix on aic
// CHECK-COUNT-14: mode 2 flag 8 pipe fix on aic
// CHECK-NEXT:  sk.set_flag id 468 mode 2 flag 9 pipe fix on aic
// CHECK-COUNT-14: mode 2 flag 9 pipe fix on aic
// CHECK-NEXT:  sk.set_flag id 483 mode 2 flag 10 pipe fix on aic
// CHECK-COUNT-14: mode 2 flag 10 pipe fix on aic
// CHECK-NEXT:  sk.set_flag id 498 mode 2 flag 15 pipe fix on aic
// CHECK-COUNT-14: mode 2 flag 15 pipe fix on aic
// CHECK-NEXT:  sk.set_flag id 513 mode 2 flag 0 pipe fix on aic
// CHECK-NEXT:  sk.set_flag id 514 mode 2 flag 1 pipe fix on aic
// CHECK-NEXT:  sk.wait_flag id 515 flag 0 on aiv
// CHECK-NEXT:  sk.wait_flag id 516 flag 1 on aiv
// CHECK-NEXT:  sk.wait_flag id 517 flag 2 on aiv
// CHECK-COUNT-14: flag 2 on aiv
// CHECK-NEXT:  sk.wait_flag id 532 flag 3 on aiv
// CHECK-COUNT-14: flag 3 on aiv
// CHECK-NEXT:  sk.wait_flag id 547 flag 4 on aiv
// CHECK-COUNT-14: flag 4 on aiv
// CHECK-NEXT:  sk.wait_flag id 562 flag 5 on aiv
// CHECK-COUNT-14: flag 5 on aiv
// CHECK-NEXT:  sk.wait_flag id 577 flag 6 on aiv
// CHECK-COUNT-14: flag 6 on aiv
// CHECK-NEXT:  sk.wait_flag id 592 flag 7 on aiv
// CHECK-COUNT-14: flag 7 on aiv
// CHECK-NEXT:  sk.wait_flag id 607 flag 8 on aiv
// CHECK-COUNT-14: flag 8 on aiv
// CHECK-NEXT:  sk.wait_flag id 622 flag 9 on aiv
// CHECK-COUNT-14: flag 9 on aiv
// CHECK-NEXT:  sk.wait_flag id 637 flag 10 on aiv
// CHECK-COUNT-14: flag 10 on aiv
// CHECK-NEXT:  sk.wait_flag id 652 flag 15 on aiv
// CHECK-COUNT-14: flag 15 on aiv
// Step 3: the AIVs fill r, q, signal s, t; the AIC drains.
// CHECK-NEXT:  sk.set_flag id 667 mode 2 flag 0 pipe mte3 on aiv
// CHECK-COUNT-14: mode 2 flag 0 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag id 682 mode 2 flag 1 pipe mte3 on aiv
// CHECK-COUNT-14: mode 2 flag 1 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag id 697 mode 2 flag 2 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag id 698 mode 2 flag 3 pipe mte3 on aiv
// CHECK-NEXT:  sk.wait_flag id 699 flag 2 on aic
// CHECK-NEXT:  sk.wait_flag id 700 flag 3 on aic
// CHECK-NEXT:  sk.wait_flag id 701 flag 0 on aic
// CHECK-COUNT-14: flag 0 on aic
// CHECK-NEXT:  sk.wait_flag id 716 flag 1 on aic
// CHECK-COUNT-14: flag 1 on aic
// Step 4: the AIC fills r, q, signal s, t; the AIVs drain.
// CHECK-NEXT:  sk.set_flag id 731 mode 2 flag 0 pipe fix on aic
// CHECK-COUNT-14: mode 2 flag 0 pipe fix on aic
// CHECK-NEXT:  sk.set_flag id 746 mode 2 flag 1 pipe fix on aic
// CHECK-COUNT-14: mode 2 flag 1 pipe fix on aic
// CHECK-NEXT:  sk.set_flag id 761 mode 2 flag 2 pipe fix on aic
// CHECK-NEXT:  sk.set_flag id 762 mode 2 flag 3 pipe fix on aic
// CHECK-NEXT:  sk.wait_flag id 763 flag 2 on aiv
// CHECK-NEXT:  sk.wait_flag id 764 flag 3 on aiv
// CHECK-NEXT:  sk.wait_flag id 765 flag 0 on aiv
// CHECK-COUNT-14: flag 0 on aiv
// CHECK-NEXT:  sk.wait_flag id 780 flag 1 on aiv
// CHECK-COUNT-14: flag 1 on aiv
// The last AIV signal on s, t: the AIC leaves once the AIVs have drained.
// CHECK-NEXT:  sk.set_flag id 795 mode 2 flag 2 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag id 796 mode 2 flag 3 pipe mte3 on aiv
// CHECK-NEXT:  sk.wait_flag id 797 flag 2 on aic
// CHECK-NEXT:  sk.wait_flag id 798 flag 3 on aic
// CHECK-NEXT:  sk.barrier id 799 sync_all
// CHECK-NEXT:  sk.barrier id 800 sync_all
// CHECK-NEXT:  sk.subtask id 801 @norm blocks 48 offset 3 from @s0 seq 1 on aiv after [0]
// CHECK-NEXT:  sk.dcci id 802 on aiv
// CHECK-NEXT:  sk.barrier id 803 sync_all
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
    sk.subtask id 0 @c blocks 4 offset 1 from @s1 seq 0 on aic
    sk.barrier id 1 all_aic
    sk.set_flag id 2 mode 2 flag 15 pipe fix on aic
    sk.subtask id 3 @mm blocks 4 offset 3 from @s0 seq 1 on mix
    sk.wait_flag id 4 flag 15 on aiv
    sk.subtask id 5 @v blocks 8 offset 6 from @s1 seq 2 on aiv after [0]
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aic_1_2 blocks 4 queue slots 8
// CHECK:       sk.set_flag id 195 mode 2 flag 15 pipe mte3 on aiv
// CHECK-COUNT-14: mode 2 flag 15 pipe mte3 on aiv
// CHECK-NEXT:  sk.set_flag id 210 mode 2 flag 0 pipe mte3 on aiv
// CHECK:       sk.set_flag id 499 mode 2 flag 15 pipe fix on aic
// CHECK-COUNT-13: mode 2 flag 15 pipe fix on aic
// CHECK-NEXT:  sk.set_flag id 513 mode 2 flag 0 pipe fix on aic
// CHECK:       sk.wait_flag id 652 flag 15 on aiv
// CHECK-COUNT-13: flag 15 on aiv
// CHECK-NEXT:  sk.set_flag id 666 mode 2 flag 0 pipe mte3 on aiv
// CHECK:       sk.wait_flag id 798 flag 15 on aiv
// CHECK-NEXT:  sk.subtask id 799 @v blocks 8 offset 6 from @s1 seq 2 on aiv after [0]
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
    sk.subtask id 0 @c blocks 4 offset 1 from @s1 seq 0 on aic
    sk.barrier id 1 all_aic
    sk.set_flag id 2 mode 2 flag 15 pipe fix on aic
    sk.set_flag id 3 mode 2 flag 10 pipe fix on aic
    sk.set_flag id 4 mode 2 flag 9 pipe fix on aic
    sk.set_flag id 5 mode 2 flag 8 pipe fix on aic
    sk.set_flag id 6 mode 2 flag 7 pipe fix on aic
    sk.set_flag id 7 mode 2 flag 6 pipe fix on aic
    sk.set_flag id 8 mode 2 flag 5 pipe fix on aic
    sk.set_flag id 9 mode 2 flag 4 pipe fix on aic
    sk.set_flag id 10 mode 2 flag 3 pipe fix on aic
    sk.subtask id 11 @mm blocks 4 offset 3 from @s0 seq 1 on mix
    sk.wait_flag id 12 flag 15 on aiv
    sk.wait_flag id 13 flag 10 on aiv
    sk.wait_flag id 14 flag 9 on aiv
    sk.wait_flag id 15 flag 8 on aiv
    sk.wait_flag id 16 flag 7 on aiv
    sk.wait_flag id 17 flag 6 on aiv
    sk.wait_flag id 18 flag 5 on aiv
    sk.wait_flag id 19 flag 4 on aiv
    sk.wait_flag id 20 flag 3 on aiv
    sk.subtask id 21 @v blocks 8 offset 6 from @s1 seq 2 on aiv after [0]
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aic_1_2 blocks 4 queue slots 8
// CHECK:       sk.subtask id 11 @mm
// CHECK-NEXT:  sk.set_flag id 12 mode 2 flag 0 pipe mte3 on aiv
// CHECK:       sk.wait_flag id 59 flag 15 on aiv
// CHECK-NEXT:  sk.wait_flag id 60 flag 15 on aiv
// CHECK-NEXT:  sk.wait_flag id 61 flag 10 on aiv

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
// CPP-LABEL: // SuperKernel m_sk0 (mix_aiv_1_0), generated by skir
// CPP-NOT:   GetffstMsg(0x2
