// RUN: sk-opt %s --split-input-file -p sk-outline | filecheck %s

// A chain group on one stream: the launch takes the first member slot, the others are disabled;
// one sk.kernel with a sub-task per member, each naming the one it depends on.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out) code_bytes 4096
  aclgraph.kernel @mm mix_aic_1_2 params(in, in, out) code_bytes 16384
  aclgraph.kernel @act aiv_only params(inout) code_bytes 2048
  aclgraph.buffer @x
  aclgraph.buffer @w
  aclgraph.buffer @h
  aclgraph.buffer @y
  aclgraph.stream @s0 slots 3 {
    aclgraph.launch seq 0 @norm blocks 48 args(@x, @h) attributes {sk.group = 0 : i64}
    aclgraph.launch seq 1 @mm blocks 24 args(@h, @w, @y) attributes {sk.group = 0 : i64}
    aclgraph.launch seq 2 @act blocks 48 args(@y) attributes {sk.group = 0 : i64}
  }
}

// CHECK-LABEL: aclgraph.stream @s0 slots 3 {
// CHECK-NEXT:  aclgraph.launch_sk seq 0 @m_sk0 was launch @norm blocks 48 args(@x, @h)
// CHECK-NEXT:  aclgraph.disabled seq 1 was launch @mm blocks 24 args(@h, @w, @y)
// CHECK-NEXT:  aclgraph.disabled seq 2 was launch @act blocks 48 args(@y)
// CHECK-NEXT:  }
// CHECK-NEXT:  sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 7 {
// CHECK-NEXT:  %[[T0:[0-9]+]] = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  %[[T1:[0-9]+]] = sk.subtask @mm blocks 24 offset 3 from @s0 seq 1 on mix after %[[T0]]
// CHECK-NEXT:  %[[T2:[0-9]+]] = sk.subtask @act blocks 48 offset 6 from @s0 seq 2 on aiv after %[[T1]]
// CHECK-NEXT:  }

// -----

// A queue group over two streams: the record / wait pair becomes a dependency of the sub-tasks
// (@proj after the tokens of both earlier sub-tasks); both streams keep their slots.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out) code_bytes 4096
  aclgraph.kernel @proj aic_only params(in, out) code_bytes 8192
  aclgraph.kernel @act aiv_only params(inout) code_bytes 2048
  aclgraph.buffer @x
  aclgraph.buffer @h
  aclgraph.buffer @y
  aclgraph.buffer @z
  aclgraph.event @e
  aclgraph.stream @s0 slots 3 {
    aclgraph.launch seq 0 @norm blocks 48 args(@x, @h) attributes {sk.group = 0 : i64}
    aclgraph.record seq 1 @e attributes {sk.group = 0 : i64}
    aclgraph.launch seq 2 @act blocks 48 args(@z) attributes {sk.group = 0 : i64}
  }
  aclgraph.stream @s1 slots 3 {
    aclgraph.launch seq 3 @act blocks 48 args(@y) attributes {sk.group = 0 : i64}
    aclgraph.wait seq 4 @e attributes {sk.group = 0 : i64}
    aclgraph.launch seq 5 @proj blocks 24 args(@h, @y) attributes {sk.group = 0 : i64}
  }
}

// CHECK-LABEL: aclgraph.stream @s0 slots 3 {
// CHECK-NEXT:  aclgraph.launch_sk seq 0 @m_sk0 was launch @norm blocks 48 args(@x, @h)
// CHECK-NEXT:  aclgraph.disabled seq 1 was record @e
// CHECK-NEXT:  aclgraph.disabled seq 2 was launch @act blocks 48 args(@z)
// CHECK-NEXT:  }
// CHECK-NEXT:  aclgraph.stream @s1 slots 3 {
// CHECK-NEXT:  aclgraph.disabled seq 3 was launch @act blocks 48 args(@y)
// CHECK-NEXT:  aclgraph.disabled seq 4 was wait @e
// CHECK-NEXT:  aclgraph.disabled seq 5 was launch @proj blocks 24 args(@h, @y)
// CHECK-NEXT:  }
// CHECK-NEXT:  sk.kernel @m_sk0 mix_aic_1_2 blocks 24 queue slots 7 {
// CHECK-NEXT:  %[[T0:[0-9]+]] = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  %[[T1:[0-9]+]] = sk.subtask @act blocks 48 offset 3 from @s0 seq 2 on aiv after %[[T0]]
// CHECK-NEXT:  %[[T2:[0-9]+]] = sk.subtask @act blocks 48 offset 4 from @s1 seq 3 on aiv
// CHECK-NEXT:  %[[T3:[0-9]+]] = sk.subtask @proj blocks 24 offset 5 from @s1 seq 5 on aic after %[[T0]], %[[T2]]
// CHECK-NEXT:  }
