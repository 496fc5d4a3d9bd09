// RUN: sk-opt %s --split-input-file -p sk-form-scopes | filecheck %s
// RUN: sk-opt %s --split-input-file -p 'superkernel-pipeline,sk-check' > /dev/null

// No markers: the whole model is one candidate group. Runs end at breakers: an opaque
// task on a stream with candidates (default_node beside it), an event reset, value tasks.
aclgraph.model @nomark cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.cell @c
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @v blocks 8
    aclgraph.launch seq 1 @v blocks 8
    aclgraph.opaque seq 2 memcpy
    aclgraph.launch seq 3 @v blocks 8
    aclgraph.value_write seq 4 @c value 1
    aclgraph.launch seq 5 @v blocks 8
    aclgraph.launch seq 6 @v blocks 8
  }
}

// CHECK-LABEL: aclgraph.model @nomark
// CHECK:      aclgraph.stream @s0 {
// CHECK-NEXT: aclgraph.launch seq 0 @v blocks 8 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.launch seq 1 @v blocks 8 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.opaque seq 2 memcpy
// CHECK-NEXT: aclgraph.launch seq 3 @v blocks 8 attributes {sk.fail = "default_node", sk.cut = "default_node"}
// CHECK-NEXT: aclgraph.value_write seq 4 @c value 1
// CHECK-NEXT: aclgraph.launch seq 5 @v blocks 8 attributes {sk.group = 1 : i64, sk.cut = "breaker"}
// CHECK-NEXT: aclgraph.launch seq 6 @v blocks 8 attributes {sk.group = 1 : i64}

// -----

// Only unnamed ("do not fuse") markers: everything outside them is a candidate; kernels
// inside them are in_unfusible_scope. The markers cut the runs.
aclgraph.model @unnamed cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @v blocks 8
    aclgraph.launch seq 1 @v blocks 8
    aclgraph.scope_begin seq 2 none
    aclgraph.launch seq 3 @v blocks 8
    aclgraph.launch seq 4 @v blocks 8
    aclgraph.scope_end seq 5 none
    aclgraph.launch seq 6 @v blocks 8
    aclgraph.launch seq 7 @v blocks 8
  }
}

// CHECK-LABEL: aclgraph.model @unnamed
// CHECK:      aclgraph.stream @s0 {
// CHECK-NEXT: aclgraph.launch seq 0 @v blocks 8 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.launch seq 1 @v blocks 8 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.scope_begin seq 2 none
// CHECK-NEXT: aclgraph.launch seq 3 @v blocks 8 attributes {sk.fail = "in_unfusible_scope"}
// CHECK-NEXT: aclgraph.launch seq 4 @v blocks 8 attributes {sk.fail = "in_unfusible_scope"}
// CHECK-NEXT: aclgraph.scope_end seq 5 none
// CHECK-NEXT: aclgraph.launch seq 6 @v blocks 8 attributes {sk.group = 1 : i64, sk.cut = "breaker"}
// CHECK-NEXT: aclgraph.launch seq 7 @v blocks 8 attributes {sk.group = 1 : i64}

// -----

// Named scopes: only kernels inside named scopes are candidates (not_in_scope outside);
// candidates group by identical label sets (a nested scope is a group of its own; a name
// reused for a second range is the same group); "do not fuse" wins inside a named scope.
aclgraph.model @named cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @v blocks 8
    aclgraph.scope_begin seq 1 "a"
    aclgraph.launch seq 2 @v blocks 8
    aclgraph.launch seq 3 @v blocks 8
    aclgraph.scope_begin seq 4 "b"
    aclgraph.launch seq 5 @v blocks 8
    aclgraph.launch seq 6 @v blocks 8
    aclgraph.scope_begin seq 7 none
    aclgraph.launch seq 8 @v blocks 8
    aclgraph.scope_end seq 9 none
    aclgraph.scope_end seq 10 "b"
    aclgraph.launch seq 11 @v blocks 8
    aclgraph.scope_end seq 12 "a"
    aclgraph.launch seq 13 @v blocks 8
    aclgraph.scope_begin seq 14 "a"
    aclgraph.launch seq 15 @v blocks 8
    aclgraph.launch seq 16 @v blocks 8
    aclgraph.scope_end seq 17 "a"
  }
}

