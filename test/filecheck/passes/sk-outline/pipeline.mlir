// RUN: sk-opt %s --split-input-file -p sk-form-scopes,sk-outline | filecheck %s
// RUN: sk-opt %s --split-input-file -p 'superkernel-pipeline,sk-check' > /dev/null

// Two runs on one stream become two SuperKernels; each keeps the stream's slots: the
// first member launches the SuperKernel, the others are disabled. Type and blocks
// follow the vendor table (max aic 24, max aiv 48 with mm's 2 x 20 -> 1:2 with 24 blocks);
// the argument table is slot 0 (FFTS) then each member's params in seq order.
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

// max aic 24 (proj), max aiv 48 (norm; mm needs 2 x 20) -> 1:2 with max(24, 24) blocks

// CHECK-LABEL: aclgraph.model @m cores(aic = 24, aiv = 48) {
// CHECK: aclgraph.stream @s0 slots 7 {
// CHECK-NEXT: aclgraph.launch_sk seq 0 @m_sk0 was launch @norm blocks 48 args(@x, @y)
// CHECK-NEXT: aclgraph.disabled seq 1 was launch @mm blocks 20 args(@y, @w, @x)
// CHECK-NEXT: aclgraph.disabled seq 2 was launch @proj blocks 24 args(@x, @y)
// CHECK-NEXT: aclgraph.opaque seq 3 memcpy
// CHECK-NEXT: aclgraph.launch_sk seq 4 @m_sk1 was launch @norm blocks 40 args(@y, @x) attributes {sk.cut = "default_node"}
// CHECK-NEXT: aclgraph.disabled seq 5 was launch @add blocks 8 args(@x, @x, @y)
// CHECK-NEXT: aclgraph.disabled seq 6 was launch @add blocks 40 args(@y, @y, @x)
// CHECK-NEXT: }
// CHECK-NEXT: sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 8 {
// CHECK-NEXT: %[[T0:[0-9]+]] = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT: %[[T1:[0-9]+]] = sk.subtask @mm blocks 20 offset 3 from @s0 seq 1 on mix after %[[T0]]
// CHECK-NEXT: %[[T2:[0-9]+]] = sk.subtask @proj blocks 24 offset 6 from @s0 seq 2 on aic after %[[T1]]
// CHECK-NEXT: }
// CHECK-NEXT: sk.kernel @m_sk1 mix_aiv_1_0 blocks 40 chain slots 9 {
// CHECK-NEXT: %[[T0:[0-9]+]] = sk.subtask @norm blocks 40 offset 1 from @s0 seq 4 on aiv
// CHECK-NEXT: %[[T1:[0-9]+]] = sk.subtask @add blocks 8 offset 3 from @s0 seq 5 on aiv after %[[T0]]
// CHECK-NEXT: %[[T2:[0-9]+]] = sk.subtask @add blocks 40 offset 6 from @s0 seq 6 on aiv after %[[T1]]
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-EMPTY:

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
    aclgraph.opaque seq 2 memcpy
    aclgraph.launch seq 3 @m11 blocks 6
    aclgraph.launch seq 4 @m11 blocks 10
    aclgraph.opaque seq 5 memcpy
    aclgraph.launch seq 6 @c blocks 16
    aclgraph.launch seq 7 @v blocks 16
  }
}

