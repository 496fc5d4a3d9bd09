// RUN: sk-opt %s --split-input-file -p sk-lower-sync | filecheck %s
// RUN: sk-opt %s --split-input-file -p sk-lower-sync | sk-opt --split-input-file > /dev/null

// Each sk.depend_* op, written by hand, lowered by its pattern (sk-lower-sync selects the pattern by op type).

// A chain: one class barrier per class pair (aiv -> aiv all_aiv, aic -> aic all_aic, else sync_all),
// a lock release after the producer before its notify.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @act aiv_only params(inout)
  aclgraph.kernel @mm mix_aic_1_2 params(in, in, out)
  aclgraph.kernel @proj aic_only params(in)
  aclgraph.cell @c0
  sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 8 {
    sk.subtask id 0 @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.depend_barrier id 1 aiv -> aiv on aiv
    sk.subtask id 2 @act blocks 48 offset 3 from @s0 seq 1 on aiv after [0]
    sk.depend_barrier id 3 aiv -> mix on mix
    sk.subtask id 4 @mm blocks 24 offset 4 from @s0 seq 2 on mix after [2]
    sk.depend_barrier id 5 mix -> aic on mix
    sk.subtask id 6 @proj blocks 24 offset 7 from @s0 seq 3 on aic after [4]
    sk.depend_barrier id 7 aic -> aic on aic
    sk.subtask id 8 @proj blocks 24 offset 8 from @s0 seq 4 on aic after [6]
    sk.depend_lock_release id 9 aic on aic
    sk.notify id 10 @c0 slot 9 on aic after [8]
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 8 {
// CHECK-NEXT:  sk.subtask id 0 @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  sk.barrier id 1 all_aiv
// CHECK-NEXT:  sk.subtask id 2 @act blocks 48 offset 3 from @s0 seq 1 on aiv after [0]
// CHECK-NEXT:  sk.barrier id 3 sync_all
// CHECK-NEXT:  sk.subtask id 4 @mm blocks 24 offset 4 from @s0 seq 2 on mix after [2]
// CHECK-NEXT:  sk.barrier id 5 sync_all
// CHECK-NEXT:  sk.subtask id 6 @proj blocks 24 offset 7 from @s0 seq 3 on aic after [4]
// CHECK-NEXT:  sk.barrier id 7 all_aic
// CHECK-NEXT:  sk.subtask id 8 @proj blocks 24 offset 8 from @s0 seq 4 on aic after [6]
// CHECK-NEXT:  sk.barrier id 9 all_aic
// CHECK-NEXT:  sk.notify id 10 @c0 slot 9 on aic after [8]
// CHECK-NEXT:  }

// -----

// A lock acquire after the wait of a consumer's lock; a pipe barrier between independent
// same-stream sub-tasks.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @act aiv_only params(inout)
  aclgraph.cell @c0
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 6 options "sync-mode=data" {
    sk.wait_lock id 0 @c0 slot 5 on aiv before [2]
    sk.depend_lock_acquire id 1 aiv on aiv
    sk.subtask id 2 @norm blocks 48 offset 1 from @s0 seq 1 on aiv
    sk.depend_pipe id 3 on aiv
    sk.subtask id 4 @act blocks 48 offset 3 from @s0 seq 2 on aiv
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 6 options "sync-mode=data" {
// CHECK-NEXT:  sk.wait_lock id 0 @c0 slot 5 on aiv before [2]
// CHECK-NEXT:  sk.barrier id 1 all_aiv
// CHECK-NEXT:  sk.subtask id 2 @norm blocks 48 offset 1 from @s0 seq 1 on aiv
// CHECK-NEXT:  sk.barrier id 3 pipe_all on aiv
// CHECK-NEXT:  sk.subtask id 4 @act blocks 48 offset 3 from @s0 seq 2 on aiv
// CHECK-NEXT:  }

// -----

// Early start: the handshake between two sub-tasks, its complement on idle cores.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @act aiv_only params(inout)
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 5 options "early-start=1" {
    sk.subtask id 0 @norm blocks 40 offset 1 from @s0 seq 0 on aiv
    sk.depend_early_start id 1 aiv -> aiv set_idle 8 of aiv on aiv
    sk.subtask id 3 @act blocks 48 offset 3 from @s0 seq 1 on aiv after [0]
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 5 options "early-start=1" {
// CHECK-NEXT:  sk.subtask id 0 @norm blocks 40 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  sk.early_start_set id 1 on aiv idle 8
// CHECK-NEXT:  sk.early_start_wait id 2 cfg 5 on aiv
// CHECK-NEXT:  sk.subtask id 3 @act blocks 48 offset 3 from @s0 seq 1 on aiv after [0]
// CHECK-NEXT:  }

// -----

// A queue: a flag pair from the AIV producer's type to the AIC consumer's.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @proj aic_only params(in)
  sk.kernel @m_sk0 mix_aic_1_2 blocks 24 queue slots 5 {
    sk.subtask id 0 @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.depend_flag_signal id 1 flag 15 on aiv
    sk.depend_flag_await id 2 flag 15 on aic
    sk.subtask id 3 @proj blocks 24 offset 3 from @s1 seq 0 on aic after [0]
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aic_1_2 blocks 24 queue slots 5 {
// CHECK-NEXT:  sk.subtask id 0 @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  sk.set_flag id 1 mode 2 flag 15 pipe mte3 on aiv
// CHECK-NEXT:  sk.wait_flag id 2 flag 15 on aic
// CHECK-NEXT:  sk.subtask id 3 @proj blocks 24 offset 3 from @s1 seq 0 on aic after [0]
// CHECK-NEXT:  }
