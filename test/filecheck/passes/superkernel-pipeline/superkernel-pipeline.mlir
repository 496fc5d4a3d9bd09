// RUN: sk-opt %s -p 'superkernel-pipeline{options="split-mode=1:preload-code=none"}' | filecheck %s
// RUN: sk-opt %s -p 'superkernel-pipeline{options="split-mode=1:preload-code=none" verify-each=false}' | filecheck %s
// RUN: sk-opt %s --verify-each=false -p 'superkernel-pipeline{options="split-mode=1:preload-code=none"}' | filecheck %s
// RUN: sk-opt %s -p 'superkernel-pipeline{options="split-mode=1"},sk-check' > /dev/null

// The whole chain in one pass, with one option string forwarded to every pass.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params(in)
  aclgraph.kernel @b aiv_only params(in)
  aclgraph.buffer @x
  aclgraph.stream @s0 slots 2 {
    aclgraph.launch seq 0 @a blocks 48 args(@x)
    aclgraph.launch seq 1 @b blocks 48 args(@x)
  }
}

// CHECK:      aclgraph.launch_sk seq 0 @m_sk0
// CHECK-NEXT: aclgraph.disabled seq 1 was launch @b blocks 48 args(@x)
// CHECK:      sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 3 options "preload-code=none:split-mode=1" {
// CHECK:        sk.barrier all_aiv
// CHECK:      ascendc.source @m_sk0 mix_aiv_1_0 {
// CHECK:        ascendc.declare "a_middle" copies 1
// CHECK:        ascendc.guarded_call "b_middle" offset 2 copies 1 on aiv logical 48
