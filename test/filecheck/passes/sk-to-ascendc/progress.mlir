// RUN: sk-opt %s -p 'sk-to-ascendc{options="split-mode=1:debug-progress=1"}' | filecheck %s
// RUN: sk-opt %s -p 'sk-to-ascendc{options="split-mode=1:debug-progress=1"}' -t ascendc | filecheck %s --check-prefix=CXX

// debug-progress=1 (docs/design.md §6): every core stores a progress word on its own line of
// the area in the last slot before any workspace (slot 4 here) as it enters, before each point
// (a sub-task, a barrier) and at its end. A point is no statement group: its store goes first.
// Word: 0x5c, progress id 0, the point (op id; 0xffff: entry/end), the state (1 sub-task,
// 4 barrier, 6 done, 8 entered); the entry ORs in the core's line (AICs after the 48 AIVs).
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @proj aic_only params(in)
  sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 5 {
    %0 = sk.subtask @norm blocks 40 offset 1 from @s0 seq 0 on aiv
    sk.barrier sync_all
    %2 = sk.subtask @proj blocks 24 offset 3 from @s0 seq 1 on aic after %0
  }
}

// CHECK-LABEL: ascendc.source @m_sk0 mix_aic_1_2 {
// CHECK-NEXT:  ascendc.lock_helpers
// CHECK-NEXT:  ascendc.progress_helpers aiv_lines 48
// CHECK-NEXT:  ascendc.declare "norm_middle" copies 1
// CHECK-NEXT:  ascendc.declare "proj_middle" copies 1
// CHECK-NEXT:  ascendc.entry "auto_gen_m_sk0_kernel" align 512 {
// CHECK-NEXT:  ascendc.ffts_base
// CHECK-NEXT:  ascendc.if_core aic {
// CHECK-NEXT:    ascendc.progress slot 4 word 0x5c0000ffff080000
// CHECK-NEXT:  }
// CHECK-NEXT:  ascendc.if_core aiv {
// CHECK-NEXT:    ascendc.progress slot 4 word 0x5c0000ffff080000
// CHECK-NEXT:  }
// CHECK-NEXT:  ascendc.comment "begin func call of sub operator norm (seq 0)"
// CHECK-NEXT:  ascendc.if_core aiv {
// CHECK-NEXT:    ascendc.progress slot 4 word 0x5c00000000010000
// CHECK-NEXT:    ascendc.if_block logical 40 {
// CHECK-NEXT:      ascendc.call "norm_middle" offset 1 copies 1
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT:  ascendc.comment "begin inter ops barrier"
// CHECK-NEXT:  ascendc.if_core aic {
// CHECK-NEXT:    ascendc.progress slot 4 word 0x5c00000001040000
// CHECK-NEXT:  }
// CHECK-NEXT:  ascendc.if_core aiv {
// CHECK-NEXT:    ascendc.progress slot 4 word 0x5c00000001040000
// CHECK-NEXT:  }
// CHECK-NEXT:  ascendc.sync_all
// CHECK-NEXT:  ascendc.comment "begin func call of sub operator proj (seq 1)"
// CHECK-NEXT:  ascendc.if_core aic {
// CHECK-NEXT:    ascendc.progress slot 4 word 0x5c00000002010000
// CHECK-NEXT:    ascendc.if_block block 24 {
// CHECK-NEXT:      ascendc.call "proj_middle" offset 3 copies 1
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT:  ascendc.if_core aic {
// CHECK-NEXT:    ascendc.progress slot 4 word 0x5c0000ffff060000
// CHECK-NEXT:  }
// CHECK-NEXT:  ascendc.if_core aiv {
// CHECK-NEXT:    ascendc.progress slot 4 word 0x5c0000ffff060000
// CHECK-NEXT:  }
// CHECK-NEXT:  }
// CHECK-NEXT:  }

// CXX:      uint64_t line = aic_flag ? (uint64_t)get_block_idx() + 48 : (uint64_t)AscendC::GetBlockIdx();
// CXX:      *slot = word | line;
// CXX-NEXT: dcci((__gm__ uint64_t *)slot, 0, 2);
// CXX:      SkProgress<false>(param_base[4], 0x5c00000000010000ULL);
// CXX:      SkProgress<true>(param_base[4], 0x5c00000002010000ULL);