// CHECK-LABEL: aclgraph.model @named
// CHECK:      aclgraph.stream @s0 {
// CHECK-NEXT: aclgraph.launch seq 0 @v blocks 8 attributes {sk.fail = "not_in_scope"}
// CHECK-NEXT: aclgraph.scope_begin seq 1 "a"
// CHECK-NEXT: aclgraph.launch seq 2 @v blocks 8 attributes {sk.label = ["a"], sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.launch seq 3 @v blocks 8 attributes {sk.label = ["a"], sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.scope_begin seq 4 "b"
// CHECK-NEXT: aclgraph.launch seq 5 @v blocks 8 attributes {sk.label = ["a", "b"], sk.group = 1 : i64}
// CHECK-NEXT: aclgraph.launch seq 6 @v blocks 8 attributes {sk.label = ["a", "b"], sk.group = 1 : i64}
// CHECK-NEXT: aclgraph.scope_begin seq 7 none
// CHECK-NEXT: aclgraph.launch seq 8 @v blocks 8 attributes {sk.label = ["a", "b"], sk.fail = "in_unfusible_scope"}
// CHECK-NEXT: aclgraph.scope_end seq 9 none
// CHECK-NEXT: aclgraph.scope_end seq 10 "b"
// CHECK-NEXT: aclgraph.launch seq 11 @v blocks 8 attributes {sk.label = ["a"], sk.fail = "single_task", sk.cut = "breaker"}
// CHECK-NEXT: aclgraph.scope_end seq 12 "a"
// CHECK-NEXT: aclgraph.launch seq 13 @v blocks 8 attributes {sk.fail = "not_in_scope"}
// CHECK-NEXT: aclgraph.scope_begin seq 14 "a"
// CHECK-NEXT: aclgraph.launch seq 15 @v blocks 8 attributes {sk.label = ["a"], sk.group = 2 : i64, sk.cut = "breaker"}
// CHECK-NEXT: aclgraph.launch seq 16 @v blocks 8 attributes {sk.label = ["a"], sk.group = 2 : i64}
// CHECK-NEXT: aclgraph.scope_end seq 17 "a"

// -----

// Interleaved same-name scopes: a scope_end closes the most recent open scope of its name.
aclgraph.model @interleaved cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.stream @s0 {
    aclgraph.scope_begin seq 0 "x"
    aclgraph.launch seq 1 @v blocks 8
    aclgraph.scope_begin seq 2 "y"
    aclgraph.launch seq 3 @v blocks 8
    aclgraph.scope_begin seq 4 "x"
    aclgraph.launch seq 5 @v blocks 8
    aclgraph.scope_end seq 6 "x"
    aclgraph.launch seq 7 @v blocks 8
    aclgraph.launch seq 8 @v blocks 8
    aclgraph.scope_end seq 9 "y"
    aclgraph.launch seq 10 @v blocks 8
    aclgraph.scope_end seq 11 "x"
  }
}

// CHECK-LABEL: aclgraph.model @interleaved
// CHECK:      aclgraph.stream @s0 {
// CHECK-NEXT: aclgraph.scope_begin seq 0 "x"
// CHECK-NEXT: aclgraph.launch seq 1 @v blocks 8 attributes {sk.label = ["x"], sk.fail = "single_task"}
// CHECK-NEXT: aclgraph.scope_begin seq 2 "y"
// CHECK-NEXT: aclgraph.launch seq 3 @v blocks 8 attributes {sk.label = ["x", "y"], sk.fail = "single_task"}
// CHECK-NEXT: aclgraph.scope_begin seq 4 "x"
// CHECK-NEXT: aclgraph.launch seq 5 @v blocks 8 attributes {sk.label = ["x", "y"], sk.fail = "single_task", sk.cut = "breaker"}
// CHECK-NEXT: aclgraph.scope_end seq 6 "x"
// CHECK-NEXT: aclgraph.launch seq 7 @v blocks 8 attributes {sk.label = ["x", "y"], sk.group = 0 : i64, sk.cut = "breaker"}
// CHECK-NEXT: aclgraph.launch seq 8 @v blocks 8 attributes {sk.label = ["x", "y"], sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.scope_end seq 9 "y"
// CHECK-NEXT: aclgraph.launch seq 10 @v blocks 8 attributes {sk.label = ["x"], sk.fail = "single_task", sk.cut = "breaker"}
// CHECK-NEXT: aclgraph.scope_end seq 11 "x"

