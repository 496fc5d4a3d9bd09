aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @k aiv_only params(inout)
  aclgraph.buffer @x
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @k blocks 8 args(@x) attributes {sk.group = 0 : i64}
    aclgraph.launch seq 1 @k blocks 8 args(@x) attributes {sk.fail = "single_task"}
  }
}
