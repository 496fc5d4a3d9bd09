// RUN: sk-opt %s --split-input-file -p sk-insert-preload | filecheck %s

// preload-code=per-func (the default): each core type preloads its first two sub-tasks, then after
// each sub-task the one two ahead; units = ceil(min(code_bytes, 16 KiB) / 2 KiB), 8 when unknown.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out) code_bytes 6144
  aclgraph.kernel @mm mix_aic_1_2 params(in, in, out) code_bytes 40000
  aclgraph.kernel @act aiv_only params(inout)
  sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 7 {
    sk.subtask id 0 @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.barrier id 1 sync_all
    sk.subtask id 2 @mm blocks 24 offset 3 from @s0 seq 1 on mix after [0]
    sk.barrier id 3 sync_all
    sk.subtask id 4 @act blocks 48 offset 6 from @s0 seq 2 on aiv after [2]
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 7 {
// CHECK-NEXT:  sk.preload id 0 @mm units 8 blocks 24 on aic
// CHECK-NEXT:  sk.preload id 1 @norm units 3 blocks 48 on aiv
// CHECK-NEXT:  sk.preload id 2 @mm units 8 blocks 24 on aiv
// CHECK-NEXT:  sk.subtask id 3 @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  sk.preload id 4 @act units 8 blocks 48 on aiv
// CHECK-NEXT:  sk.barrier id 5 sync_all
// CHECK-NEXT:  sk.subtask id 6 @mm blocks 24 offset 3 from @s0 seq 1 on mix after [3]
// CHECK-NEXT:  sk.barrier id 7 sync_all
// CHECK-NEXT:  sk.subtask id 8 @act blocks 48 offset 6 from @s0 seq 2 on aiv after [6]
// CHECK-NEXT:  }

// -----

// preload-code=max: one PreLoad(8) per core type at the top.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out) code_bytes 6144
  aclgraph.kernel @mm mix_aic_1_2 params(in, in, out) code_bytes 40000
  sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 5 options "preload-code=max" {
    sk.subtask id 0 @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.barrier id 1 sync_all
    sk.subtask id 2 @mm blocks 24 offset 3 from @s0 seq 1 on mix after [0]
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 5 options "preload-code=max" {
// CHECK-NEXT:  sk.preload id 0 max on aic
// CHECK-NEXT:  sk.preload id 1 max on aiv
// CHECK-NEXT:  sk.subtask id 2 @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  sk.barrier id 3 sync_all
// CHECK-NEXT:  sk.subtask id 4 @mm blocks 24 offset 3 from @s0 seq 1 on mix after [2]
// CHECK-NEXT:  }

// -----

// preload-code=none: nothing.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out) code_bytes 6144
  aclgraph.kernel @act aiv_only params(inout)
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 4 options "preload-code=none" {
    sk.subtask id 0 @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.barrier id 1 all_aiv
    sk.subtask id 2 @act blocks 48 offset 3 from @s0 seq 1 on aiv after [0]
  }
}

// CHECK-LABEL: sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 4 options "preload-code=none" {
// CHECK-NEXT:  sk.subtask id 0 @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:  sk.barrier id 1 all_aiv
// CHECK-NEXT:  sk.subtask id 2 @act blocks 48 offset 3 from @s0 seq 1 on aiv after [0]
// CHECK-NEXT:  }