// -----

// Per-task reasons, in precedence order: a task group is dynamic_task; a kernel that is
// not sk_capable, or that runs the early-start handshake itself, is op_unsupported; more
// blocks than the device's cores of its type is exceed_core_max; a kernel right after an
// external wait (or right before an external record) is external_depend.
aclgraph.model @pertask cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.kernel @mm mix_aic_1_2 params 0
  aclgraph.kernel @nope aiv_only params 0 not_sk_capable
  aclgraph.kernel @es aiv_only params 0 early_start(set)
  aclgraph.event @ext_in
  aclgraph.event @ext_out
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @v blocks 8 task_group
    aclgraph.launch seq 1 @nope blocks 8 task_group
    aclgraph.launch seq 2 @nope blocks 8
    aclgraph.launch seq 3 @es blocks 8
    aclgraph.launch seq 4 @mm blocks 25
    aclgraph.launch seq 5 @v blocks 49
    aclgraph.wait seq 6 @ext_in external
    aclgraph.launch seq 7 @v blocks 8
    aclgraph.launch seq 8 @v blocks 8
    aclgraph.launch seq 9 @v blocks 8
    aclgraph.record seq 10 @ext_out external
  }
}

// CHECK-LABEL: aclgraph.model @pertask
// CHECK:      aclgraph.stream @s0 {
// CHECK-NEXT: aclgraph.launch seq 0 @v blocks 8 task_group attributes {sk.fail = "dynamic_task", sk.fail_detail = "update launch"}
// CHECK-NEXT: aclgraph.launch seq 1 @nope blocks 8 task_group attributes {sk.fail = "dynamic_task", sk.fail_detail = "update launch"}
// CHECK-NEXT: aclgraph.launch seq 2 @nope blocks 8 attributes {sk.fail = "op_unsupported", sk.fail_detail = "not_sk_capable"}
// CHECK-NEXT: aclgraph.launch seq 3 @es blocks 8 attributes {sk.fail = "op_unsupported", sk.fail_detail = "early_start_capability"}
// CHECK-NEXT: aclgraph.launch seq 4 @mm blocks 25 attributes {sk.fail = "exceed_core_max"}
// CHECK-NEXT: aclgraph.launch seq 5 @v blocks 49 attributes {sk.fail = "exceed_core_max"}
// CHECK-NEXT: aclgraph.wait seq 6 @ext_in external
// CHECK-NEXT: aclgraph.launch seq 7 @v blocks 8 attributes {sk.fail = "external_depend"}
// CHECK-NEXT: aclgraph.launch seq 8 @v blocks 8 attributes {sk.fail = "single_task"}
// CHECK-NEXT: aclgraph.launch seq 9 @v blocks 8 attributes {sk.fail = "external_depend"}
// CHECK-NEXT: aclgraph.record seq 10 @ext_out external

// -----

// Fork/join across two streams (docs/design.md §9): with stream-fusion=1 the candidates A, D, B, C
// form one SuperKernel; its range on each stream takes the inner event tasks (e0 and e1
// are recorded and waited inside), so no front wait or back block is needed. The resets
// stay outside.
aclgraph.model @forkjoin cores(aic = 24, aiv = 48) {
  aclgraph.kernel @A aiv_only params(in, out)
  aclgraph.kernel @B aiv_only params(in, out)
  aclgraph.kernel @C mix_aic_1_2 params(in, out)
  aclgraph.kernel @D aic_only params(in, out)
  aclgraph.event @e0
  aclgraph.event @e1
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @A blocks 48
    aclgraph.record seq 1 @e0
    aclgraph.launch seq 5 @B blocks 48
    aclgraph.wait seq 6 @e1
    aclgraph.launch seq 7 @C blocks 24
    aclgraph.reset seq 8 @e0
    aclgraph.reset seq 9 @e1
  }
  aclgraph.stream @s1 {
    aclgraph.wait seq 2 @e0
    aclgraph.launch seq 3 @D blocks 24
    aclgraph.record seq 4 @e1
  }
}

