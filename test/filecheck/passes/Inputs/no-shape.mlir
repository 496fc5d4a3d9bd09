aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params(inout) batch
  aclgraph.kernel @b aiv_only params(inout) batch
  aclgraph.buffer @x
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @a blocks 8 args(@x) attributes {sk.group = 0 : i64}
    aclgraph.launch seq 1 @b blocks 16 args(@x) attributes {sk.group = 0 : i64}
  }
}
