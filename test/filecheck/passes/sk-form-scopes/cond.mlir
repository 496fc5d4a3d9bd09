// RUN: sk-opt %s -p sk-form-scopes | filecheck %s
// RUN: sk-opt %s -p superkernel-pipeline,sk-check | filecheck %s --check-prefix=OUTLINED

// docs/design.md §3 "Conditional sub-models": a condition task is a breaker on its stream
// (default_node), and formation runs inside each sub-model on its own; its SuperKernels are
// named <model>_<submodel>_sk<N>.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @k aiv_only params(inout)
  aclgraph.buffer @x
  aclgraph.cell @flag
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @k blocks 8 args(@x)
    aclgraph.cond seq 1 if @flag {
      aclgraph.model @body cores(aic = 24, aiv = 48) {
        aclgraph.kernel @k aiv_only params(inout)
        aclgraph.buffer @x
        aclgraph.stream @s1 {
          aclgraph.launch seq 2 @k blocks 8 args(@x)
          aclgraph.launch seq 3 @k blocks 8 args(@x)
        }
      }
    }
    aclgraph.launch seq 4 @k blocks 8 args(@x)
  }
}

// CHECK:      aclgraph.launch seq 0 @k blocks 8 args(@x) attributes {sk.fail = "default_node"}
// CHECK:      aclgraph.launch seq 2 @k blocks 8 args(@x) attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.launch seq 3 @k blocks 8 args(@x) attributes {sk.group = 0 : i64}
// CHECK:      aclgraph.launch seq 4 @k blocks 8 args(@x) attributes {sk.fail = "default_node", sk.cut = "default_node"}

// OUTLINED:      aclgraph.launch_sk seq 2 @m_body_sk0 was launch @k blocks 8 args(@x)
// OUTLINED-NEXT: aclgraph.disabled seq 3 was launch @k blocks 8 args(@x)
// OUTLINED:      sk.kernel @m_body_sk0 mix_aiv_1_0 blocks 8 chain slots 3 {
// OUTLINED:      ascendc.source @m_body_sk0
