// RUN: sk-opt %s --split-input-file -p 'sk-place-blocks{options="placement=auto"}' | filecheck %s
// RUN: sk-opt %s --split-input-file -p sk-place-blocks | filecheck %s --check-prefix=OFF

// Two hb-unordered AIV sub-tasks that take SkSystemArgs, nothing between them: @k runs on AIVs
// [40, 48) beside @q on [0, 40) (5 us each, the default: the busiest core 10 -> 5.2 us).
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @q aiv_only params(in) sk_system_args
  aclgraph.kernel @k aiv_only params(in) sk_system_args
  aclgraph.kernel @attn aiv_only params(in)
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 queue slots 4 {
    %0 = sk.subtask @q blocks 40 offset 1 from @s0 seq 1 on aiv
    %1 = sk.subtask @k blocks 8 offset 2 from @s1 seq 2 on aiv
    sk.barrier all_aiv
    %3 = sk.subtask @attn blocks 48 offset 3 from @s0 seq 3 on aiv after %0, %1
  }
}

// CHECK-LABEL: sk.kernel @m_sk0
// CHECK-NEXT:    %[[T0:[0-9]+]] = sk.subtask @q blocks 40 offset 1 from @s0 seq 1 on aiv
// CHECK-NEXT:    %[[T1:[0-9]+]] = sk.subtask @k blocks 8 at 40 offset 2 from @s1 seq 2 on aiv
// CHECK-NEXT:    sk.barrier all_aiv
// CHECK-NEXT:    %[[T3:[0-9]+]] = sk.subtask @attn blocks 48 offset 3 from @s0 seq 3 on aiv after %[[T0]], %[[T1]]
// OFF-NOT: at 40

// -----

// A barrier and a dependency between them (one lane), a kernel without SkSystemArgs or a
// chain: nothing moves.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @q aiv_only params(in) sk_system_args
  aclgraph.kernel @k aiv_only params(in) sk_system_args
  aclgraph.kernel @plain aiv_only params(in)
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 queue slots 4 {
    %0 = sk.subtask @q blocks 8 offset 1 from @s0 seq 1 on aiv
    sk.barrier all_aiv
    %2 = sk.subtask @k blocks 8 offset 2 from @s1 seq 2 on aiv after %0
    %3 = sk.subtask @plain blocks 8 offset 3 from @s2 seq 3 on aiv
  }
  sk.kernel @m_sk1 mix_aiv_1_0 blocks 48 chain slots 3 {
    %0 = sk.subtask @q blocks 8 offset 1 from @s0 seq 4 on aiv
    %1 = sk.subtask @k blocks 8 offset 2 from @s0 seq 5 on aiv
  }
}

// CHECK-LABEL: sk.kernel @m_sk0
// CHECK-NOT:   at
// CHECK-LABEL: sk.kernel @m_sk1
// CHECK-NOT:   at
