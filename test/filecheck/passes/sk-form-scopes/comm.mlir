// RUN: sk-opt %s --split-input-file -p sk-form-scopes | filecheck %s
// RUN: sk-opt %s --split-input-file -p 'sk-form-scopes{options="fuse-comm=0"}' | filecheck %s --check-prefix=APART
// RUN: sk-opt %s --split-input-file -p 'superkernel-pipeline,sk-check' > /dev/null

// A tensor-parallel layer on one stream: the collectives fuse with the matmuls (fuse-comm=1),
// or stay apart (fuse-comm=0: comm_kernel).
aclgraph.model @tp cores(aic = 24, aiv = 48) {
  aclgraph.kernel @mm aic_only params(in, out)
  aclgraph.kernel @ar aiv_only params(inout)
  aclgraph.buffer @x
  aclgraph.buffer @y
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @mm blocks 24 args(@x, @y)
    aclgraph.launch seq 1 @ar blocks 16 args(@y) comm group tp0 op all_reduce
    aclgraph.launch seq 2 @mm blocks 24 args(@y, @x)
    aclgraph.launch seq 3 @ar blocks 16 args(@x) comm group tp0 op all_reduce
  }
}

// CHECK-LABEL: aclgraph.model @tp
// CHECK:       aclgraph.launch seq 1 @ar blocks 16 args(@y) comm group tp0 op all_reduce attributes {sk.group = 0 : i64}
// CHECK:       aclgraph.launch seq 3 @ar blocks 16 args(@x) comm group tp0 op all_reduce attributes {sk.group = 0 : i64}
// APART-LABEL: aclgraph.model @tp
// APART:       aclgraph.launch seq 1 @ar blocks 16 args(@y) comm group tp0 op all_reduce attributes {sk.fail = "comm_kernel", sk.fail_detail = "all_reduce of group tp0 (fuse-comm=0)"}

// -----

// Beside a 32-block vector kernel on another stream (it cannot fuse, and nothing orders it),
// a SuperKernel of the layer would hold 24 of the 48 vector cores while the other holds 32:
// not resident. The collective cuts (comm_coresidency).
aclgraph.model @beside cores(aic = 24, aiv = 48) {
  aclgraph.kernel @mm aic_only params(in, out)
  aclgraph.kernel @ar aiv_only params(inout)
  aclgraph.kernel @big aiv_only params(in, out) not_sk_capable
  aclgraph.buffer @x
  aclgraph.buffer @y
  aclgraph.buffer @u
  aclgraph.buffer @v
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @mm blocks 24 args(@x, @y)
    aclgraph.launch seq 1 @ar blocks 16 args(@y) comm group tp0 op all_reduce
  }
  aclgraph.stream @s1 {
    aclgraph.launch seq 2 @big blocks 32 args(@u, @v)
  }
}

// CHECK-LABEL: aclgraph.model @beside
// CHECK:       aclgraph.launch seq 0 @mm blocks 24 args(@x, @y) attributes {sk.fail = "comm_coresidency"}
// CHECK-NEXT:  aclgraph.launch seq 1 @ar blocks 16 args(@y) comm group tp0 op all_reduce attributes {sk.fail = "comm_coresidency", sk.cut = "comm_coresidency"}
