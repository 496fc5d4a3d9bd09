// RUN: SKIR_ROUNDTRIP
// RUN: SKIR_GENERIC_ROUNDTRIP

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @mm mix_aic_1_2 params(in, in, out)
  aclgraph.kernel @proj aic_only params 1
  aclgraph.stream @s0 slots 3 {
    aclgraph.launch_sk seq 0 @m_sk0
    aclgraph.placeholder seq 1
    aclgraph.placeholder seq 2
  }
  sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 7 options "split-mode=2" {
    sk.subtask id 0 @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.barrier id 1 sync_all
    sk.subtask id 2 @mm blocks 24 offset 3 from @s0 seq 1 on mix after [0]
    sk.barrier id 3 all_aic
    sk.subtask id 4 @proj blocks 20 offset 6 from @s0 seq 2 on aic after [2] attributes {note = "x"}
  }
  sk.kernel @m_sk1 mix_aiv_1_0 blocks 8 queue slots 3 {
    sk.subtask id 0 @norm blocks 8 offset 1 from @s0 seq 5 on aiv feed 0
    sk.preload id 1 @norm units 2 blocks 4 at 4 on aiv
    sk.subtask id 2 @norm blocks 4 at 4 offset 2 from @s0 seq 6 on aiv
    sk.set_flag id 3 mode 0 flag 10 pipe mte3 on aiv blocks 4 at 4
    sk.wait_flag id 4 flag 10 on aiv blocks 4 at 4
  }
}

// CHECK:      sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 7 options "split-mode=2" {
// CHECK-NEXT:   sk.subtask id 0 @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:   sk.barrier id 1 sync_all
// CHECK-NEXT:   sk.subtask id 2 @mm blocks 24 offset 3 from @s0 seq 1 on mix after [0]
// CHECK-NEXT:   sk.barrier id 3 all_aic
// CHECK-NEXT:   sk.subtask id 4 @proj blocks 20 offset 6 from @s0 seq 2 on aic after [2] attributes {note = "x"}
// CHECK-NEXT: }
// CHECK-NEXT: sk.kernel @m_sk1 mix_aiv_1_0 blocks 8 queue slots 3 {
// CHECK-NEXT:   sk.subtask id 0 @norm blocks 8 offset 1 from @s0 seq 5 on aiv feed 0
// CHECK-NEXT:   sk.preload id 1 @norm units 2 blocks 4 at 4 on aiv
// CHECK-NEXT:   sk.subtask id 2 @norm blocks 4 at 4 offset 2 from @s0 seq 6 on aiv
// CHECK-NEXT:   sk.set_flag id 3 mode 0 flag 10 pipe mte3 on aiv blocks 4 at 4
// CHECK-NEXT:   sk.wait_flag id 4 flag 10 on aiv blocks 4 at 4
// CHECK-NEXT: }

// -----

// Every sync, lock, preload and cache op.
aclgraph.model @all cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params(in)
  aclgraph.kernel @c aic_only params(in)
  aclgraph.cell @lock
  sk.kernel @all_sk0 mix_aic_1_2 blocks 24 queue slots 4 options "early-start=1" {
    sk.preload id 0 max on aic
    sk.preload id 1 @a units 3 blocks 48 on aiv
    sk.subtask id 2 @a blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.set_flag id 3 mode 2 flag 15 pipe mte3 on aiv
    sk.barrier id 4 all_aiv
    sk.notify id 5 @lock slot 3 on aiv after [2]
    sk.early_start_set id 6 on aiv idle 40
    sk.wait_flag id 7 flag 15 on aic
    sk.early_start_wait id 8 cfg 4 on aic
    sk.wait_lock id 9 @lock slot 3 on aic before [10]
    sk.subtask id 10 @c blocks 24 offset 2 from @s1 seq 1 on aic after [2]
    sk.barrier id 11 pipe_all on aic
    sk.reset_lock id 12 @lock slot 3 on aic
    sk.dcci id 13 on aiv
  }
}

// CHECK:      sk.kernel @all_sk0 mix_aic_1_2 blocks 24 queue slots 4 options "early-start=1" {
// CHECK-NEXT:   sk.preload id 0 max on aic
// CHECK-NEXT:   sk.preload id 1 @a units 3 blocks 48 on aiv
// CHECK-NEXT:   sk.subtask id 2 @a blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:   sk.set_flag id 3 mode 2 flag 15 pipe mte3 on aiv
// CHECK-NEXT:   sk.barrier id 4 all_aiv
// CHECK-NEXT:   sk.notify id 5 @lock slot 3 on aiv after [2]
// CHECK-NEXT:   sk.early_start_set id 6 on aiv idle 40
// CHECK-NEXT:   sk.wait_flag id 7 flag 15 on aic
// CHECK-NEXT:   sk.early_start_wait id 8 cfg 4 on aic
// CHECK-NEXT:   sk.wait_lock id 9 @lock slot 3 on aic before [10]
// CHECK-NEXT:   sk.subtask id 10 @c blocks 24 offset 2 from @s1 seq 1 on aic after [2]
// CHECK-NEXT:   sk.barrier id 11 pipe_all on aic
// CHECK-NEXT:   sk.reset_lock id 12 @lock slot 3 on aic
// CHECK-NEXT:   sk.dcci id 13 on aiv
// CHECK-NEXT: }

// -----

// Every sync rule's depend op (what sk-place-sync places for sk-lower-sync to lower).
aclgraph.model @dep cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params 0
  aclgraph.kernel @x mix_aic_1_2 params 0
  sk.kernel @dep_sk0 mix_aic_1_2 blocks 24 chain slots 1 {
    sk.subtask id 0 @a blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.depend_barrier id 4 aiv -> mix on mix
    sk.subtask id 8 @x blocks 24 offset 1 from @s0 seq 1 on mix after [0]
    sk.depend_early_start id 12 mix -> aiv set_idle 24 of mix wait_idle 16 on mix
    sk.depend_flag_await id 16 flag 15 on aic
    sk.depend_pipe id 20 on aiv
    sk.depend_lock_release id 24 aiv on aiv
    sk.depend_lock_acquire id 28 mix on mix
    sk.depend_flag_signal id 32 flag 0 on aiv
  }
}

// CHECK:      sk.kernel @dep_sk0 mix_aic_1_2 blocks 24 chain slots 1 {
// CHECK-NEXT:   sk.subtask id 0 @a blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:   sk.depend_barrier id 4 aiv -> mix on mix
// CHECK-NEXT:   sk.subtask id 8 @x blocks 24 offset 1 from @s0 seq 1 on mix after [0]
// CHECK-NEXT:   sk.depend_early_start id 12 mix -> aiv set_idle 24 of mix wait_idle 16 on mix
// CHECK-NEXT:   sk.depend_flag_await id 16 flag 15 on aic
// CHECK-NEXT:   sk.depend_pipe id 20 on aiv
// CHECK-NEXT:   sk.depend_lock_release id 24 aiv on aiv
// CHECK-NEXT:   sk.depend_lock_acquire id 28 mix on mix
// CHECK-NEXT:   sk.depend_flag_signal id 32 flag 0 on aiv
// CHECK-NEXT: }
