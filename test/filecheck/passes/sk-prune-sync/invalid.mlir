// RUN: sk-opt %s --split-input-file --verify-diagnostics -p sk-prune-sync | filecheck %s

// A depend left by sk-lower-sync{patterns=...}: every later pass refuses it.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @act aiv_only params(inout)
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 4 {
    %0 = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.depend_barrier aiv -> aiv on aiv
    %2 = sk.subtask @act blocks 48 offset 3 from @s0 seq 1 on aiv after %0
  }
}

// CHECK: error: sk-prune-sync: sk.kernel @m_sk0: sk.depend_barrier 1 is not lowered; run sk-lower-sync with its patterns first

// -----

// A queue whose dependencies no sync keeps (its syncs were never placed).
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @act aiv_only params(inout)
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 queue slots 4 {
    %0 = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    %1 = sk.subtask @act blocks 48 offset 3 from @s0 seq 1 on aiv after %0
  }
}

// CHECK: error: sk.kernel @m_sk0: no barrier between queue positions 0 and 1; run sk-place-sync and sk-lower-sync first

// -----

// Lane rounds (flag ops guarded to a core range) come from sk-place-blocks, which runs after
// pruning: the pruning rules do not model them.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @q aiv_only params(inout) sk_system_args
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 queue slots 2 {
    %0 = sk.subtask @q blocks 8 offset 1 from @s0 seq 0 on aiv
    sk.set_flag mode 0 flag 10 pipe mte3 on aiv blocks 8 at 0
    sk.wait_flag flag 10 on aiv blocks 8 at 0
  }
}

// CHECK: error: sk.kernel @m_sk0: holds lane rounds (flag ops guarded to a core range, from sk-place-blocks); sk-prune-sync runs before sk-place-blocks