// CHECK-LABEL: aclgraph.model @types cores(aic = 24, aiv = 48) {
// CHECK: aclgraph.stream @s0 {
// CHECK-NEXT: aclgraph.launch_sk seq 0 @types_sk0 was launch @c blocks 4
// CHECK-NEXT: aclgraph.disabled seq 1 was launch @c10 blocks 12
// CHECK-NEXT: aclgraph.opaque seq 2 memcpy
// CHECK-NEXT: aclgraph.launch_sk seq 3 @types_sk1 was launch @m11 blocks 6 attributes {sk.cut = "default_node"}
// CHECK-NEXT: aclgraph.disabled seq 4 was launch @m11 blocks 10
// CHECK-NEXT: aclgraph.opaque seq 5 memcpy
// CHECK-NEXT: aclgraph.launch_sk seq 6 @types_sk2 was launch @c blocks 16 attributes {sk.cut = "default_node"}
// CHECK-NEXT: aclgraph.disabled seq 7 was launch @v blocks 16
// CHECK-NEXT: }
// CHECK-NEXT: sk.kernel @types_sk0 mix_aic_1_0 blocks 12 chain slots 1 {
// CHECK-NEXT: %[[T0:[0-9]+]] = sk.subtask @c blocks 4 offset 1 from @s0 seq 0 on aic
// CHECK-NEXT: %[[T1:[0-9]+]] = sk.subtask @c10 blocks 12 offset 1 from @s0 seq 1 on aic after %[[T0]]
// CHECK-NEXT: }
// CHECK-NEXT: sk.kernel @types_sk1 mix_aic_1_1 blocks 10 chain slots 1 {
// CHECK-NEXT: %[[T0:[0-9]+]] = sk.subtask @m11 blocks 6 offset 1 from @s0 seq 3 on mix
// CHECK-NEXT: %[[T1:[0-9]+]] = sk.subtask @m11 blocks 10 offset 1 from @s0 seq 4 on mix after %[[T0]]
// CHECK-NEXT: }
// CHECK-NEXT: sk.kernel @types_sk2 mix_aic_1_1 blocks 16 chain slots 1 {
// CHECK-NEXT: %[[T0:[0-9]+]] = sk.subtask @c blocks 16 offset 1 from @s0 seq 6 on aic
// CHECK-NEXT: %[[T1:[0-9]+]] = sk.subtask @v blocks 16 offset 1 from @s0 seq 7 on aiv after %[[T0]]
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-EMPTY:

// -----

// The fork/join of docs/design.md §9: one SuperKernel over two streams; inner events become
// dependencies (D after A; C after B and D); every range slot but the launch is disabled.
// The argument table follows seq order: A 1, D 3, B 5, C 7.
aclgraph.model @w cores(aic = 24, aiv = 48) {
  aclgraph.kernel @A aiv_only params(in, out)
  aclgraph.kernel @B aiv_only params(in, out)
  aclgraph.kernel @C mix_aic_1_2 params(in, out)
  aclgraph.kernel @D aic_only params(in, out)
  aclgraph.buffer @x
  aclgraph.event @e0
  aclgraph.event @e1
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @A blocks 48 args(@x, @x)
    aclgraph.record seq 1 @e0
    aclgraph.launch seq 5 @B blocks 48 args(@x, @x)
    aclgraph.wait seq 6 @e1
    aclgraph.launch seq 7 @C blocks 24 args(@x, @x)
    aclgraph.reset seq 8 @e0
    aclgraph.reset seq 9 @e1
  }
  aclgraph.stream @s1 {
    aclgraph.wait seq 2 @e0
    aclgraph.launch seq 3 @D blocks 24 args(@x, @x)
    aclgraph.record seq 4 @e1
  }
}

// CHECK-LABEL: aclgraph.model @w cores(aic = 24, aiv = 48) {
// CHECK: aclgraph.stream @s0 {
// CHECK-NEXT: aclgraph.launch_sk seq 0 @w_sk0 was launch @A blocks 48 args(@x, @x)
// CHECK-NEXT: aclgraph.disabled seq 1 was record @e0
// CHECK-NEXT: aclgraph.disabled seq 5 was launch @B blocks 48 args(@x, @x)
// CHECK-NEXT: aclgraph.disabled seq 6 was wait @e1
// CHECK-NEXT: aclgraph.disabled seq 7 was launch @C blocks 24 args(@x, @x)
// CHECK-NEXT: aclgraph.reset seq 8 @e0
// CHECK-NEXT: aclgraph.reset seq 9 @e1
// CHECK-NEXT: }
// CHECK-NEXT: aclgraph.stream @s1 {
// CHECK-NEXT: aclgraph.disabled seq 2 was wait @e0
// CHECK-NEXT: aclgraph.disabled seq 3 was launch @D blocks 24 args(@x, @x)
// CHECK-NEXT: aclgraph.disabled seq 4 was record @e1
// CHECK-NEXT: }
// CHECK-NEXT: sk.kernel @w_sk0 mix_aic_1_2 blocks 24 queue slots 9 {
// CHECK-NEXT: %[[T0:[0-9]+]] = sk.subtask @A blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT: %[[T1:[0-9]+]] = sk.subtask @D blocks 24 offset 3 from @s1 seq 3 on aic after %[[T0]]
// CHECK-NEXT: %[[T2:[0-9]+]] = sk.subtask @B blocks 48 offset 5 from @s0 seq 5 on aiv after %[[T0]]
// CHECK-NEXT: %[[T3:[0-9]+]] = sk.subtask @C blocks 24 offset 7 from @s0 seq 7 on mix after %[[T1]], %[[T2]]
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-EMPTY:

