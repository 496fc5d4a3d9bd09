// RUN: sk-opt %s --split-input-file -p 'sk-form-scopes{options="early-start=1"},sk-outline{options="early-start=1"},sk-place-sync{options="early-start=1"},sk-lower-sync' | filecheck %s
// RUN: sk-opt %s --split-input-file -p 'superkernel-pipeline{options="early-start=1"},sk-check' > /dev/null

// early-start=1: a chain SuperKernel separates consecutive sub-tasks by the handshake:
// the previous sub-task's core types set (`SetNextTaskStart`), then both core types wait
// (`WaitPreTaskEndImpl<cfg>`, cfg = 4 x class(prev) + class(cur), aic 0 / aiv 1 / mix 2).
// A sub-kernel that sets (waits) itself gets the complement only on its idle cores
// (`idle N`: block index >= its blocks); the last one that sets itself is closed by an
// epilogue wait (cfg 10: mix -> the whole SuperKernel).
aclgraph.model @es cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params 0 early_start(set)
  aclgraph.kernel @b aiv_only params 0 early_start(wait)
  aclgraph.kernel @c aic_only params 0
  aclgraph.kernel @x mix_aic_1_1 params 0 early_start(set, wait)
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @a blocks 16
    aclgraph.launch seq 1 @b blocks 8
    aclgraph.launch seq 2 @c blocks 24
    aclgraph.launch seq 3 @x blocks 12
  }
}

// CHECK-LABEL: aclgraph.model @es cores(aic = 24, aiv = 48) {
// CHECK:      sk.kernel @es_sk0 mix_aic_1_1 blocks 24 chain slots 1 options "early-start=1" {
// CHECK-NEXT:   %[[T0:[0-9]+]] = sk.subtask @a blocks 16 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:   sk.early_start_set on aiv idle 16
// CHECK-NEXT:   sk.early_start_wait cfg 5 on aic
// CHECK-NEXT:   sk.early_start_wait cfg 5 on aiv idle 8
// CHECK-NEXT:   %[[T4:[0-9]+]] = sk.subtask @b blocks 8 offset 1 from @s0 seq 1 on aiv after %[[T0]]
// CHECK-NEXT:   sk.early_start_set on aiv
// CHECK-NEXT:   sk.early_start_wait cfg 4 on aic
// CHECK-NEXT:   sk.early_start_wait cfg 4 on aiv
// CHECK-NEXT:   %[[T8:[0-9]+]] = sk.subtask @c blocks 24 offset 1 from @s0 seq 2 on aic after %[[T4]]
// CHECK-NEXT:   sk.early_start_set on aic
// CHECK-NEXT:   sk.early_start_wait cfg 2 on aic idle 12
// CHECK-NEXT:   sk.early_start_wait cfg 2 on aiv idle 12
// CHECK-NEXT:   %[[T12:[0-9]+]] = sk.subtask @x blocks 12 offset 1 from @s0 seq 3 on mix after %[[T8]]
// CHECK-NEXT:   sk.early_start_set on aic idle 12
// CHECK-NEXT:   sk.early_start_set on aiv idle 12
// CHECK-NEXT:   sk.early_start_wait cfg 10 on aic
// CHECK-NEXT:   sk.early_start_wait cfg 10 on aiv
// CHECK-NEXT: }

// -----

// A GM lock between two sub-tasks: barriers, never a handshake alone. The notify follows a
// full barrier of the producer's class; since `a` sets itself, an epilogue handshake first
// consumes its credit, so that no barrier meets a pending early-start credit.
aclgraph.model @esl cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params 0 early_start(set)
  aclgraph.kernel @v aiv_only params 0
  aclgraph.kernel @o aiv_only params 0 not_sk_capable
  aclgraph.event @e1
  aclgraph.event @j
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @a blocks 16
    aclgraph.record seq 1 @e1
    aclgraph.launch seq 2 @v blocks 8
    aclgraph.wait seq 6 @j
    aclgraph.reset seq 7 @e1
    aclgraph.reset seq 8 @j
  }
  aclgraph.stream @s1 {
    aclgraph.wait seq 3 @e1
    aclgraph.launch seq 4 @o blocks 4
    aclgraph.record seq 5 @j
  }
}

// CHECK-LABEL: aclgraph.model @esl cores(aic = 24, aiv = 48) {
// CHECK:      sk.kernel @esl_sk0 mix_aiv_1_0 blocks 16 chain slots 2 options "early-start=1" {
// CHECK-NEXT:   %[[T0:[0-9]+]] = sk.subtask @a blocks 16 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:   sk.early_start_set on aiv idle 16
// CHECK-NEXT:   sk.early_start_wait cfg 5 on aiv
// CHECK-NEXT:   sk.barrier all_aiv
// CHECK-NEXT:   sk.notify @e1_cell slot 1 on aiv
// CHECK-NEXT:   sk.barrier all_aiv
// CHECK-NEXT:   %[[T6:[0-9]+]] = sk.subtask @v blocks 8 offset 2 from @s0 seq 2 on aiv after %[[T0]]
// CHECK-NEXT: }
