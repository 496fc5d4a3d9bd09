// RUN: %expect-exit 1 sk-opt %s -p sk-form-scopes,sk-outline 2>&1 | filecheck %s

// A carried name of another form is refused, naming the launch.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params(in, out)
  aclgraph.buffer @a
  aclgraph.buffer @b
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @v blocks 8 args(@a, @b) attributes {sk.select_name = "../evil"}
    aclgraph.launch seq 1 @v blocks 8 args(@b, @a)
  }
}

// CHECK: error: sk.select_name on @s0 seq 0: expected "m_sk<N>"
