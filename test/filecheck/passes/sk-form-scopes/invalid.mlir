// RUN: sk-opt %s --split-input-file --verify-diagnostics -p sk-form-scopes | filecheck %s

// sk-form-scopes refuses what a scope's own options forbid or cannot shape.

// A scope that a memcpy breaks, under strict-scope-check=abort (its own options).
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.stream @s0 {
    aclgraph.scope_begin seq 0 "s" options "strict-scope-check=abort"
    aclgraph.launch seq 1 @v blocks 8
    aclgraph.launch seq 2 @v blocks 8
    aclgraph.opaque seq 3 memcpy
    aclgraph.launch seq 4 @v blocks 8
    aclgraph.launch seq 5 @v blocks 8
    aclgraph.scope_end seq 6 "s"
  }
}

// CHECK: error: scope "s" is broken at @m/@s0/seq 4 (default_node); strict-scope-check=abort

// -----

// A scope asking for more vector cores than the device has.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.stream @s0 {
    aclgraph.scope_begin seq 0 "s" options "debug-aiv-num=64"
    aclgraph.launch seq 1 @v blocks 8
    aclgraph.launch seq 2 @v blocks 8
    aclgraph.scope_end seq 3 "s"
  }
}

// CHECK: error: option 'debug-aiv-num': 64 is more than the device's 48 vector cores

// -----

// debug-aic-num and debug-aiv-num of a ratio no kernel type has.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.stream @s0 {
    aclgraph.scope_begin seq 0 "s" options "debug-aic-num=8:debug-aiv-num=24"
    aclgraph.launch seq 1 @v blocks 8
    aclgraph.launch seq 2 @v blocks 8
    aclgraph.scope_end seq 3 "s"
  }
}

// CHECK: error: options 'debug-aic-num' (8) and 'debug-aiv-num' (24): the ratio must be 1:1 or 1:2

// -----

// Fewer vector cores than a member of the scope needs.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.stream @s0 {
    aclgraph.scope_begin seq 0 "s" options "debug-aiv-num=4"
    aclgraph.launch seq 1 @v blocks 8
    aclgraph.launch seq 2 @v blocks 8
    aclgraph.scope_end seq 3 "s"
  }
}

// CHECK: error: option 'debug-aiv-num': 4 is fewer than the 8 vector cores a member needs

// -----

// Cube cores alone for a scope of vector kernels.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.stream @s0 {
    aclgraph.scope_begin seq 0 "s" options "debug-aic-num=4"
    aclgraph.launch seq 1 @v blocks 8
    aclgraph.launch seq 2 @v blocks 8
    aclgraph.scope_end seq 3 "s"
  }
}

// CHECK: error: option 'debug-aic-num' alone makes a SuperKernel without vector cores, but a member needs 8; give 'debug-aiv-num' too

// -----

// A scope_end with no scope open (the model's verifier).
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.stream @s0 {
    aclgraph.scope_end seq 0 "s"
    aclgraph.launch seq 1 @v blocks 8
  }
}

// CHECK: error: @m/@s0/seq 0: scope_end "s" closes no open scope; add its scope_begin first
