// RUN: sk-opt %s -p 'sk-place-blocks{options="placement=auto"}' | filecheck %s
// RUN: sk-opt %s -p 'sk-place-blocks{options="placement=auto"},sk-check' | filecheck %s --check-prefix=PROVED

// Two chains between two layer norms: q1 -> q2 (8 AIVs) and k1 -> k2 (16 AIVs), 5 us each (the
// default). As it stands every barrier waits for both chains: 5 + 5 + 5 us and three barriers
// between the norms. As lanes, q on AIVs [0, 8) with flag 15, k on [8, 24) with flag 10, each
// with one round where the barrier between its sub-tasks was; the cores outside a lane set its
// flag before the region and take the round's credit after it.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @ln aiv_only params(in) sk_system_args
  aclgraph.kernel @q aiv_only params(in) sk_system_args
  aclgraph.kernel @k aiv_only params(in) sk_system_args
  aclgraph.stream @s0 slots 4 {
    aclgraph.launch_sk seq 0 @m_sk0 was launch @ln blocks 48 args(@x)
    aclgraph.disabled seq 1 was launch @q blocks 8 args(@x)
    aclgraph.disabled seq 2 was launch @q blocks 8 args(@x)
    aclgraph.disabled seq 7 was launch @ln blocks 48 args(@x)
  }
  aclgraph.stream @s1 slots 2 {
    aclgraph.disabled seq 3 was launch @k blocks 16 args(@x)
    aclgraph.disabled seq 4 was launch @k blocks 16 args(@x)
  }
  aclgraph.buffer @x
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 queue slots 7 {
    %0 = sk.subtask @ln blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.barrier all_aiv
    %2 = sk.subtask @q blocks 8 offset 2 from @s0 seq 1 on aiv after %0
    sk.barrier all_aiv
    %4 = sk.subtask @q blocks 8 offset 3 from @s0 seq 2 on aiv after %2
    %5 = sk.subtask @k blocks 16 offset 4 from @s1 seq 3 on aiv after %0
    sk.barrier all_aiv
    %7 = sk.subtask @k blocks 16 offset 5 from @s1 seq 4 on aiv after %5
    sk.barrier all_aiv
    %9 = sk.subtask @ln blocks 48 offset 6 from @s0 seq 7 on aiv after %4, %7
  }
}
// CHECK-LABEL: sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 queue slots 7 {
// CHECK-NEXT:    %[[T0:[0-9]+]] = sk.subtask @ln blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:    sk.barrier all_aiv
// CHECK-NEXT:    sk.set_flag mode 0 flag 15 pipe mte3 on aiv blocks 40 at 8
// CHECK-NEXT:    sk.set_flag mode 0 flag 10 pipe mte3 on aiv blocks 8 at 0
// CHECK-NEXT:    sk.set_flag mode 0 flag 10 pipe mte3 on aiv blocks 24 at 24
// CHECK-NEXT:    %[[T5:[0-9]+]] = sk.subtask @q blocks 8 offset 2 from @s0 seq 1 on aiv after %[[T0]]
// CHECK-NEXT:    sk.set_flag mode 0 flag 15 pipe mte3 on aiv blocks 8 at 0
// CHECK-NEXT:    sk.wait_flag flag 15 on aiv blocks 8 at 0
// CHECK-NEXT:    %[[T8:[0-9]+]] = sk.subtask @q blocks 8 offset 3 from @s0 seq 2 on aiv after %[[T5]]
// CHECK-NEXT:    %[[T9:[0-9]+]] = sk.subtask @k blocks 16 at 8 offset 4 from @s1 seq 3 on aiv after %[[T0]]
// CHECK-NEXT:    sk.set_flag mode 0 flag 10 pipe mte3 on aiv blocks 16 at 8
// CHECK-NEXT:    sk.wait_flag flag 10 on aiv blocks 16 at 8
// CHECK-NEXT:    %[[T12:[0-9]+]] = sk.subtask @k blocks 16 at 8 offset 5 from @s1 seq 4 on aiv after %[[T9]]
// CHECK-NEXT:    sk.wait_flag flag 15 on aiv blocks 40 at 8
// CHECK-NEXT:    sk.wait_flag flag 10 on aiv blocks 8 at 0
// CHECK-NEXT:    sk.wait_flag flag 10 on aiv blocks 24 at 24
// CHECK-NEXT:    sk.barrier all_aiv
// CHECK-NEXT:    %[[T17:[0-9]+]] = sk.subtask @ln blocks 48 offset 6 from @s0 seq 7 on aiv after %[[T8]], %[[T12]]

// sk-check proves the lanes per core range: AIVs [0, 8), [8, 24) and [24, 48)
// PROVED: sk.kernel @m_sk0
