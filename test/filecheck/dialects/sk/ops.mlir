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
    aic {
      sk.barrier id 1 sync_all
      sk.subtask id 2 @mm blocks 24 offset 3 from @s0 seq 1 after [0]
      sk.barrier id 3 all_aic
      sk.subtask id 4 @proj blocks 20 offset 6 from @s0 seq 2 after [2] attributes {note = "x"}
    }
    aiv {
      sk.subtask id 0 @norm blocks 48 offset 1 from @s0 seq 0
      sk.barrier id 1 sync_all
      sk.subtask id 2 @mm blocks 24 offset 3 from @s0 seq 1 after [0]
    }
  }
  sk.kernel @m_sk1 mix_aiv_1_0 blocks 8 queue slots 3 {
    aic {
    }
    aiv {
      sk.subtask id 0 @norm blocks 8 offset 1 from @s0 seq 5 feed 0
    }
  }
}

// CHECK:      sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 7 options "split-mode=2" {
// CHECK-NEXT:   aic {
// CHECK-NEXT:     sk.barrier id 1 sync_all
// CHECK-NEXT:     sk.subtask id 2 @mm blocks 24 offset 3 from @s0 seq 1 after [0]
// CHECK-NEXT:     sk.barrier id 3 all_aic
// CHECK-NEXT:     sk.subtask id 4 @proj blocks 20 offset 6 from @s0 seq 2 after [2] attributes {note = "x"}
// CHECK-NEXT:   }
// CHECK-NEXT:   aiv {
// CHECK-NEXT:     sk.subtask id 0 @norm blocks 48 offset 1 from @s0 seq 0
// CHECK-NEXT:     sk.barrier id 1 sync_all
// CHECK-NEXT:     sk.subtask id 2 @mm blocks 24 offset 3 from @s0 seq 1 after [0]
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: sk.kernel @m_sk1 mix_aiv_1_0 blocks 8 queue slots 3 {
// CHECK-NEXT:   aic {
// CHECK-NEXT:   }
// CHECK-NEXT:   aiv {
// CHECK-NEXT:     sk.subtask id 0 @norm blocks 8 offset 1 from @s0 seq 5 feed 0
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// Every sync, lock, preload and cache op.
aclgraph.model @all cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params(in)
  aclgraph.kernel @c aic_only params(in)
  aclgraph.cell @lock
  sk.kernel @all_sk0 mix_aic_1_2 blocks 24 queue slots 4 options "early-start=1" {
    aic {
      sk.preload id 0 max on aic
      sk.wait_flag id 13 flag 15 on aic
      sk.subtask id 5 @c blocks 24 offset 2 from @s1 seq 1 after [2]
      sk.barrier id 6 pipe_all
      sk.early_start_wait id 9 cfg 4 on aic
      sk.wait_lock id 10 @lock slot 3 on aic before [5]
      sk.reset_lock id 11 @lock slot 3 on aic
    }
    aiv {
      sk.preload id 1 @a units 3 blocks 48 on aiv
      sk.subtask id 2 @a blocks 48 offset 1 from @s0 seq 0
      sk.barrier id 4 all_aiv
      sk.set_flag id 3 mode 2 flag 15 pipe mte3 on aiv
      sk.notify id 7 @lock slot 3 on aiv after [2]
      sk.early_start_set id 8 on aiv idle 40
      sk.dcci id 12 on aiv
    }
  }
}

// CHECK:      sk.kernel @all_sk0 mix_aic_1_2 blocks 24 queue slots 4 options "early-start=1" {
// CHECK-NEXT:   aic {
// CHECK-NEXT:     sk.preload id 0 max on aic
// CHECK-NEXT:     sk.wait_flag id 13 flag 15 on aic
// CHECK-NEXT:     sk.subtask id 5 @c blocks 24 offset 2 from @s1 seq 1 after [2]
// CHECK-NEXT:     sk.barrier id 6 pipe_all
// CHECK-NEXT:     sk.early_start_wait id 9 cfg 4 on aic
// CHECK-NEXT:     sk.wait_lock id 10 @lock slot 3 on aic before [5]
// CHECK-NEXT:     sk.reset_lock id 11 @lock slot 3 on aic
// CHECK-NEXT:   }
// CHECK-NEXT:   aiv {
// CHECK-NEXT:     sk.preload id 1 @a units 3 blocks 48 on aiv
// CHECK-NEXT:     sk.subtask id 2 @a blocks 48 offset 1 from @s0 seq 0
// CHECK-NEXT:     sk.barrier id 4 all_aiv
// CHECK-NEXT:     sk.set_flag id 3 mode 2 flag 15 pipe mte3 on aiv
// CHECK-NEXT:     sk.notify id 7 @lock slot 3 on aiv after [2]
// CHECK-NEXT:     sk.early_start_set id 8 on aiv idle 40
// CHECK-NEXT:     sk.dcci id 12 on aiv
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// Every sk.depend rule (what sk-lower-sync places before its patterns run).
aclgraph.model @dep cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params 0
  aclgraph.kernel @x mix_aic_1_2 params 0
  sk.kernel @dep_sk0 mix_aic_1_2 blocks 24 chain slots 1 {
    aic {
      sk.depend id 4 barrier aiv -> mix
      sk.subtask id 8 @x blocks 24 offset 1 from @s0 seq 1 after [0]
      sk.depend id 12 early_start mix -> aiv set_idle 24 of mix wait_idle 16
      sk.depend id 16 flag_await 15
    }
    aiv {
      sk.subtask id 0 @a blocks 48 offset 1 from @s0 seq 0
      sk.depend id 4 barrier aiv -> mix
      sk.subtask id 8 @x blocks 24 offset 1 from @s0 seq 1 after [0]
      sk.depend id 12 early_start mix -> aiv set_idle 24 of mix wait_idle 16
      sk.depend id 20 pipe
      sk.depend id 24 lock_release aiv
      sk.depend id 28 lock_acquire mix
      sk.depend id 32 flag_signal 0
    }
  }
}

// CHECK:      sk.kernel @dep_sk0 mix_aic_1_2 blocks 24 chain slots 1 {
// CHECK-NEXT:   aic {
// CHECK-NEXT:     sk.depend id 4 barrier aiv -> mix
// CHECK-NEXT:     sk.subtask id 8 @x blocks 24 offset 1 from @s0 seq 1 after [0]
// CHECK-NEXT:     sk.depend id 12 early_start mix -> aiv set_idle 24 of mix wait_idle 16
// CHECK-NEXT:     sk.depend id 16 flag_await 15
// CHECK-NEXT:   }
// CHECK-NEXT:   aiv {
// CHECK-NEXT:     sk.subtask id 0 @a blocks 48 offset 1 from @s0 seq 0
// CHECK-NEXT:     sk.depend id 4 barrier aiv -> mix
// CHECK-NEXT:     sk.subtask id 8 @x blocks 24 offset 1 from @s0 seq 1 after [0]
// CHECK-NEXT:     sk.depend id 12 early_start mix -> aiv set_idle 24 of mix wait_idle 16
// CHECK-NEXT:     sk.depend id 20 pipe
// CHECK-NEXT:     sk.depend id 24 lock_release aiv
// CHECK-NEXT:     sk.depend id 28 lock_acquire mix
// CHECK-NEXT:     sk.depend id 32 flag_signal 0
// CHECK-NEXT:   }
// CHECK-NEXT: }
