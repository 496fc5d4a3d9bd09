// RUN: sk-opt %s --split-input-file -p sk-outline | filecheck %s
// RUN: sk-opt %s --split-input-file -p 'sk-outline,sk-place-sync,sk-lower-sync,sk-prune-sync,sk-check' > /dev/null

// An updated member on the host stream (docs/design.md §3 "Slots"): the group's external wait
// and its reset keep their slots, and the launch takes the first member slot after them that is
// no task group's (a group's update re-issues its tasks); the other member slots are disabled.
aclgraph.model @host cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.buffer @x
  aclgraph.buffer @h
  aclgraph.buffer @a
  aclgraph.buffer @y
  aclgraph.event @upd
  aclgraph.stream @s0 slots 5 {
    aclgraph.launch seq 0 @norm blocks 8 args(@x, @h) attributes {sk.group = 0 : i64}
    aclgraph.wait seq 1 @upd external attributes {sk.group = 0 : i64}
    aclgraph.reset seq 2 @upd attributes {sk.group = 0 : i64}
    aclgraph.launch seq 3 @norm blocks 8 args(@h, @a) task_group 3 update args attributes {sk.group = 0 : i64}
    aclgraph.launch seq 4 @norm blocks 8 args(@a, @y) attributes {sk.group = 0 : i64}
  }
}

// CHECK-LABEL: aclgraph.model @host
// CHECK:       aclgraph.stream @s0 slots 5 {
// CHECK-NEXT:    aclgraph.disabled seq 0 was launch @norm blocks 8 args(@x, @h)
// CHECK-NEXT:    aclgraph.wait seq 1 @upd external
// CHECK-NEXT:    aclgraph.reset seq 2 @upd
// CHECK-NEXT:    aclgraph.disabled seq 3 was launch @norm blocks 8 args(@h, @a) task_group 3 update args
// CHECK-NEXT:    aclgraph.launch_sk seq 4 @host_sk0 was launch @norm blocks 8 args(@a, @y)

// -----

// On another member stream the prefix must end before the launch: a front wait whose write
// takes the slot after the prefix (the updated member's), and whose wait precedes the launch.
aclgraph.model @cross cores(aic = 24, aiv = 48) {
  aclgraph.kernel @k aiv_only params(in, out)
  aclgraph.buffer @a
  aclgraph.buffer @b
  aclgraph.buffer @c
  aclgraph.buffer @x
  aclgraph.buffer @y
  aclgraph.buffer @z
  aclgraph.event @ext
  aclgraph.event @e0
  aclgraph.event @e1
  aclgraph.stream @s0 slots 4 {
    aclgraph.launch seq 0 @k blocks 8 args(@a, @b) attributes {sk.group = 0 : i64}
    aclgraph.record seq 1 @e0 attributes {sk.group = 0 : i64}
    aclgraph.wait seq 8 @e1 attributes {sk.group = 0 : i64}
    aclgraph.launch seq 9 @k blocks 8 args(@b, @c) attributes {sk.group = 0 : i64}
  }
  aclgraph.stream @s1 slots 7 {
    aclgraph.wait seq 2 @e0 attributes {sk.group = 0 : i64}
    aclgraph.launch seq 3 @k blocks 8 args(@b, @x) attributes {sk.group = 0 : i64}
    aclgraph.wait seq 4 @ext external attributes {sk.group = 0 : i64}
    aclgraph.reset seq 5 @ext attributes {sk.group = 0 : i64}
    aclgraph.launch seq 6 @k blocks 8 args(@x, @y) task_group 2 update args attributes {sk.group = 0 : i64}
    aclgraph.record seq 7 @e1 attributes {sk.group = 0 : i64}
    aclgraph.launch seq 10 @k blocks 8 args(@y, @z) attributes {sk.group = 0 : i64}
  }
}

// CHECK-LABEL: aclgraph.model @cross
// CHECK:       aclgraph.stream @s0 slots 4 {
// CHECK-NEXT:    aclgraph.value_wait seq 0 @cross_sk0_front_s1 eq 1 was launch @k blocks 8 args(@a, @b)
// CHECK-NEXT:    aclgraph.disabled seq 1 was record @e0
// CHECK-NEXT:    aclgraph.disabled seq 8 was wait @e1
// CHECK-NEXT:    aclgraph.launch_sk seq 9 @cross_sk0 was launch @k blocks 8 args(@b, @c)
// CHECK:       aclgraph.stream @s1 slots 7 {
// CHECK-NEXT:    aclgraph.disabled seq 2 was wait @e0
// CHECK-NEXT:    aclgraph.disabled seq 3 was launch @k blocks 8 args(@b, @x)
// CHECK-NEXT:    aclgraph.wait seq 4 @ext external
// CHECK-NEXT:    aclgraph.reset seq 5 @ext
// CHECK-NEXT:    aclgraph.value_write seq 6 @cross_sk0_front_s1 value 1 was launch @k blocks 8 args(@x, @y) task_group 2 update args
// CHECK-NEXT:    aclgraph.disabled seq 7 was record @e1
// CHECK-NEXT:    aclgraph.disabled seq 10 was launch @k blocks 8 args(@y, @z)
// CHECK:         sk.reset_lock @cross_sk0_front_s1
