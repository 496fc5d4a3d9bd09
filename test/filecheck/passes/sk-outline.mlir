// RUN: sk-opt %s --split-input-file -p sk-form-scopes,sk-outline | filecheck %s

// Two runs on one stream become two SuperKernels; each keeps the stream's slots: the
// first member launches the SuperKernel, the others are disabled. Type and blocks
// follow the vendor table; the argument table is slot 0 (FFTS) then each member's
// params in seq order.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @mm mix_aic_1_2 params(in, in, out)
  aclgraph.kernel @proj aic_only params(in, out)
  aclgraph.kernel @add aiv_only params(in, in, out)
  aclgraph.buffer @x
  aclgraph.buffer @w
  aclgraph.buffer @y
  aclgraph.stream @s0 slots 7 {
    aclgraph.launch seq 0 @norm blocks 48 args(@x, @y)
    aclgraph.launch seq 1 @mm blocks 20 args(@y, @w, @x)
    aclgraph.launch seq 2 @proj blocks 24 args(@x, @y)
    aclgraph.opaque seq 3 memcpy
    aclgraph.launch seq 4 @norm blocks 40 args(@y, @x)
    aclgraph.launch seq 5 @add blocks 8 args(@x, @x, @y)
    aclgraph.launch seq 6 @add blocks 40 args(@y, @y, @x)
  }
}

// CHECK:      aclgraph.stream @s0 slots 7 {
// CHECK-NEXT:   aclgraph.launch_sk seq 0 @m_sk0
// CHECK-NEXT:   aclgraph.disabled seq 1 was launch @mm blocks 20 args(@y, @w, @x)
// CHECK-NEXT:   aclgraph.disabled seq 2 was launch @proj blocks 24 args(@x, @y)
// CHECK-NEXT:   aclgraph.opaque seq 3 memcpy
// CHECK-NEXT:   aclgraph.launch_sk seq 4 @m_sk1
// CHECK-NEXT:   aclgraph.disabled seq 5 was launch @add blocks 8 args(@x, @x, @y)
// CHECK-NEXT:   aclgraph.disabled seq 6 was launch @add blocks 40 args(@y, @y, @x)
// CHECK-NEXT: }
// max aic 24 (proj), max aiv 48 (norm; mm needs 2 x 20) -> 1:2 with max(24, 24) blocks
// CHECK-NEXT: sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 8 {
// CHECK-NEXT:   aic {
// CHECK-NEXT:     sk.subtask id 1 @mm blocks 20 offset 3 from @s0 seq 1 after [0]
// CHECK-NEXT:     sk.subtask id 2 @proj blocks 24 offset 6 from @s0 seq 2 after [1]
// CHECK-NEXT:   }
// CHECK-NEXT:   aiv {
// CHECK-NEXT:     sk.subtask id 0 @norm blocks 48 offset 1 from @s0 seq 0
// CHECK-NEXT:     sk.subtask id 1 @mm blocks 20 offset 3 from @s0 seq 1 after [0]
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: sk.kernel @m_sk1 mix_aiv_1_0 blocks 40 chain slots 9 {
// CHECK-NEXT:   aic {
// CHECK-NEXT:   }
// CHECK-NEXT:   aiv {
// CHECK-NEXT:     sk.subtask id 0 @norm blocks 40 offset 1 from @s0 seq 4
// CHECK-NEXT:     sk.subtask id 1 @add blocks 8 offset 3 from @s0 seq 5 after [0]
// CHECK-NEXT:     sk.subtask id 2 @add blocks 40 offset 6 from @s0 seq 6 after [1]
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// Only aic work -> mix_aic_1_0; only 1:1 members -> mix_aic_1_1 with max aic blocks;
// aic + aiv with max aiv <= max aic -> mix_aic_1_1.
aclgraph.model @types cores(aic = 24, aiv = 48) {
  aclgraph.kernel @c aic_only params 0
  aclgraph.kernel @c10 mix_aic_1_0 params 0
  aclgraph.kernel @m11 mix_aic_1_1 params 0
  aclgraph.kernel @v aiv_only params 0
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @c blocks 4
    aclgraph.launch seq 1 @c10 blocks 12
    aclgraph.placeholder seq 2
    aclgraph.launch seq 3 @m11 blocks 6
    aclgraph.launch seq 4 @m11 blocks 10
    aclgraph.placeholder seq 5
    aclgraph.launch seq 6 @c blocks 16
    aclgraph.launch seq 7 @v blocks 16
  }
}

// CHECK: sk.kernel @types_sk0 mix_aic_1_0 blocks 12 chain slots 1 {
// CHECK: sk.kernel @types_sk1 mix_aic_1_1 blocks 10 chain slots 1 {
// CHECK: sk.kernel @types_sk2 mix_aic_1_1 blocks 16 chain slots 1 {
