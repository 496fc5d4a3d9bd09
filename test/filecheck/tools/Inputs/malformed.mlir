aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params(in)
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @a blocks
  }
}
