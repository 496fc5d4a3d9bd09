// RUN: sk-opt %s --split-input-file -p sk-form-scopes | filecheck %s
// RUN: sk-opt %s --split-input-file -p 'sk-form-scopes{options="fuse-updated=1"}' | filecheck %s --check-prefix=FUSED
// RUN: sk-opt %s --split-input-file -p 'superkernel-pipeline{options="fuse-updated=1"},sk-check' > /dev/null

// A decode layer whose attention is updated before every replay (task group 3, its arguments
// only), behind the external wait and reset the capture puts before the group. By default it
// stays a launch (dynamic_task) and cuts the layer; with fuse-updated=1 it fuses, and the wait
// and the reset join the range without being breakers (they stay in their slots: sk-outline).
aclgraph.model @dec cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @fia mix_aic_1_2 params(in, in, tiling, out)
  aclgraph.kernel @gate mix_aic_1_2 params(in, in, tiling, out)
  aclgraph.buffer @x
  aclgraph.buffer @h
  aclgraph.buffer @kv
  aclgraph.buffer @tl
  aclgraph.buffer @a
  aclgraph.buffer @y
  aclgraph.buffer @w
  aclgraph.buffer @z
  aclgraph.event @upd
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @norm blocks 8 args(@x, @h)
    aclgraph.wait seq 1 @upd external
    aclgraph.reset seq 2 @upd
    aclgraph.launch seq 3 @fia blocks 8 args(@h, @kv, @tl, @a) task_group 3 update args
    aclgraph.launch seq 4 @norm blocks 8 args(@a, @y)
    aclgraph.launch seq 5 @gate blocks 8 args(@y, @w, @tl, @z) task_group 4
  }
}

// CHECK-LABEL: aclgraph.model @dec
// CHECK:       aclgraph.launch seq 0 @norm blocks 8 args(@x, @h) attributes {sk.fail = "single_task"}
// CHECK:       aclgraph.launch seq 3 @fia blocks 8 args(@h, @kv, @tl, @a) task_group 3 update args attributes {sk.fail = "dynamic_task", sk.fail_detail = "fuse-updated=0"}
// CHECK:       aclgraph.launch seq 4 @norm blocks 8 args(@a, @y) attributes {sk.fail = "single_task", sk.cut = "breaker"}
// CHECK:       aclgraph.launch seq 5 @gate blocks 8 args(@y, @w, @tl, @z) task_group 4 attributes {sk.fail = "dynamic_task", sk.fail_detail = "update launch"}

// FUSED-LABEL: aclgraph.model @dec
// FUSED:       aclgraph.launch seq 0 @norm blocks 8 args(@x, @h) attributes {sk.group = 0 : i64}
// FUSED-NEXT:  aclgraph.wait seq 1 @upd external attributes {sk.group = 0 : i64}
// FUSED-NEXT:  aclgraph.reset seq 2 @upd attributes {sk.group = 0 : i64}
// FUSED-NEXT:  aclgraph.launch seq 3 @fia blocks 8 args(@h, @kv, @tl, @a) task_group 3 update args attributes {sk.group = 0 : i64}
// FUSED-NEXT:  aclgraph.launch seq 4 @norm blocks 8 args(@a, @y) attributes {sk.group = 0 : i64}
// FUSED-NEXT:  aclgraph.launch seq 5 @gate blocks 8 args(@y, @w, @tl, @z) task_group 4 attributes {sk.fail = "dynamic_task", sk.fail_detail = "update launch"}

// -----

// A reset whose epoch also holds a wait on another stream is no part of the prefix: it stays a
// breaker, so the updated kernel after it fuses only with what follows it.
aclgraph.model @shared cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.buffer @x
  aclgraph.buffer @h
  aclgraph.buffer @a
  aclgraph.buffer @y
  aclgraph.event @upd
  aclgraph.event @j
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @norm blocks 8 args(@x, @h)
    aclgraph.wait seq 3 @upd external
    aclgraph.wait seq 4 @j
    aclgraph.reset seq 5 @upd
    aclgraph.launch seq 6 @norm blocks 8 args(@h, @a) task_group 1 update args
    aclgraph.launch seq 7 @norm blocks 8 args(@a, @y)
  }
  aclgraph.stream @s1 {
    aclgraph.wait seq 1 @upd external
    aclgraph.record seq 2 @j
  }
}

// FUSED-LABEL: aclgraph.model @shared
// FUSED:       aclgraph.launch seq 0 @norm blocks 8 args(@x, @h) attributes {sk.fail = "single_task"}
// FUSED:       aclgraph.reset seq 5 @upd
// FUSED-NEXT:  aclgraph.launch seq 6 @norm blocks 8 args(@h, @a) task_group 1 update args attributes {sk.group = 0 : i64, sk.cut = "breaker"}
// FUSED-NEXT:  aclgraph.launch seq 7 @norm blocks 8 args(@a, @y) attributes {sk.group = 0 : i64}
