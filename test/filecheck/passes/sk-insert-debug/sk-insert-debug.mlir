// RUN: sk-opt %s --split-input-file -p sk-insert-debug | filecheck %s

// debug-sync-all=1: a hard sync after every call.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @act aiv_only params(inout)
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 4 options "debug-sync-all=1" {
    %0 = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.barrier all_aiv
    %2 = sk.subtask @act blocks 48 offset 3 from @s0 seq 1 on aiv after %0
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 4 options "debug-sync-all=1" {
// CHECK-NEXT:  %[[T0:[0-9]+]] = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  sk.barrier all_aiv
// CHECK-NEXT:  sk.barrier all_aiv
// CHECK-NEXT:  %[[T3:[0-9]+]] = sk.subtask @act blocks 48 offset 3 from @s0 seq 1 on aiv after %[[T0]]
// CHECK-NEXT:  sk.barrier all_aiv
// CHECK-NEXT:  }

// -----

// dcci-before-kernel-start / dcci-after-kernel-end name kernels: a data-cache clean before or
// after their calls.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @act aiv_only params(inout)
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 4 options "dcci-before-kernel-start=act:dcci-after-kernel-end=norm" {
    %0 = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.barrier all_aiv
    %2 = sk.subtask @act blocks 48 offset 3 from @s0 seq 1 on aiv after %0
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 4 options "dcci-after-kernel-end=norm:dcci-before-kernel-start=act" {
// CHECK-NEXT:  %[[T0:[0-9]+]] = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  sk.dcci on aiv
// CHECK-NEXT:  sk.barrier all_aiv
// CHECK-NEXT:  sk.dcci on aiv
// CHECK-NEXT:  %[[T4:[0-9]+]] = sk.subtask @act blocks 48 offset 3 from @s0 seq 1 on aiv after %[[T0]]
// CHECK-NEXT:  }

// -----

// feed-sync-all=1: a sub-task on fewer blocks than the SuperKernel takes `feed N`, so its idle
// cores mirror its SyncAll rounds.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out) batch
  aclgraph.kernel @act aiv_only params(inout)
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 5 options "feed-sync-all=1" {
    %0 = sk.subtask @norm blocks 16 offset 1 from @s0 seq 0 on aiv
    sk.barrier all_aiv
    %2 = sk.subtask @act blocks 48 offset 3 from @s0 seq 1 on aiv after %0
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 5 options "feed-sync-all=1" {
// CHECK-NEXT:  %[[T0:[0-9]+]] = sk.subtask @norm blocks 16 offset 1 from @s0 seq 0 on aiv feed 0
// CHECK-NEXT:  sk.barrier all_aiv
// CHECK-NEXT:  %[[T2:[0-9]+]] = sk.subtask @act blocks 48 offset 3 from @s0 seq 1 on aiv after %[[T0]]
// CHECK-NEXT:  }
