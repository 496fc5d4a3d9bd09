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
    %0 = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.barrier sync_all
    %2 = sk.subtask @mm blocks 24 offset 3 from @s0 seq 1 on mix after %0
    sk.barrier all_aic
    %4 = sk.subtask @proj blocks 20 offset 6 from @s0 seq 2 on aic after %2 attributes {note = "x"}
  }
  sk.kernel @m_sk1 mix_aiv_1_0 blocks 8 queue slots 3 {
    %0 = sk.subtask @norm blocks 8 offset 1 from @s0 seq 5 on aiv feed 0
    sk.preload @norm units 2 blocks 4 at 4 on aiv
    %2 = sk.subtask @norm blocks 4 at 4 offset 2 from @s0 seq 6 on aiv
    sk.set_flag mode 0 flag 10 pipe mte3 on aiv blocks 4 at 4
    sk.wait_flag flag 10 on aiv blocks 4 at 4
  }
}

// CHECK:      sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 7 options "split-mode=2" {
// CHECK-NEXT:   %[[T0:[0-9]+]] = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:   sk.barrier sync_all
// CHECK-NEXT:   %[[T2:[0-9]+]] = sk.subtask @mm blocks 24 offset 3 from @s0 seq 1 on mix after %[[T0]]
// CHECK-NEXT:   sk.barrier all_aic
// CHECK-NEXT:   %[[T4:[0-9]+]] = sk.subtask @proj blocks 20 offset 6 from @s0 seq 2 on aic after %[[T2]] attributes {note = "x"}
// CHECK-NEXT: }
// CHECK-NEXT: sk.kernel @m_sk1 mix_aiv_1_0 blocks 8 queue slots 3 {
// CHECK-NEXT:   %[[T0:[0-9]+]] = sk.subtask @norm blocks 8 offset 1 from @s0 seq 5 on aiv feed 0
// CHECK-NEXT:   sk.preload @norm units 2 blocks 4 at 4 on aiv
// CHECK-NEXT:   %[[T2:[0-9]+]] = sk.subtask @norm blocks 4 at 4 offset 2 from @s0 seq 6 on aiv
// CHECK-NEXT:   sk.set_flag mode 0 flag 10 pipe mte3 on aiv blocks 4 at 4
// CHECK-NEXT:   sk.wait_flag flag 10 on aiv blocks 4 at 4
// CHECK-NEXT: }

// -----

// Every sync, lock, preload and cache op.
aclgraph.model @all cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params(in)
  aclgraph.kernel @c aic_only params(in)
  aclgraph.cell @lock
  sk.kernel @all_sk0 mix_aic_1_2 blocks 24 queue slots 4 options "early-start=1" {
    sk.preload max on aic
    sk.preload @a units 3 blocks 48 on aiv
    %2 = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.set_flag mode 2 flag 15 pipe mte3 on aiv
    sk.barrier all_aiv
    sk.notify @lock slot 3 on aiv after %2
    sk.early_start_set on aiv idle 40
    sk.wait_flag flag 15 on aic
    sk.early_start_wait cfg 4 on aic
    %9 = sk.wait_lock @lock slot 3 on aic
    %10 = sk.subtask @c blocks 24 offset 2 from @s1 seq 1 on aic after %2, %9
    sk.barrier pipe_all on aic
    sk.reset_lock @lock slot 3 on aic
    sk.dcci on aiv
  }
}

// CHECK:      sk.kernel @all_sk0 mix_aic_1_2 blocks 24 queue slots 4 options "early-start=1" {
// CHECK-NEXT:   sk.preload max on aic
// CHECK-NEXT:   sk.preload @a units 3 blocks 48 on aiv
// CHECK-NEXT:   %[[T2:[0-9]+]] = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:   sk.set_flag mode 2 flag 15 pipe mte3 on aiv
// CHECK-NEXT:   sk.barrier all_aiv
// CHECK-NEXT:   sk.notify @lock slot 3 on aiv after %[[T2]]
// CHECK-NEXT:   sk.early_start_set on aiv idle 40
// CHECK-NEXT:   sk.wait_flag flag 15 on aic
// CHECK-NEXT:   sk.early_start_wait cfg 4 on aic
// CHECK-NEXT:   %[[T9:[0-9]+]] = sk.wait_lock @lock slot 3 on aic
// CHECK-NEXT:   %[[T10:[0-9]+]] = sk.subtask @c blocks 24 offset 2 from @s1 seq 1 on aic after %[[T2]], %[[T9]]
// CHECK-NEXT:   sk.barrier pipe_all on aic
// CHECK-NEXT:   sk.reset_lock @lock slot 3 on aic
// CHECK-NEXT:   sk.dcci on aiv
// CHECK-NEXT: }

// -----

// Every sync rule's depend op (what sk-place-sync places for sk-lower-sync to lower).
aclgraph.model @dep cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params 0
  aclgraph.kernel @x mix_aic_1_2 params 0
  sk.kernel @dep_sk0 mix_aic_1_2 blocks 24 chain slots 1 {
    %0 = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.depend_barrier aiv -> mix on mix
    %8 = sk.subtask @x blocks 24 offset 1 from @s0 seq 1 on mix after %0
    sk.depend_early_start mix -> aiv set_idle 24 of mix wait_idle 16 on mix
    sk.depend_flag_await flag 15 on aic
    sk.depend_pipe on aiv
    sk.depend_lock_release aiv on aiv
    sk.depend_lock_acquire mix on mix
    sk.depend_flag_signal flag 0 on aiv
  }
}

// CHECK:      sk.kernel @dep_sk0 mix_aic_1_2 blocks 24 chain slots 1 {
// CHECK-NEXT:   %[[T0:[0-9]+]] = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:   sk.depend_barrier aiv -> mix on mix
// CHECK-NEXT:   %[[T8:[0-9]+]] = sk.subtask @x blocks 24 offset 1 from @s0 seq 1 on mix after %[[T0]]
// CHECK-NEXT:   sk.depend_early_start mix -> aiv set_idle 24 of mix wait_idle 16 on mix
// CHECK-NEXT:   sk.depend_flag_await flag 15 on aic
// CHECK-NEXT:   sk.depend_pipe on aiv
// CHECK-NEXT:   sk.depend_lock_release aiv on aiv
// CHECK-NEXT:   sk.depend_lock_acquire mix on mix
// CHECK-NEXT:   sk.depend_flag_signal flag 0 on aiv
// CHECK-NEXT: }
