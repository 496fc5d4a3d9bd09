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
    %0 = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.depend_barrier aiv -> aiv on aiv
    %2 = sk.subtask @act blocks 48 offset 3 from @s0 seq 1 on aiv after %0
    sk.depend_barrier aiv -> mix on mix
    %4 = sk.subtask @mm blocks 24 offset 4 from @s0 seq 2 on mix after %2
    sk.depend_barrier mix -> aic on mix
    %6 = sk.subtask @proj blocks 24 offset 7 from @s0 seq 3 on aic after %4
    sk.depend_barrier aic -> aic on aic
    %8 = sk.subtask @proj blocks 24 offset 8 from @s0 seq 4 on aic after %6
    sk.depend_lock_release aic on aic
    sk.notify @c0 slot 9 on aic after %8
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 8 {
// CHECK-NEXT:  %[[T0:[0-9]+]] = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  sk.barrier all_aiv
// CHECK-NEXT:  %[[T2:[0-9]+]] = sk.subtask @act blocks 48 offset 3 from @s0 seq 1 on aiv after %[[T0]]
// CHECK-NEXT:  sk.barrier sync_all
// CHECK-NEXT:  %[[T4:[0-9]+]] = sk.subtask @mm blocks 24 offset 4 from @s0 seq 2 on mix after %[[T2]]
// CHECK-NEXT:  sk.barrier sync_all
// CHECK-NEXT:  %[[T6:[0-9]+]] = sk.subtask @proj blocks 24 offset 7 from @s0 seq 3 on aic after %[[T4]]
// CHECK-NEXT:  sk.barrier all_aic
// CHECK-NEXT:  %[[T8:[0-9]+]] = sk.subtask @proj blocks 24 offset 8 from @s0 seq 4 on aic after %[[T6]]
// CHECK-NEXT:  sk.barrier all_aic
// CHECK-NEXT:  sk.notify @c0 slot 9 on aic after %[[T8]]
// CHECK-NEXT:  }

// -----

// A lock acquire after the wait of a consumer's lock; a pipe barrier between independent
// same-stream sub-tasks.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @act aiv_only params(inout)
  aclgraph.cell @c0
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 6 options "sync-mode=data" {
    %0 = sk.wait_lock @c0 slot 5 on aiv
    sk.depend_lock_acquire aiv on aiv
    %2 = sk.subtask @norm blocks 48 offset 1 from @s0 seq 1 on aiv after %0
    sk.depend_pipe on aiv
    %4 = sk.subtask @act blocks 48 offset 3 from @s0 seq 2 on aiv
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 6 options "sync-mode=data" {
// CHECK-NEXT:  %[[T0:[0-9]+]] = sk.wait_lock @c0 slot 5 on aiv
// CHECK-NEXT:  sk.barrier all_aiv
// CHECK-NEXT:  %[[T2:[0-9]+]] = sk.subtask @norm blocks 48 offset 1 from @s0 seq 1 on aiv after %[[T0]]
// CHECK-NEXT:  sk.barrier pipe_all on aiv
// CHECK-NEXT:  %[[T4:[0-9]+]] = sk.subtask @act blocks 48 offset 3 from @s0 seq 2 on aiv
// CHECK-NEXT:  }

// -----

// Early start: the handshake between two sub-tasks, its complement on idle cores.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @act aiv_only params(inout)
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 5 options "early-start=1" {
    %0 = sk.subtask @norm blocks 40 offset 1 from @s0 seq 0 on aiv
    sk.depend_early_start aiv -> aiv set_idle 8 of aiv on aiv
    %3 = sk.subtask @act blocks 48 offset 3 from @s0 seq 1 on aiv after %0
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 5 options "early-start=1" {
// CHECK-NEXT:  %[[T0:[0-9]+]] = sk.subtask @norm blocks 40 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  sk.early_start_set on aiv idle 8
// CHECK-NEXT:  sk.early_start_wait cfg 5 on aiv
// CHECK-NEXT:  %[[T3:[0-9]+]] = sk.subtask @act blocks 48 offset 3 from @s0 seq 1 on aiv after %[[T0]]
// CHECK-NEXT:  }

// -----

// A queue: a flag pair from the AIV producer's type to the AIC consumer's.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @proj aic_only params(in)
  sk.kernel @m_sk0 mix_aic_1_2 blocks 24 queue slots 5 {
    %0 = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.depend_flag_signal flag 15 on aiv
    sk.depend_flag_await flag 15 on aic
    %3 = sk.subtask @proj blocks 24 offset 3 from @s1 seq 0 on aic after %0
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aic_1_2 blocks 24 queue slots 5 {
// CHECK-NEXT:  %[[T0:[0-9]+]] = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  sk.set_flag mode 2 flag 15 pipe mte3 on aiv
// CHECK-NEXT:  sk.wait_flag flag 15 on aic
// CHECK-NEXT:  %[[T3:[0-9]+]] = sk.subtask @proj blocks 24 offset 3 from @s1 seq 0 on aic after %[[T0]]
// CHECK-NEXT:  }
