// RUN: sk-opt %s --split-input-file -p sk-prune-sync | filecheck %s

// A chain: a barrier another barrier of the same gap repeats goes (sync_all covers all_aiv).
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @act aiv_only params(inout)
  sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 5 {
    %0 = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.barrier all_aiv
    sk.barrier sync_all
    %3 = sk.subtask @act blocks 48 offset 3 from @s0 seq 1 on aiv after %0
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 5 {
// CHECK-NEXT:  %[[T0:[0-9]+]] = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  sk.barrier sync_all
// CHECK-NEXT:  %[[T3:[0-9]+]] = sk.subtask @act blocks 48 offset 3 from @s0 seq 1 on aiv after %[[T0]]
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
    %0 = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.barrier all_aiv
    sk.set_flag mode 2 flag 15 pipe mte3 on aiv
    %3 = sk.subtask @act blocks 48 offset 4 from @s1 seq 3 on aiv after %0
    sk.barrier all_aiv
    sk.set_flag mode 2 flag 15 pipe mte3 on aiv
    sk.wait_flag flag 15 on aic
    sk.wait_flag flag 15 on aic
    %8 = sk.subtask @proj blocks 24 offset 5 from @s1 seq 5 on aic after %0, %3
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aic_1_2 blocks 24 queue slots 7 {
// CHECK-NEXT:  %[[T0:[0-9]+]] = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  sk.barrier all_aiv
// CHECK-NEXT:  %[[T3:[0-9]+]] = sk.subtask @act blocks 48 offset 4 from @s1 seq 3 on aiv after %[[T0]]
// CHECK-NEXT:  sk.barrier all_aiv
// CHECK-NEXT:  sk.set_flag mode 2 flag 15 pipe mte3 on aiv
// CHECK-NEXT:  sk.wait_flag flag 15 on aic
// CHECK-NEXT:  %[[T8:[0-9]+]] = sk.subtask @proj blocks 24 offset 5 from @s1 seq 5 on aic after %[[T0]], %[[T3]]
// CHECK-NEXT:  }
