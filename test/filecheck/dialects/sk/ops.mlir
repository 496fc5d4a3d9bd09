// RUN: SKIR_ROUNDTRIP
// RUN: SKIR_GENERIC_ROUNDTRIP

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @mm mix_aic_1_2 params(in, in, out)
  aclgraph.kernel @proj aic_only params 1
  aclgraph.stream @s0 slots 3 {
    aclgraph.launch_sk seq 0 @m_sk0
    aclgraph.placeholder seq 1
    aclgraph.placeholder seq 2
  }
  sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 7 options "split-mode=2" {
    aic {
      sk.barrier id 1 sync_all
      sk.subtask id 2 @mm blocks 24 offset 3 from @s0 seq 1 after [0]
      sk.barrier id 3 all_aic
      sk.subtask id 4 @proj blocks 20 offset 6 from @s0 seq 2 after [2] attributes {note = "x"}
    }
    aiv {
      sk.subtask id 0 @norm blocks 48 offset 1 from @s0 seq 0
      sk.barrier id 1 sync_all
      sk.subtask id 2 @mm blocks 24 offset 3 from @s0 seq 1 after [0]
    }
  }
  sk.kernel @m_sk1 mix_aiv_1_0 blocks 8 queue slots 3 {
    aic {
    }
    aiv {
      sk.subtask id 0 @norm blocks 8 offset 1 from @s0 seq 5
    }
  }
}

// CHECK:      sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 7 options "split-mode=2" {
// CHECK-NEXT:   aic {
// CHECK-NEXT:     sk.barrier id 1 sync_all
// CHECK-NEXT:     sk.subtask id 2 @mm blocks 24 offset 3 from @s0 seq 1 after [0]
// CHECK-NEXT:     sk.barrier id 3 all_aic
// CHECK-NEXT:     sk.subtask id 4 @proj blocks 20 offset 6 from @s0 seq 2 after [2] attributes {note = "x"}
// CHECK-NEXT:   }
// CHECK-NEXT:   aiv {
// CHECK-NEXT:     sk.subtask id 0 @norm blocks 48 offset 1 from @s0 seq 0
// CHECK-NEXT:     sk.barrier id 1 sync_all
// CHECK-NEXT:     sk.subtask id 2 @mm blocks 24 offset 3 from @s0 seq 1 after [0]
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: sk.kernel @m_sk1 mix_aiv_1_0 blocks 8 queue slots 3 {
// CHECK-NEXT:   aic {
// CHECK-NEXT:   }
// CHECK-NEXT:   aiv {
// CHECK-NEXT:     sk.subtask id 0 @norm blocks 8 offset 1 from @s0 seq 5
// CHECK-NEXT:   }
// CHECK-NEXT: }
