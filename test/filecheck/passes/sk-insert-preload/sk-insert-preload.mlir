// RUN: sk-opt %s --split-input-file -p sk-insert-preload | filecheck %s

// preload-code=per-func (the default): each core type preloads its first two sub-tasks, then after
// each sub-task the one two ahead; units = ceil(min(code_bytes, 16 KiB) / 2 KiB), 8 when unknown.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out) code_bytes 6144
  aclgraph.kernel @mm mix_aic_1_2 params(in, in, out) code_bytes 40000
  aclgraph.kernel @act aiv_only params(inout)
  sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 7 {
    %0 = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.barrier sync_all
    %2 = sk.subtask @mm blocks 24 offset 3 from @s0 seq 1 on mix after %0
    sk.barrier sync_all
    %4 = sk.subtask @act blocks 48 offset 6 from @s0 seq 2 on aiv after %2
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 7 {
// CHECK-NEXT:  sk.preload @mm units 8 blocks 24 on aic
// CHECK-NEXT:  sk.preload @norm units 3 blocks 48 on aiv
// CHECK-NEXT:  sk.preload @mm units 8 blocks 24 on aiv
// CHECK-NEXT:  %[[T3:[0-9]+]] = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  sk.preload @act units 8 blocks 48 on aiv
// CHECK-NEXT:  sk.barrier sync_all
// CHECK-NEXT:  %[[T6:[0-9]+]] = sk.subtask @mm blocks 24 offset 3 from @s0 seq 1 on mix after %[[T3]]
// CHECK-NEXT:  sk.barrier sync_all
// CHECK-NEXT:  %[[T8:[0-9]+]] = sk.subtask @act blocks 48 offset 6 from @s0 seq 2 on aiv after %[[T6]]
// CHECK-NEXT:  }

// -----

// preload-code=max: one PreLoad(8) per core type at the top.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out) code_bytes 6144
  aclgraph.kernel @mm mix_aic_1_2 params(in, in, out) code_bytes 40000
  sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 5 options "preload-code=max" {
    %0 = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.barrier sync_all
    %2 = sk.subtask @mm blocks 24 offset 3 from @s0 seq 1 on mix after %0
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 5 options "preload-code=max" {
// CHECK-NEXT:  sk.preload max on aic
// CHECK-NEXT:  sk.preload max on aiv
// CHECK-NEXT:  %[[T2:[0-9]+]] = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  sk.barrier sync_all
// CHECK-NEXT:  %[[T4:[0-9]+]] = sk.subtask @mm blocks 24 offset 3 from @s0 seq 1 on mix after %[[T2]]
// CHECK-NEXT:  }

// -----

// preload-code=none: nothing.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out) code_bytes 6144
  aclgraph.kernel @act aiv_only params(inout)
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 4 options "preload-code=none" {
    %0 = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.barrier all_aiv
    %2 = sk.subtask @act blocks 48 offset 3 from @s0 seq 1 on aiv after %0
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 4 options "preload-code=none" {
// CHECK-NEXT:  %[[T0:[0-9]+]] = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  sk.barrier all_aiv
// CHECK-NEXT:  %[[T2:[0-9]+]] = sk.subtask @act blocks 48 offset 3 from @s0 seq 1 on aiv after %[[T0]]
// CHECK-NEXT:  }
