// RUN: sk-opt %s -p sk-place-sync,sk-lower-sync | filecheck %s
// RUN: sk-opt %s -p sk-place-sync,sk-lower-sync,sk-check > /dev/null

// early-start=1 with sync-mode=data, from sk-lower-sync's own input (the SuperKernel's options
// are on its sk.kernel). c_r and m_r only read @x, but m_r also runs on the AIVs, and the
// handshake before c_r is aic -> aic (cfg 0): WaitPreTaskEndImpl<0> orders the AIC cores only,
// so m_r's AIV half is not yet after every AIC core's c_w, which writes @x. The c_r | m_r gap
// keeps a real sync (the aic -> mix handshake, cfg 2), not a local pipe barrier
// (docs/design.md §3, "Data-aware relaxation").
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
    %1 = sk.subtask @c_r blocks 4 offset 2 from @s0 seq 1 on aic after %0
    %2 = sk.subtask @m_r blocks 4 offset 3 from @s0 seq 2 on mix after %1
  }
}

// CHECK:      sk.kernel @m1_sk0 mix_aic_1_1 blocks 4 chain slots 4 options "early-start=1:sync-mode=data" {
// CHECK-NEXT:   %[[T0:[0-9]+]] = sk.subtask @c_w blocks 4 offset 1 from @s0 seq 0 on aic
// CHECK-NEXT:   sk.early_start_set on aic
// CHECK-NEXT:   sk.early_start_wait cfg 0 on aic
// CHECK-NEXT:   sk.early_start_wait cfg 0 on aiv
// CHECK-NEXT:   %[[T4:[0-9]+]] = sk.subtask @c_r blocks 4 offset 2 from @s0 seq 1 on aic after %[[T0]]
// CHECK-NEXT:   sk.early_start_set on aic
// CHECK-NEXT:   sk.early_start_wait cfg 2 on aic
// CHECK-NEXT:   sk.early_start_wait cfg 2 on aiv
// CHECK-NEXT:   %[[T8:[0-9]+]] = sk.subtask @m_r blocks 4 offset 3 from @s0 seq 2 on mix after %[[T4]]
// CHECK-NEXT: }
// CHECK-NOT:  pipe_all