// CHECK-LABEL: aclgraph.model @forkjoin
// CHECK:      aclgraph.stream @s0 {
// CHECK-NEXT: aclgraph.launch seq 0 @A blocks 48 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.record seq 1 @e0 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.launch seq 5 @B blocks 48 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.wait seq 6 @e1 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.launch seq 7 @C blocks 24 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.reset seq 8 @e0
// CHECK-NEXT: aclgraph.reset seq 9 @e1
// CHECK:      aclgraph.stream @s1 {
// CHECK-NEXT: aclgraph.wait seq 2 @e0 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.launch seq 3 @D blocks 24 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.record seq 4 @e1 attributes {sk.group = 0 : i64}

// -----

// Convexity: {A, C} would have the path A -> e0 -> X -> e1 -> C leave it through the
// outside kernel X and re-enter: C starts a new SuperKernel (non_convex). Through a stream
// that only has event tasks in the scope the reason is isolated_event.
aclgraph.model @convex cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.kernel @x aic_only params 0 not_sk_capable
  aclgraph.event @e0
  aclgraph.event @e1
  aclgraph.event @e2
  aclgraph.event @e3
  aclgraph.event @j
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @v blocks 8
    aclgraph.record seq 1 @e0
    aclgraph.wait seq 5 @e1
    aclgraph.launch seq 6 @v blocks 8
    aclgraph.launch seq 7 @v blocks 8
    aclgraph.record seq 8 @e2
    aclgraph.wait seq 11 @e3
    aclgraph.launch seq 12 @v blocks 8
    aclgraph.wait seq 16 @j
    aclgraph.reset seq 17 @e0
    aclgraph.reset seq 18 @e1
    aclgraph.reset seq 19 @e2
    aclgraph.reset seq 20 @e3
    aclgraph.reset seq 21 @j
  }
  aclgraph.stream @s1 {
    aclgraph.wait seq 2 @e0
    aclgraph.launch seq 3 @x blocks 4
    aclgraph.record seq 4 @e1
    aclgraph.record seq 15 @j
  }
  aclgraph.stream @s2 {
    aclgraph.wait seq 9 @e2
    aclgraph.record seq 10 @e3
  }
}

// CHECK-LABEL: aclgraph.model @convex
// CHECK:      aclgraph.stream @s0 {
// CHECK-NEXT: aclgraph.launch seq 0 @v blocks 8 attributes {sk.fail = "non_convex"}
// CHECK-NEXT: aclgraph.record seq 1 @e0
// CHECK-NEXT: aclgraph.wait seq 5 @e1
// CHECK-NEXT: aclgraph.launch seq 6 @v blocks 8 attributes {sk.group = 0 : i64, sk.cut = "non_convex"}
// CHECK-NEXT: aclgraph.launch seq 7 @v blocks 8 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.record seq 8 @e2
// CHECK-NEXT: aclgraph.wait seq 11 @e3
// CHECK-NEXT: aclgraph.launch seq 12 @v blocks 8 attributes {sk.fail = "isolated_event", sk.cut = "isolated_event"}
// CHECK-NEXT: aclgraph.wait seq 16 @j
// CHECK-NEXT: aclgraph.reset seq 17 @e0
// CHECK-NEXT: aclgraph.reset seq 18 @e1
// CHECK-NEXT: aclgraph.reset seq 19 @e2
// CHECK-NEXT: aclgraph.reset seq 20 @e3
// CHECK-NEXT: aclgraph.reset seq 21 @j
// CHECK:      aclgraph.stream @s1 {
// CHECK-NEXT: aclgraph.wait seq 2 @e0
// CHECK-NEXT: aclgraph.launch seq 3 @x blocks 4 attributes {sk.fail = "op_unsupported", sk.fail_detail = "not_sk_capable"}
// CHECK-NEXT: aclgraph.record seq 4 @e1
// CHECK-NEXT: aclgraph.record seq 15 @j
// CHECK:      aclgraph.stream @s2 {
// CHECK-NEXT: aclgraph.wait seq 9 @e2
// CHECK-NEXT: aclgraph.record seq 10 @e3

