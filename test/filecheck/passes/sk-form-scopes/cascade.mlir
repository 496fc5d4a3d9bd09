// RUN: sk-opt %s --split-input-file -p sk-form-scopes | filecheck %s
// RUN: sk-opt %s --split-input-file -p 'superkernel-pipeline,sk-check' | filecheck %s --check-prefix=REWRITE

// A cascade: the capture of one stream went on on @s1 (docs/design.md §3 formation). The
// stream_active task ending @s0 is no breaker; one SuperKernel holds k0..k3 and the activate
// task joins its range on @s0, keeping its slot after the launch.
aclgraph.model @cascade cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @v blocks 8
    aclgraph.launch seq 1 @v blocks 8
    aclgraph.stream_active seq 2 @s1
  }
  aclgraph.stream @s1 {
    aclgraph.launch seq 3 @v blocks 8
    aclgraph.launch seq 4 @v blocks 8
  }
}

// CHECK-LABEL: aclgraph.model @cascade
// CHECK:      aclgraph.launch seq 0 @v blocks 8 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.launch seq 1 @v blocks 8 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.stream_active seq 2 @s1 attributes {sk.group = 0 : i64}
// CHECK:      aclgraph.launch seq 3 @v blocks 8 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.launch seq 4 @v blocks 8 attributes {sk.group = 0 : i64}

// REWRITE-LABEL: aclgraph.model @cascade
// REWRITE:      aclgraph.launch_sk seq 0 @cascade_sk0
// REWRITE-NEXT: aclgraph.disabled seq 1
// REWRITE-NEXT: aclgraph.stream_active seq 2 @s1
// REWRITE:      aclgraph.disabled seq 3
// REWRITE-NEXT: aclgraph.disabled seq 4

// -----

// A stream_active with tasks after it on its stream is a breaker (default_node beside it):
// the tasks after it run beside the activated stream.
aclgraph.model @middle cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @v blocks 8
    aclgraph.launch seq 1 @v blocks 8
    aclgraph.stream_active seq 2 @s1
    aclgraph.launch seq 3 @v blocks 8
  }
  aclgraph.stream @s1 {
    aclgraph.launch seq 4 @v blocks 8
  }
}

// CHECK-LABEL: aclgraph.model @middle
// CHECK:      aclgraph.launch seq 0 @v blocks 8 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.launch seq 1 @v blocks 8 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.stream_active seq 2 @s1
// CHECK-NEXT: aclgraph.launch seq 3 @v blocks 8 attributes {sk.group = 1 : i64, sk.cut = "default_node"}
// CHECK:      aclgraph.launch seq 4 @v blocks 8 attributes {sk.group = 1 : i64}

// REWRITE-LABEL: aclgraph.model @middle
