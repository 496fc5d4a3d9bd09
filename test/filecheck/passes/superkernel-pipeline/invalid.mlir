// RUN: sk-opt %s --split-input-file --verify-diagnostics -p superkernel-pipeline | filecheck %s

// The pipeline's refusals are its passes' and the model's verifier's.

// A scope that a memcpy breaks, under strict-scope-check=abort (its own options).
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.stream @s0 {
    aclgraph.scope_begin seq 0 "s" options "strict-scope-check=abort"
    aclgraph.launch seq 1 @v blocks 8
    aclgraph.opaque seq 2 memcpy
    aclgraph.launch seq 3 @v blocks 8
    aclgraph.scope_end seq 4 "s"
  }
}

// CHECK: error: scope "s" is broken at @m/@s0/seq 1 (default_node); strict-scope-check=abort

// -----

// A wait whose event nothing records (the model's verifier).
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.event @e
  aclgraph.stream @s0 {
    aclgraph.wait seq 0 @e
    aclgraph.launch seq 1 @v blocks 8
  }
}

// CHECK: error: @m/@s0/seq 0: wait on @e has no record in its epoch; record @e before it (after the last reset) or mark the wait external

// -----

// A model already rewritten: its SuperKernel's syncs are there.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @w aiv_only params(out)
  aclgraph.kernel @r aiv_only params(in)
  aclgraph.buffer @x bytes 4096
  aclgraph.stream @s0 slots 2 {
    aclgraph.launch_sk seq 0 @m_sk0 was launch @w blocks 48 args(@x)
    aclgraph.disabled seq 1 was launch @r blocks 48 args(@x)
  }
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 2 {
    %0 = sk.subtask @w blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.barrier all_aiv
    %2 = sk.subtask @r blocks 48 offset 2 from @s0 seq 1 on aiv after %0
  }
}

// CHECK: error: sk.kernel @m_sk0 is already lowered

// -----

// A scope asking for more cube cores than the device has.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.stream @s0 {
    aclgraph.scope_begin seq 0 "s" options "debug-aic-num=30:debug-aiv-num=60"
    aclgraph.launch seq 1 @v blocks 8
    aclgraph.launch seq 2 @v blocks 8
    aclgraph.scope_end seq 3 "s"
  }
}

// CHECK: error: option 'debug-aic-num': 30 is more than the device's 24 cube cores

// -----

// Vector cores alone for a scope holding a cube kernel.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.kernel @c aic_only params 0
  aclgraph.stream @s0 {
    aclgraph.scope_begin seq 0 "s" options "debug-aiv-num=48"
    aclgraph.launch seq 1 @v blocks 8
    aclgraph.launch seq 2 @c blocks 8
    aclgraph.scope_end seq 3 "s"
  }
}

// CHECK: error: option 'debug-aiv-num' alone makes a SuperKernel without cube cores, but a member needs 8; give 'debug-aic-num' too
