// RUN: sk-opt %s --split-input-file -p sk-place-sync | filecheck %s
// RUN: sk-opt %s --split-input-file -p sk-place-sync,sk-lower-sync | sk-opt --split-input-file > /dev/null

// A chain: one class barrier between consecutive sub-tasks, on the core types of the pair.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @mm mix_aic_1_2 params(in, in, out)
  aclgraph.kernel @act aiv_only params(inout)
  sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 7 {
    %0 = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    %1 = sk.subtask @mm blocks 24 offset 3 from @s0 seq 1 on mix after %0
    %2 = sk.subtask @act blocks 48 offset 6 from @s0 seq 2 on aiv after %1
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 7 {
// CHECK-NEXT:  %[[T0:[0-9]+]] = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  sk.depend_barrier aiv -> mix on mix
// CHECK-NEXT:  %[[T2:[0-9]+]] = sk.subtask @mm blocks 24 offset 3 from @s0 seq 1 on mix after %[[T0]]
// CHECK-NEXT:  sk.depend_barrier mix -> aiv on mix
// CHECK-NEXT:  %[[T4:[0-9]+]] = sk.subtask @act blocks 48 offset 6 from @s0 seq 2 on aiv after %[[T2]]
// CHECK-NEXT:  }

// -----

// With early-start=1 the chain takes the SetNextTaskStart / WaitPreTaskEnd handshake instead;
// it spans two ids (the set and the wait sk-lower-sync gives it).
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @act aiv_only params(inout)
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 5 options "early-start=1" {
    %0 = sk.subtask @norm blocks 40 offset 1 from @s0 seq 0 on aiv
    %1 = sk.subtask @act blocks 48 offset 3 from @s0 seq 1 on aiv after %0
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 5 options "early-start=1" {
// CHECK-NEXT:  %[[T0:[0-9]+]] = sk.subtask @norm blocks 40 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  sk.depend_early_start aiv -> aiv on aiv
// CHECK-NEXT:  %[[T3:[0-9]+]] = sk.subtask @act blocks 48 offset 3 from @s0 seq 1 on aiv after %[[T0]]
// CHECK-NEXT:  }

// -----

// A queue: an all-AIV barrier after each AIV producer and a mode-2 flag pair (flag 15) to the
// AIC consumer, awaited once per producer.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @proj aic_only params(in, out)
  aclgraph.kernel @act aiv_only params(inout)
  sk.kernel @m_sk0 mix_aic_1_2 blocks 24 queue slots 7 {
    %0 = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    %1 = sk.subtask @act blocks 48 offset 3 from @s0 seq 2 on aiv after %0
    %2 = sk.subtask @act blocks 48 offset 4 from @s1 seq 3 on aiv
    %3 = sk.subtask @proj blocks 24 offset 5 from @s1 seq 5 on aic after %0, %2
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aic_1_2 blocks 24 queue slots 7 {
// CHECK-NEXT:  %[[T0:[0-9]+]] = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  sk.depend_barrier aiv -> aiv on aiv
// CHECK-NEXT:  sk.depend_flag_signal flag 15 on aiv
// CHECK-NEXT:  %[[T3:[0-9]+]] = sk.subtask @act blocks 48 offset 3 from @s0 seq 2 on aiv after %[[T0]]
// CHECK-NEXT:  %[[T4:[0-9]+]] = sk.subtask @act blocks 48 offset 4 from @s1 seq 3 on aiv
// CHECK-NEXT:  sk.depend_flag_await flag 15 on aic
// CHECK-NEXT:  sk.depend_flag_await flag 15 on aic
// CHECK-NEXT:  %[[T7:[0-9]+]] = sk.subtask @proj blocks 24 offset 5 from @s1 seq 5 on aic after %[[T0]], %[[T4]]
// CHECK-NEXT:  sk.depend_barrier aiv -> aiv on aiv
// CHECK-NEXT:  sk.depend_flag_signal flag 15 on aiv
// CHECK-NEXT:  }

// -----

// In-kernel locks in a queue: a barrier of the consumer's type after the lock wait, one of the
// producer's type before the notify.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @proj aic_only params(in, out)
  aclgraph.cell @c0
  aclgraph.cell @c1
  sk.kernel @m_sk0 mix_aic_1_2 blocks 24 queue slots 6 {
    %0 = sk.wait_lock @c0 slot 4 on aic
    %1 = sk.subtask @proj blocks 24 offset 1 from @s1 seq 3 on aic after %0
    %2 = sk.subtask @norm blocks 48 offset 3 from @s0 seq 0 on aiv
    sk.notify @c1 slot 5 on aiv after %2
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aic_1_2 blocks 24 queue slots 6 {
// CHECK-NEXT:  %[[T0:[0-9]+]] = sk.wait_lock @c0 slot 4 on aic
// CHECK-NEXT:  sk.depend_barrier aic -> aic on aic
// CHECK-NEXT:  %[[T2:[0-9]+]] = sk.subtask @proj blocks 24 offset 1 from @s1 seq 3 on aic after %[[T0]]
// CHECK-NEXT:  %[[T3:[0-9]+]] = sk.subtask @norm blocks 48 offset 3 from @s0 seq 0 on aiv
// CHECK-NEXT:  sk.depend_barrier aiv -> aiv on aiv
// CHECK-NEXT:  sk.notify @c1 slot 5 on aiv after %[[T3]]
// CHECK-NEXT:  }
