// RUN: sk-opt %s --split-input-file -p sk-form-scopes | filecheck %s
// RUN: sk-opt %s --split-input-file -p 'sk-form-scopes{options="early-start=1"}' | filecheck %s --check-prefix=ES

// Maximal runs of consecutive fusible kernel tasks on each stream; any other task
// ends a run; a run of one kernel stays unfused (single_task).
aclgraph.model @runs cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params 0
  aclgraph.kernel @c aic_only params 0
  aclgraph.event @e
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @a blocks 48
    aclgraph.launch seq 1 @c blocks 24
    aclgraph.record seq 2 @e
    aclgraph.launch seq 3 @a blocks 8
    aclgraph.opaque seq 6 memcpy
    aclgraph.launch seq 7 @a blocks 8
    aclgraph.launch seq 8 @a blocks 8
    aclgraph.launch seq 9 @a blocks 8
  }
  aclgraph.stream @s1 {
    aclgraph.wait seq 4 @e
    aclgraph.launch seq 5 @c blocks 4
    aclgraph.launch seq 11 @c blocks 4
    aclgraph.reset seq 12 @e
  }
}

// CHECK-LABEL: aclgraph.model @runs
// CHECK:      aclgraph.launch seq 0 @a blocks 48 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.launch seq 1 @c blocks 24 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.record seq 2 @e
// CHECK-NEXT: aclgraph.launch seq 3 @a blocks 8 attributes {sk.fail = "single_task"}
// CHECK-NEXT: aclgraph.opaque seq 6 memcpy
// CHECK-NEXT: aclgraph.launch seq 7 @a blocks 8 attributes {sk.group = 2 : i64}
// CHECK-NEXT: aclgraph.launch seq 8 @a blocks 8 attributes {sk.group = 2 : i64}
// CHECK-NEXT: aclgraph.launch seq 9 @a blocks 8 attributes {sk.group = 2 : i64}
// CHECK:      aclgraph.wait seq 4 @e
// CHECK-NEXT: aclgraph.launch seq 5 @c blocks 4 attributes {sk.group = 1 : i64}
// CHECK-NEXT: aclgraph.launch seq 11 @c blocks 4 attributes {sk.group = 1 : i64}

// -----

// Per-task reasons: a task group is dynamic_task; a kernel that is not sk_capable or
// that runs the early-start handshake itself while early-start=0 is op_unsupported;
// more blocks than the device's cores of its type is exceed_core_max; kernels inside
// a "do not fuse" scope are in_unfusible_scope. Each of them ends the run.
aclgraph.model @reasons cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params 0
  aclgraph.kernel @mm mix_aic_1_2 params 0
  aclgraph.kernel @opaque_k aiv_only params 0 not_sk_capable
  aclgraph.kernel @es aiv_only params 0 early_start(wait)
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @a blocks 8
    aclgraph.launch seq 1 @a blocks 8 task_group
    aclgraph.launch seq 2 @opaque_k blocks 8
    aclgraph.launch seq 3 @es blocks 8
    aclgraph.launch seq 4 @mm blocks 25
    aclgraph.launch seq 5 @a blocks 49
    aclgraph.scope_begin seq 6 none
    aclgraph.launch seq 7 @a blocks 8
    aclgraph.launch seq 8 @a blocks 8
    aclgraph.scope_end seq 9 none
  }
}

// CHECK-LABEL: aclgraph.model @reasons
// CHECK:      aclgraph.launch seq 0 @a blocks 8 attributes {sk.fail = "single_task"}
// CHECK-NEXT: aclgraph.launch seq 1 @a blocks 8 task_group attributes {sk.fail = "dynamic_task"}
// CHECK-NEXT: aclgraph.launch seq 2 @opaque_k blocks 8 attributes {sk.fail = "op_unsupported"}
// CHECK-NEXT: aclgraph.launch seq 3 @es blocks 8 attributes {sk.fail = "op_unsupported"}
// CHECK-NEXT: aclgraph.launch seq 4 @mm blocks 25 attributes {sk.fail = "exceed_core_max"}
// CHECK-NEXT: aclgraph.launch seq 5 @a blocks 49 attributes {sk.fail = "exceed_core_max"}
// CHECK-NEXT: aclgraph.scope_begin seq 6 none
// CHECK-NEXT: aclgraph.launch seq 7 @a blocks 8 attributes {sk.fail = "in_unfusible_scope"}
// CHECK-NEXT: aclgraph.launch seq 8 @a blocks 8 attributes {sk.fail = "in_unfusible_scope"}

// The early-start handshake is not emitted yet: such kernels stay unfused even with
// early-start=1.
// ES-LABEL: aclgraph.model @reasons
// ES:       aclgraph.launch seq 3 @es blocks 8 attributes {sk.fail = "op_unsupported"}

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
// CHECK:      aclgraph.launch seq 0 @v blocks 48 attributes {sk.fail = "syncall_block_mismatch"}
// CHECK-NEXT: aclgraph.launch seq 1 @vb blocks 40 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.launch seq 2 @v blocks 40 attributes {sk.group = 0 : i64}
// CHECK-NEXT: aclgraph.launch seq 3 @v blocks 48 attributes {sk.group = 1 : i64}
// CHECK-NEXT: aclgraph.launch seq 4 @mm blocks 24 attributes {sk.group = 1 : i64}
// CHECK-NEXT: aclgraph.launch seq 5 @v blocks 48 attributes {sk.group = 1 : i64}
// CHECK-NEXT: aclgraph.launch seq 6 @mm blocks 20 attributes {sk.fail = "syncall_block_mismatch"}
