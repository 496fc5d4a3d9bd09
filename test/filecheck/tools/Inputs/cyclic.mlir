aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.event @e0
  aclgraph.event @e1
  aclgraph.stream @s0 {
    aclgraph.wait seq 0 @e1
    aclgraph.record seq 1 @e0
  }
  aclgraph.stream @s1 {
    aclgraph.wait seq 2 @e0
    aclgraph.record seq 3 @e1
  }
}
