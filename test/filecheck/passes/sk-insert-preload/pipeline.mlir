// RUN: sk-opt %s -p 'sk-form-scopes,sk-outline,sk-place-sync,sk-lower-sync,sk-insert-preload' | filecheck %s
// RUN: sk-opt %s -p 'sk-form-scopes,sk-outline,sk-place-sync,sk-lower-sync,sk-insert-preload{options="preload-code=max"}' | filecheck %s --check-prefix=MAX
// RUN: sk-opt %s -p 'sk-form-scopes,sk-outline,sk-place-sync,sk-lower-sync,sk-insert-preload{options="preload-code=none"}' | filecheck %s --check-prefix=NONE
// RUN: sk-opt %s -p 'superkernel-pipeline,sk-check' > /dev/null

// preload-code=per-func (the default): each core type preloads its first two sub-tasks at
// the top, then after each sub-task the one two ahead (so the code of the next-but-one loads
// while the barrier before the next waits). Units: ceil(min(code_bytes, 16 KiB) / 2 KiB),
// 8 when the kernel does not say, capped by the instruction cache (AIC 16, AIV 8).
// A mix sub-task is preloaded on both core types.
aclgraph.model @p cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params 0 code_bytes 3000
  aclgraph.kernel @b aiv_only params 0 code_bytes 9000
  aclgraph.kernel @x mix_aic_1_2 params 0 code_bytes 40000
  aclgraph.kernel @d aiv_only params 0
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @a blocks 48
    aclgraph.launch seq 1 @b blocks 8
    aclgraph.launch seq 2 @x blocks 24
    aclgraph.launch seq 3 @d blocks 16
  }
}

// MAX:      sk.kernel @p_sk0 mix_aic_1_2 blocks 24 chain slots 1 {
// MAX-NEXT:   sk.preload max on aic
// MAX-NEXT:   sk.preload max on aiv
// MAX-NOT:  sk.preload

// NONE-NOT: sk.preload

// CHECK-LABEL: aclgraph.model @p cores(aic = 24, aiv = 48) {
// CHECK:      sk.kernel @p_sk0 mix_aic_1_2 blocks 24 chain slots 1 {
// CHECK-NEXT:   sk.preload @x units 8 blocks 24 on aic
// CHECK-NEXT:   sk.preload @a units 2 blocks 48 on aiv
// CHECK-NEXT:   sk.preload @b units 5 blocks 8 on aiv
// CHECK-NEXT:   %[[T3:[0-9]+]] = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:   sk.preload @x units 8 blocks 24 on aiv
// CHECK-NEXT:   sk.barrier all_aiv
// CHECK-NEXT:   %[[T6:[0-9]+]] = sk.subtask @b blocks 8 offset 1 from @s0 seq 1 on aiv after %[[T3]]
// CHECK-NEXT:   sk.preload @d units 8 blocks 16 on aiv
// CHECK-NEXT:   sk.barrier sync_all
// CHECK-NEXT:   %[[T9:[0-9]+]] = sk.subtask @x blocks 24 offset 1 from @s0 seq 2 on mix after %[[T6]]
// CHECK-NEXT:   sk.barrier sync_all
// CHECK-NEXT:   %[[T11:[0-9]+]] = sk.subtask @d blocks 16 offset 1 from @s0 seq 3 on aiv after %[[T9]]
// CHECK-NEXT: }
