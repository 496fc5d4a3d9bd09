// RUN: sk-opt %s --split-input-file --verify-diagnostics -p sk-insert-debug | filecheck %s

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

// CHECK: error: sk-insert-debug: sk.kernel @m_sk0: sk.depend_barrier 1 is not lowered; run sk-lower-sync with its patterns first
