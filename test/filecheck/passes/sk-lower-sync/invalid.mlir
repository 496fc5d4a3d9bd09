// RUN: sk-opt %s --split-input-file --verify-diagnostics -p sk-lower-sync | filecheck %s

// sk-lower-sync lowers whatever depends it is given; the depends' verifiers refuse the ones no
// rule can lower.

// A depend on a core type the SuperKernel does not launch.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @act aiv_only params(inout)
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 4 {
    %0 = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.depend_barrier aic -> aic on aic
    %2 = sk.subtask @act blocks 48 offset 3 from @s0 seq 1 on aiv after %0
  }
}

// CHECK: error: @m/@m_sk0: sk.depend_barrier 1 runs on aic, which the mix_aiv_1_0 SuperKernel does not launch

// -----

// A class barrier whose cores are not its class pair's.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @act aiv_only params(inout)
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 4 {
    %0 = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.depend_barrier aiv -> aiv on mix
    %2 = sk.subtask @act blocks 48 offset 3 from @s0 seq 1 on aiv after %0
  }
}

// CHECK: error: sk.depend_barrier: the barrier of aiv -> aiv runs on aiv; it says on mix

// -----

// A queue's flag pair on a flag id reserved for SyncAll, barriers and early-start.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @act aiv_only params(inout)
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 queue slots 4 {
    %0 = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.depend_flag_signal flag 12 on aiv
    %2 = sk.subtask @act blocks 48 offset 3 from @s0 seq 1 on aiv after %0
  }
}

// CHECK: error: sk.depend_flag_signal: flag ids 11-14 are reserved for SyncAll, barriers and early-start; use another

// -----

// One core type's half of a flag pair said to run on both.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @act aiv_only params(inout)
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 queue slots 4 {
    %0 = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.depend_flag_await flag 15 on mix
    %2 = sk.subtask @act blocks 48 offset 3 from @s0 seq 1 on aiv after %0
  }
}

// CHECK: error: sk.depend_flag_await: one core type's half of a flag pair; put it on aic or aiv

// -----

// A depend outside a SuperKernel's program: nothing to order.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  sk.depend_barrier aiv -> aiv on aiv
}

// CHECK: error: 'sk.depend_barrier' expects parent op to be one of 'sk.kernel', 'ascendc.entry', 'ascendc.core_function'