// -----

// stream-fusion=0 (here from the scope's own options): members must be totally ordered,
// so the unordered C on s1 closes the SuperKernel (stream_fusion_off).
aclgraph.model @nofusion cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.stream @s0 {
    aclgraph.scope_begin seq 0 "s" options "stream-fusion=0"
    aclgraph.launch seq 1 @v blocks 8
    aclgraph.launch seq 2 @v blocks 8
    aclgraph.launch seq 4 @v blocks 8
    aclgraph.scope_end seq 6 "s"
  }
  aclgraph.stream @s1 {
    aclgraph.launch seq 3 @v blocks 8
    aclgraph.launch seq 5 @v blocks 8
  }
}

// CHECK-LABEL: aclgraph.model @nofusion
// CHECK:      aclgraph.stream @s0 {
// CHECK-NEXT: aclgraph.scope_begin seq 0 "s" options "stream-fusion=0"
// CHECK-NEXT: aclgraph.launch seq 1 @v blocks 8 attributes {sk.label = ["s"], sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.launch seq 2 @v blocks 8 attributes {sk.label = ["s"], sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.launch seq 4 @v blocks 8 attributes {sk.label = ["s"], sk.fail = "stream_fusion_off", sk.cut = "stream_fusion_off"}
// CHECK-NEXT: aclgraph.scope_end seq 6 "s"
// CHECK:      aclgraph.stream @s1 {
// CHECK-NEXT: aclgraph.launch seq 3 @v blocks 8 attributes {sk.label = ["s"], sk.fail = "stream_fusion_off", sk.cut = "stream_fusion_off"}
// CHECK-NEXT: aclgraph.launch seq 5 @v blocks 8 attributes {sk.label = ["s"], sk.fail = "stream_fusion_off", sk.cut = "stream_fusion_off"}

// -----

// Deadlock: B waits (in-kernel) for e1, recorded after the outside kernel X. The
// SuperKernel {A, B} would hold all 48 vector cores while X needs 8 more: cut at the wait.
aclgraph.model @deadlock cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.kernel @x aiv_only params 0 not_sk_capable
  aclgraph.event @e1
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @v blocks 48
    aclgraph.wait seq 3 @e1
    aclgraph.launch seq 4 @v blocks 48
    aclgraph.reset seq 5 @e1
  }
  aclgraph.stream @s1 {
    aclgraph.launch seq 1 @x blocks 8
    aclgraph.record seq 2 @e1
  }
}

// CHECK-LABEL: aclgraph.model @deadlock
// CHECK:      aclgraph.stream @s0 {
// CHECK-NEXT: aclgraph.launch seq 0 @v blocks 48 attributes {sk.fail = "deadlock"}
// CHECK-NEXT: aclgraph.wait seq 3 @e1
// CHECK-NEXT: aclgraph.launch seq 4 @v blocks 48 attributes {sk.fail = "deadlock", sk.cut = "deadlock"}
// CHECK-NEXT: aclgraph.reset seq 5 @e1
// CHECK:      aclgraph.stream @s1 {
// CHECK-NEXT: aclgraph.launch seq 1 @x blocks 8 attributes {sk.fail = "op_unsupported", sk.fail_detail = "not_sk_capable"}
// CHECK-NEXT: aclgraph.record seq 2 @e1

// -----

// The same with an outside kernel that fits beside the SuperKernel: no deadlock, {A, B}
// fuse and the wait becomes an in-kernel lock wait.
aclgraph.model @fits cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.kernel @x aic_only params 0 not_sk_capable
  aclgraph.event @e1
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @v blocks 48
    aclgraph.wait seq 3 @e1
    aclgraph.launch seq 4 @v blocks 48
    aclgraph.reset seq 5 @e1
  }
  aclgraph.stream @s1 {
    aclgraph.launch seq 1 @x blocks 24
    aclgraph.record seq 2 @e1
  }
}

