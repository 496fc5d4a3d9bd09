// RUN: sk-opt %s --split-input-file -p sk-prune-sync | filecheck %s

// A chain: a barrier another barrier of the same gap repeats goes (sync_all covers all_aiv).
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @act aiv_only params(inout)
  sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 5 {
    sk.subtask id 0 @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.barrier id 1 all_aiv
    sk.barrier id 2 sync_all
    sk.subtask id 3 @act blocks 48 offset 3 from @s0 seq 1 on aiv after [0]
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 5 {
// CHECK-NEXT:  sk.subtask id 0 @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  sk.barrier id 2 sync_all
// CHECK-NEXT:  sk.subtask id 3 @act blocks 48 offset 3 from @s0 seq 1 on aiv after [0]
// CHECK-NEXT:  }

// -----

// A queue: @proj depends on both AIV sub-tasks; the flag pair after @act (the later producer)
// keeps both dependencies, so the pair after @norm goes (the barrier between the two AIV
// sub-tasks stays: @act depends on @norm).
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @proj aic_only params(in, out)
  aclgraph.kernel @act aiv_only params(inout)
  sk.kernel @m_sk0 mix_aic_1_2 blocks 24 queue slots 7 {
    sk.subtask id 0 @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.barrier id 1 all_aiv
    sk.set_flag id 2 mode 2 flag 15 pipe mte3 on aiv
    sk.subtask id 3 @act blocks 48 offset 4 from @s1 seq 3 on aiv after [0]
    sk.barrier id 4 all_aiv
    sk.set_flag id 5 mode 2 flag 15 pipe mte3 on aiv
    sk.wait_flag id 6 flag 15 on aic
    sk.wait_flag id 7 flag 15 on aic
    sk.subtask id 8 @proj blocks 24 offset 5 from @s1 seq 5 on aic after [0, 3]
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aic_1_2 blocks 24 queue slots 7 {
// CHECK-NEXT:  sk.subtask id 0 @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  sk.barrier id 1 all_aiv
// CHECK-NEXT:  sk.subtask id 3 @act blocks 48 offset 4 from @s1 seq 3 on aiv after [0]
// CHECK-NEXT:  sk.barrier id 4 all_aiv
// CHECK-NEXT:  sk.set_flag id 5 mode 2 flag 15 pipe mte3 on aiv
// CHECK-NEXT:  sk.wait_flag id 7 flag 15 on aic
// CHECK-NEXT:  sk.subtask id 8 @proj blocks 24 offset 5 from @s1 seq 5 on aic after [0, 3]
// CHECK-NEXT:  }
