// RUN: %expect-exit 3 sk-opt %s -p sk-check 2>&1 | filecheck %s

// sk-check runs each early-start wait by its recipe: WaitPreTaskEndImpl<0> (aic -> aic) makes
// the AICs wait for every AIC's set and leaves the AIVs where they were. Here a local pipe
// barrier is all that stands between c_r and m_r, so m_r's AIV half may begin before every AIC
// core has finished c_w, which writes @x that m_r reads. This is the entry sk-lower-sync once
// produced for early-start=1:sync-mode=data; the abstract machine, which took cfg 0 to order
// the AIVs too, proved it.
aclgraph.model @m1 cores(aic = 24, aiv = 48) {
  aclgraph.kernel @c_w aic_only params(out)
  aclgraph.kernel @c_r aic_only params(in)
  aclgraph.kernel @m_r mix_aic_1_1 params(in)
  aclgraph.buffer @x bytes 4096
  aclgraph.stream @s0 slots 3 {
    aclgraph.launch_sk seq 0 @m1_sk0 was launch @c_w blocks 4 args(@x)
    aclgraph.disabled seq 1 was launch @c_r blocks 4 args(@x)
    aclgraph.disabled seq 2 was launch @m_r blocks 4 args(@x)
  }
  sk.kernel @m1_sk0 mix_aic_1_1 blocks 4 chain slots 4 options "early-start=1:sync-mode=data" {
    %0 = sk.subtask @c_w blocks 4 offset 1 from @s0 seq 0 on aic
    sk.early_start_set on aic
    sk.early_start_wait cfg 0 on aic
    sk.early_start_wait cfg 0 on aiv
    %4 = sk.subtask @c_r blocks 4 offset 2 from @s0 seq 1 on aic after %0
    sk.barrier pipe_all on mix
    %6 = sk.subtask @m_r blocks 4 offset 3 from @s0 seq 2 on mix after %4
  }
}

// CHECK: sk-opt: error: sk-check found 1 violation: edge not enforced: @m1/@s0/seq 0 -> @m1/@s0/seq 2 (not after every aic core of m1_sk0)