// CHECK-LABEL: aclgraph.model @fits
// CHECK:      aclgraph.stream @s0 {
// CHECK-NEXT: aclgraph.launch seq 0 @v blocks 48 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.wait seq 3 @e1 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.launch seq 4 @v blocks 48 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.reset seq 5 @e1
// CHECK:      aclgraph.stream @s1 {
// CHECK-NEXT: aclgraph.launch seq 1 @x blocks 24 attributes {sk.fail = "op_unsupported", sk.fail_detail = "not_sk_capable"}
// CHECK-NEXT: aclgraph.record seq 2 @e1

// -----

// resource_insufficient: s1's suffix must wait for the SuperKernel (a back block: a
// value_wait and a value_write on s1), but s1 has a single slot in the range and no spare
// slot after it, so nothing is fused.
aclgraph.model @noslot cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @v blocks 8
    aclgraph.launch seq 2 @v blocks 8
  }
  aclgraph.stream @s1 {
    aclgraph.launch seq 1 @v blocks 8
    aclgraph.opaque seq 3 memcpy
  }
}

// CHECK-LABEL: aclgraph.model @noslot
// CHECK:      aclgraph.stream @s0 {
// CHECK-NEXT: aclgraph.launch seq 0 @v blocks 8 attributes {sk.fail = "resource_insufficient", sk.fail_detail = "no slot for the back block on @s1"}
// CHECK-NEXT: aclgraph.launch seq 2 @v blocks 8 attributes {sk.fail = "resource_insufficient", sk.fail_detail = "no slot for the back block on @s1"}
// CHECK:      aclgraph.stream @s1 {
// CHECK-NEXT: aclgraph.launch seq 1 @v blocks 8 attributes {sk.fail = "resource_insufficient", sk.fail_detail = "no slot for the back block on @s1"}
// CHECK-NEXT: aclgraph.opaque seq 3 memcpy

// -----

// e0 is recorded inside and waited outside, and its epoch has no closing reset: it is
// converted all the same (docs/design.md §3 (e)); its cell will end at 1, as the event stays
// recorded in the original model (SK meta warns unreset_event, sk-check accepts the 1).
aclgraph.model @noreset cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.event @e0
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @v blocks 8
    aclgraph.record seq 1 @e0
    aclgraph.launch seq 2 @v blocks 8
  }
  aclgraph.stream @s1 {
    aclgraph.wait seq 3 @e0
    aclgraph.opaque seq 4 aicpu
  }
}

// CHECK-LABEL: aclgraph.model @noreset
// CHECK:      aclgraph.stream @s0 {
// CHECK-NEXT: aclgraph.launch seq 0 @v blocks 8 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.record seq 1 @e0 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.launch seq 2 @v blocks 8 attributes {sk.group = 0 : i64}
// CHECK:      aclgraph.stream @s1 {
// CHECK-NEXT: aclgraph.wait seq 3 @e0
// CHECK-NEXT: aclgraph.opaque seq 4 aicpu

// -----

// A batch-mode kernel (it calls SyncAll) must run on every core of the SuperKernel:
// a batch kernel that would not starts a new SuperKernel, and a later kernel that would
// raise the demand beyond a batch member's closes it. A part left with one kernel takes
// the reason of the cut (syncall_block_mismatch).
aclgraph.model @batch cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.kernel @vb aiv_only params 0 batch
  aclgraph.kernel @mm mix_aic_1_2 params 0 batch
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @v blocks 48
    aclgraph.launch seq 1 @vb blocks 40
    aclgraph.launch seq 2 @v blocks 40
    aclgraph.launch seq 3 @v blocks 48
    aclgraph.launch seq 4 @mm blocks 24
    aclgraph.launch seq 5 @v blocks 48
    aclgraph.launch seq 6 @mm blocks 20
  }
}

