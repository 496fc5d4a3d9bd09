// RUN: sk-opt %s --split-input-file --verify-diagnostics -p sk-check | filecheck %s

// sk-check refuses a rewritten model it cannot prove: an order no sync keeps, a core that
// blocks for ever, a credit left over; the model's verifier refuses a stream that lost a slot.

// No barrier between a writer and its reader on the AIVs.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @w aiv_only params(out)
  aclgraph.kernel @r aiv_only params(in)
  aclgraph.buffer @x bytes 4096
  aclgraph.stream @s0 slots 2 {
    aclgraph.launch_sk seq 0 @m_sk0 was launch @w blocks 48 args(@x)
    aclgraph.disabled seq 1 was launch @r blocks 48 args(@x)
  }
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 2 {
    %0 = sk.subtask @w blocks 48 offset 1 from @s0 seq 0 on aiv
    %1 = sk.subtask @r blocks 48 offset 2 from @s0 seq 1 on aiv after %0
  }
}

// CHECK: error: sk-check found 2 violations: edge not enforced: @m/@s0/seq 0 -> @m/@s0/seq 1 (not after every aiv core of m_sk0)

// -----

// A wait that no set credits: the AIVs block for ever.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @w aiv_only params(out)
  aclgraph.kernel @r aiv_only params(in)
  aclgraph.buffer @x bytes 4096
  aclgraph.stream @s0 slots 2 {
    aclgraph.launch_sk seq 0 @m_sk0 was launch @w blocks 48 args(@x)
    aclgraph.disabled seq 1 was launch @r blocks 48 args(@x)
  }
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 2 {
    %0 = sk.subtask @w blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.barrier all_aiv
    sk.wait_flag flag 3 on aiv
    %3 = sk.subtask @r blocks 48 offset 2 from @s0 seq 1 on aiv after %0
  }
}

// CHECK: error: sk-check found 2 violations: deadlock: @m/@s0/seq 0 waits on launch_sk @m_sk0 (the SuperKernel has not finished)

// -----

// A set no wait takes: its credit is left over when the SuperKernel ends.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @w aiv_only params(out)
  aclgraph.kernel @r aiv_only params(in)
  aclgraph.buffer @x bytes 4096
  aclgraph.stream @s0 slots 2 {
    aclgraph.launch_sk seq 0 @m_sk0 was launch @w blocks 48 args(@x)
    aclgraph.disabled seq 1 was launch @r blocks 48 args(@x)
  }
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 2 {
    %0 = sk.subtask @w blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.barrier all_aiv
    sk.set_flag mode 0 flag 3 pipe mte3 on aiv
    %3 = sk.subtask @r blocks 48 offset 2 from @s0 seq 1 on aiv after %0
  }
}

// CHECK: error: sk-check found 1 violation: leftover: m_sk0 aiv flag 3 holds 1 credit(s) at the end

// -----

// A stream that lost a slot.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @w aiv_only params(out)
  aclgraph.kernel @r aiv_only params(in)
  aclgraph.buffer @x bytes 4096
  aclgraph.stream @s0 slots 2 {
    aclgraph.launch_sk seq 0 @m_sk0 was launch @w blocks 48 args(@x)
  }
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 2 {
    %0 = sk.subtask @w blocks 48 offset 1 from @s0 seq 0 on aiv
  }
}

// CHECK: error: @m/@s0: the stream records 2 slots but holds 1; a rewrite must keep each stream's slot count
