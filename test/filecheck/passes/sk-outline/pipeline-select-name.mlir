// RUN: sk-opt %s -p sk-form-scopes,sk-outline | filecheck %s
// RUN: sk-opt %s -p 'superkernel-pipeline,sk-check' > /dev/null

// select=gain compiles again with the name each member was judged under (sk.select_name):
// a SuperKernel takes its first member's carried name; a new one takes the next number above
// every carried name, so the dropped m_sk0 (its members left unfused) is never reused.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params(in, out)
  aclgraph.kernel @x aiv_only params(in, out) not_sk_capable
  aclgraph.buffer @a
  aclgraph.buffer @b
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @v blocks 8 args(@a, @b) attributes {sk.select_name = "m_sk0", sk.no_gain = "m_sk0 predicted -1.0 us of 4.0 us (needs 1.0)"}
    aclgraph.launch seq 1 @v blocks 8 args(@b, @a) attributes {sk.select_name = "m_sk0", sk.no_gain = "m_sk0 predicted -1.0 us of 4.0 us (needs 1.0)"}
    aclgraph.launch seq 2 @x blocks 8 args(@a, @b)
    aclgraph.launch seq 3 @v blocks 8 args(@b, @a) attributes {sk.select_name = "m_sk1"}
    aclgraph.launch seq 4 @v blocks 8 args(@a, @b) attributes {sk.select_name = "m_sk1"}
    aclgraph.launch seq 5 @x blocks 8 args(@b, @a)
    aclgraph.launch seq 6 @v blocks 8 args(@a, @b)
    aclgraph.launch seq 7 @v blocks 8 args(@b, @a)
  }
}

// CHECK:      aclgraph.launch_sk seq 3 @m_sk1
// CHECK:      aclgraph.launch_sk seq 6 @m_sk2
// CHECK:      sk.kernel @m_sk1 mix_aiv_1_0
// CHECK:      sk.kernel @m_sk2 mix_aiv_1_0