// CHECK-LABEL: aclgraph.model @batch
// CHECK:      aclgraph.stream @s0 {
// CHECK-NEXT: aclgraph.launch seq 0 @v blocks 48 attributes {sk.fail = "syncall_block_mismatch", sk.fail_detail = "exact aiv 40, candidate mix_aiv_1_0 blocks 48 gives 48"}
// CHECK-NEXT: aclgraph.launch seq 1 @vb blocks 40 attributes {sk.group = 0 : i64, sk.cut = "syncall_block_mismatch", sk.cut_detail = "exact aiv 40, candidate mix_aiv_1_0 blocks 48 gives 48"}
// CHECK-NEXT: aclgraph.launch seq 2 @v blocks 40 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.launch seq 3 @v blocks 48 attributes {sk.group = 1 : i64, sk.cut = "syncall_block_mismatch", sk.cut_detail = "exact aiv 40, candidate mix_aiv_1_0 blocks 48 gives 48"}
// CHECK-NEXT: aclgraph.launch seq 4 @mm blocks 24 attributes {sk.group = 1 : i64}
// CHECK-NEXT: aclgraph.launch seq 5 @v blocks 48 attributes {sk.group = 1 : i64}
// CHECK-NEXT: aclgraph.launch seq 6 @mm blocks 20 attributes {sk.fail = "syncall_block_mismatch", sk.fail_detail = "exact aic 20 and 24 conflict", sk.cut = "syncall_block_mismatch", sk.cut_detail = "exact aic 20 and 24 conflict"}

// -----

// Formation visits candidates in a topological order of happens-before (ties: lowest seq),
// not in seq order (docs/design.md §3 formation step 3): here the waits on @s1 were captured before
// the records they wait for (the vendor's "crossed" scenarios). In seq order the candidate
// seq 3 would come before seq 4, which it depends on, and close the SuperKernel as
// non_convex; in hb order all four kernels form one chain.
aclgraph.model @crossed cores(aic = 24, aiv = 48) {
  aclgraph.kernel @c aic_only params 0
  aclgraph.kernel @v aiv_only params 0
  aclgraph.event @e0
  aclgraph.event @e1
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @c blocks 24
    aclgraph.record seq 1 @e0
    aclgraph.launch seq 4 @c blocks 24
    aclgraph.record seq 5 @e1
  }
  aclgraph.stream @s1 {
    aclgraph.wait seq 2 @e1
    aclgraph.launch seq 3 @v blocks 1
    aclgraph.wait seq 6 @e0
    aclgraph.launch seq 7 @v blocks 1
  }
}

// CHECK-LABEL: aclgraph.model @crossed
// CHECK:      aclgraph.stream @s0 {
// CHECK-NEXT: aclgraph.launch seq 0 @c blocks 24 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.record seq 1 @e0 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.launch seq 4 @c blocks 24 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.record seq 5 @e1 attributes {sk.group = 0 : i64}
// CHECK:      aclgraph.stream @s1 {
// CHECK-NEXT: aclgraph.wait seq 2 @e1 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.launch seq 3 @v blocks 1 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.wait seq 6 @e0 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.launch seq 7 @v blocks 1 attributes {sk.group = 0 : i64}

// -----

// Boundary events join the range (docs/design.md §3 (e')): on @s1, which is not the host stream,
// the wait before its first member (on @ein, recorded outside by @s2) and the record after
// its last member (@eout, waited outside by @s3) join SuperKernel 0. Without that, @s1's
// prefix would need a front wait in a spare slot before the launch, and there is none.
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

// CHECK-LABEL: aclgraph.model @boundary
// CHECK:      aclgraph.stream @s1 {
// CHECK-NEXT: aclgraph.wait seq 3 @ein attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.placeholder seq 4 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.launch seq 5 @v blocks 8 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.record seq 7 @eout attributes {sk.group = 0 : i64}
// CHECK:      aclgraph.stream @s2 {
// CHECK-NEXT: aclgraph.opaque seq 1 memcpy
// CHECK-NEXT: aclgraph.record seq 2 @ein
// CHECK:      aclgraph.stream @s3 {
// CHECK-NEXT: aclgraph.wait seq 8 @eout