// -----

// Boundary events. Before the scope: e0 orders s1's X before A (outside, untouched).
// Inside: A's record of e1 is waited outside by Y -> a cell: an in-kernel notify after A,
// Y's wait a value_wait, the reset a value_write 0. B's wait of e2, recorded outside by Z,
// -> an in-kernel lock wait before B, reset by the SuperKernel at exit (every wait of the
// epoch is inside), the record a value_write 1. After the scope: e3 stays an event.
aclgraph.model @bounds cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params(in)
  aclgraph.kernel @o aic_only params(in) not_sk_capable
  aclgraph.buffer @x
  aclgraph.event @e0
  aclgraph.event @e1
  aclgraph.event @e2
  aclgraph.event @e3
  aclgraph.event @j
  aclgraph.stream @s0 {
    aclgraph.wait seq 2 @e0
    aclgraph.scope_begin seq 3 "sk"
    aclgraph.launch seq 4 @v blocks 48 args(@x)
    aclgraph.record seq 5 @e1
    aclgraph.launch seq 6 @v blocks 8 args(@x)
    aclgraph.wait seq 9 @e2
    aclgraph.launch seq 10 @v blocks 16 args(@x)
    aclgraph.scope_end seq 11 "sk"
    aclgraph.record seq 12 @e3
    aclgraph.wait seq 16 @j
    aclgraph.reset seq 17 @e0
    aclgraph.reset seq 18 @e1
    aclgraph.reset seq 19 @e2
    aclgraph.reset seq 20 @e3
    aclgraph.reset seq 21 @j
  }
  aclgraph.stream @s1 {
    aclgraph.launch seq 0 @o blocks 4 args(@x)
    aclgraph.record seq 1 @e0
    aclgraph.launch seq 7 @o blocks 4 args(@x)
    aclgraph.record seq 8 @e2
    aclgraph.wait seq 13 @e1
    aclgraph.wait seq 14 @e3
    aclgraph.record seq 15 @j
  }
}

// CHECK-LABEL: aclgraph.model @bounds cores(aic = 24, aiv = 48) {
// CHECK: aclgraph.cell @e1_cell
// CHECK-NEXT: aclgraph.cell @e2_cell
// CHECK-NEXT: aclgraph.stream @s0 {
// CHECK-NEXT: aclgraph.wait seq 2 @e0
// CHECK-NEXT: aclgraph.scope_begin seq 3 "sk"
// CHECK-NEXT: aclgraph.launch_sk seq 4 @bounds_sk0 was launch @v blocks 48 args(@x)
// CHECK-NEXT: aclgraph.disabled seq 5 was record @e1
// CHECK-NEXT: aclgraph.disabled seq 6 was launch @v blocks 8 args(@x)
// CHECK-NEXT: aclgraph.disabled seq 9 was wait @e2
// CHECK-NEXT: aclgraph.disabled seq 10 was launch @v blocks 16 args(@x)
// CHECK-NEXT: aclgraph.scope_end seq 11 "sk"
// CHECK-NEXT: aclgraph.record seq 12 @e3
// CHECK-NEXT: aclgraph.wait seq 16 @j
// CHECK-NEXT: aclgraph.reset seq 17 @e0
// CHECK-NEXT: aclgraph.value_write seq 18 @e1_cell value 0 was reset @e1
// CHECK-NEXT: aclgraph.value_write seq 19 @e2_cell value 0 was reset @e2
// CHECK-NEXT: aclgraph.reset seq 20 @e3
// CHECK-NEXT: aclgraph.reset seq 21 @j
// CHECK-NEXT: }
// CHECK-NEXT: aclgraph.stream @s1 {
// CHECK-NEXT: aclgraph.launch seq 0 @o blocks 4 args(@x) attributes {sk.fail = "not_in_scope"}
// CHECK-NEXT: aclgraph.record seq 1 @e0
// CHECK-NEXT: aclgraph.launch seq 7 @o blocks 4 args(@x) attributes {sk.label = ["sk"], sk.fail = "op_unsupported", sk.fail_detail = "not_sk_capable"}
// CHECK-NEXT: aclgraph.value_write seq 8 @e2_cell value 1 was record @e2
// CHECK-NEXT: aclgraph.value_wait seq 13 @e1_cell eq 1 was wait @e1
// CHECK-NEXT: aclgraph.wait seq 14 @e3
// CHECK-NEXT: aclgraph.record seq 15 @j
// CHECK-NEXT: }
// CHECK-NEXT: sk.kernel @bounds_sk0 mix_aiv_1_0 blocks 48 chain slots 6 attributes {sk.label = ["sk"]} {
// CHECK-NEXT: %[[T0:[0-9]+]] = sk.subtask @v blocks 48 offset 1 from @s0 seq 4 on aiv
// CHECK-NEXT: sk.notify @e1_cell slot 2 on aiv
// CHECK-NEXT: %[[T2:[0-9]+]] = sk.subtask @v blocks 8 offset 3 from @s0 seq 6 on aiv after %[[T0]]
// CHECK-NEXT: %[[T3:[0-9]+]] = sk.wait_lock @e2_cell slot 5 on aiv
// CHECK-NEXT: %[[T4:[0-9]+]] = sk.subtask @v blocks 16 offset 4 from @s0 seq 10 on aiv after %[[T2]]
// CHECK-NEXT: sk.reset_lock @e2_cell slot 5 on aiv
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-EMPTY:

// -----

// Front wait and back block: s1's prefix (X) must finish before the SuperKernel starts, so
// s1's first range slot becomes a value_write 1 and the host waits on it in the spare
// slot before its range; s1's suffix (Y) must wait for the SuperKernel: the SuperKernel
// notifies a cell after s1's last member, and s1 gets value_wait eq 1 then value_write 0
// in its spare slots.
aclgraph.model @front cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.kernel @o aic_only params 0 not_sk_capable
  aclgraph.stream @s0 {
    aclgraph.scope_begin seq 1 "sk"
    aclgraph.placeholder seq 2
    aclgraph.launch seq 4 @v blocks 8
    aclgraph.launch seq 6 @v blocks 8
    aclgraph.scope_end seq 11 "sk"
  }
  aclgraph.stream @s1 {
    aclgraph.launch seq 0 @o blocks 4
    aclgraph.launch seq 5 @v blocks 8
    aclgraph.placeholder seq 7
    aclgraph.placeholder seq 8
    aclgraph.placeholder seq 9
    aclgraph.launch seq 12 @o blocks 4
  }
}

// CHECK-LABEL: aclgraph.model @front cores(aic = 24, aiv = 48) {
// CHECK: aclgraph.cell @front_sk0_front_s1
// CHECK-NEXT: aclgraph.cell @front_sk0_back_s1
// CHECK-NEXT: aclgraph.stream @s0 {
// CHECK-NEXT: aclgraph.scope_begin seq 1 "sk"
// CHECK-NEXT: aclgraph.value_wait seq 2 @front_sk0_front_s1 eq 1 was placeholder
// CHECK-NEXT: aclgraph.launch_sk seq 4 @front_sk0 was launch @v blocks 8
// CHECK-NEXT: aclgraph.disabled seq 6 was launch @v blocks 8
// CHECK-NEXT: aclgraph.scope_end seq 11 "sk"
// CHECK-NEXT: }
// CHECK-NEXT: aclgraph.stream @s1 {
// CHECK-NEXT: aclgraph.launch seq 0 @o blocks 4 attributes {sk.fail = "not_in_scope"}
// CHECK-NEXT: aclgraph.value_write seq 5 @front_sk0_front_s1 value 1 was launch @v blocks 8
// CHECK-NEXT: aclgraph.value_wait seq 7 @front_sk0_back_s1 eq 1 was placeholder
// CHECK-NEXT: aclgraph.value_write seq 8 @front_sk0_back_s1 value 0 was placeholder
// CHECK-NEXT: aclgraph.placeholder seq 9
// CHECK-NEXT: aclgraph.launch seq 12 @o blocks 4 attributes {sk.fail = "not_in_scope"}
// CHECK-NEXT: }
// CHECK-NEXT: sk.kernel @front_sk0 mix_aiv_1_0 blocks 8 queue slots 3 attributes {sk.label = ["sk"]} {
// CHECK-NEXT: %[[T0:[0-9]+]] = sk.subtask @v blocks 8 offset 1 from @s0 seq 4 on aiv
// CHECK-NEXT: %[[T1:[0-9]+]] = sk.subtask @v blocks 8 offset 1 from @s1 seq 5 on aiv
// CHECK-NEXT: sk.notify @front_sk0_back_s1 slot 1 on aiv
// CHECK-NEXT: %[[T3:[0-9]+]] = sk.subtask @v blocks 8 offset 3 from @s0 seq 6 on aiv after %[[T0]]
// CHECK-NEXT: sk.reset_lock @front_sk0_front_s1 slot 2 on aiv
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-EMPTY:

// -----

// Boundary events that joined the range (docs/design.md §3 (e')): the wait on @ein before @s1's
// first member becomes an in-kernel lock wait before it (its record on @s2 is not before the
// launch), which the SuperKernel resets at exit as every wait of that epoch is inside; the
// record of @eout after @s1's last member becomes an in-kernel notify after it. Neither
// epoch has a closing reset: @ein's cell is reset by the SuperKernel, @eout's ends at 1 for
// @s3 (SK meta warns unreset_event). No front wait, no back block, no spare slot.
aclgraph.model @boundary cores(aic = 24, aiv = 48) {
  aclgraph.kernel @c aic_only params 0
  aclgraph.kernel @v aiv_only params 0
  aclgraph.event @ein
  aclgraph.event @eout
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @c blocks 24
    aclgraph.launch seq 6 @c blocks 24
  }
  aclgraph.stream @s1 {
    aclgraph.wait seq 3 @ein
    aclgraph.placeholder seq 4
    aclgraph.launch seq 5 @v blocks 8
    aclgraph.record seq 7 @eout
  }
  aclgraph.stream @s2 {
    aclgraph.opaque seq 1 memcpy
    aclgraph.record seq 2 @ein
  }
  aclgraph.stream @s3 {
    aclgraph.wait seq 8 @eout
    aclgraph.opaque seq 9 memcpy
  }
}

// CHECK-LABEL: aclgraph.model @boundary cores(aic = 24, aiv = 48) {
// CHECK:      aclgraph.cell @ein_cell
// CHECK-NEXT: aclgraph.cell @eout_cell
// CHECK-NEXT: aclgraph.stream @s0 {
// CHECK-NEXT: aclgraph.launch_sk seq 0 @boundary_sk0 was launch @c blocks 24
// CHECK-NEXT: aclgraph.disabled seq 6 was launch @c blocks 24
// CHECK-NEXT: }
// CHECK-NEXT: aclgraph.stream @s1 {
// CHECK-NEXT: aclgraph.disabled seq 3 was wait @ein
// CHECK-NEXT: aclgraph.disabled seq 4 was placeholder
// CHECK-NEXT: aclgraph.disabled seq 5 was launch @v blocks 8
// CHECK-NEXT: aclgraph.disabled seq 7 was record @eout
// CHECK-NEXT: }
// CHECK-NEXT: aclgraph.stream @s2 {
// CHECK-NEXT: aclgraph.opaque seq 1 memcpy
// CHECK-NEXT: aclgraph.value_write seq 2 @ein_cell value 1 was record @ein
// CHECK-NEXT: }
// CHECK-NEXT: aclgraph.stream @s3 {
// CHECK-NEXT: aclgraph.value_wait seq 8 @eout_cell eq 1 was wait @eout
// CHECK-NEXT: aclgraph.opaque seq 9 memcpy
// CHECK-NEXT: }
// CHECK-NEXT: sk.kernel @boundary_sk0 mix_aic_1_1 blocks 24 queue slots 3 {
// CHECK-NEXT: %[[T0:[0-9]+]] = sk.subtask @c blocks 24 offset 1 from @s0 seq 0 on aic
// CHECK-NEXT: %[[T1:[0-9]+]] = sk.wait_lock @ein_cell slot 2 on aiv
// CHECK-NEXT: %[[T2:[0-9]+]] = sk.subtask @v blocks 8 offset 1 from @s1 seq 5 on aiv
// CHECK-NEXT: sk.notify @eout_cell slot 1 on aiv
// CHECK-NEXT: %[[T4:[0-9]+]] = sk.subtask @c blocks 24 offset 3 from @s0 seq 6 on aic after %[[T0]]
// CHECK-NEXT: sk.reset_lock @ein_cell slot 2 on aiv
// CHECK-NEXT: }
