// RUN: sk-opt %s --split-input-file --verify-diagnostics -p sk-outline | filecheck %s

// A group of one kernel task: sk-form-scopes never makes one.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @k aiv_only params(inout)
  aclgraph.buffer @x
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @k blocks 8 args(@x) attributes {sk.group = 0 : i64}
    aclgraph.launch seq 1 @k blocks 8 args(@x) attributes {sk.fail = "single_task"}
  }
}

// CHECK: error: group 0 has 1 kernel task(s); rerun sk-form-scopes

// -----

// A carried SuperKernel name of another form.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @k aiv_only params(inout)
  aclgraph.buffer @x
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @k blocks 8 args(@x) attributes {sk.group = 0 : i64, sk.select_name = "other_sk0"}
    aclgraph.launch seq 1 @k blocks 8 args(@x) attributes {sk.group = 0 : i64}
  }
}

// CHECK: error: sk.select_name on @s0 seq 0: expected "m_sk<N>"

// -----

// Batch members on 8 and 16 blocks have no common launch shape.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params(inout) batch
  aclgraph.kernel @b aiv_only params(inout) batch
  aclgraph.buffer @x
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @a blocks 8 args(@x) attributes {sk.group = 0 : i64}
    aclgraph.launch seq 1 @b blocks 16 args(@x) attributes {sk.group = 0 : i64}
  }
}

// CHECK: error: m_sk0: no launch shape (exact aiv 8 and 16 conflict); rerun sk-form-scopes with the same options
