// RUN: sk-opt %s --split-input-file --verify-diagnostics -p sk-place-blocks | filecheck %s

// A depend left by sk-lower-sync{patterns=...} in a SuperKernel that may be placed.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out) sk_system_args
  aclgraph.kernel @act aiv_only params(inout) sk_system_args
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 queue slots 4 options "placement=auto" {
    %0 = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.depend_barrier aiv -> aiv on aiv
    %2 = sk.subtask @act blocks 48 offset 3 from @s0 seq 1 on aiv after %0
  }
}

// CHECK: error: sk-place-blocks: sk.kernel @m_sk0: sk.depend_barrier 1 is not lowered; run sk-lower-sync with its patterns first

// -----

// A sub-task placed beyond the SuperKernel's cores (the verifier).
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @q aiv_only params(inout) sk_system_args
  aclgraph.kernel @k aiv_only params(inout) sk_system_args
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 queue slots 4 options "placement=auto" {
    %0 = sk.subtask @q blocks 40 offset 1 from @s0 seq 0 on aiv
    %1 = sk.subtask @k blocks 16 at 40 offset 2 from @s1 seq 1 on aiv
  }
}

// CHECK: error: @m/@m_sk0: sub-task 1 at 40 runs on AIVs [40, 56), beyond the 48 AIVs of the SuperKernel; lower its 'at'

// -----

// A lane round's flag op guarded beyond the SuperKernel's cores (the verifier).
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @q aiv_only params(inout) sk_system_args
  sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 queue slots 4 options "placement=auto" {
    %0 = sk.subtask @q blocks 8 offset 1 from @s0 seq 0 on aiv
    sk.set_flag mode 0 flag 10 pipe mte3 on aiv blocks 8 at 44
  }
}

// CHECK: error: @m/@m_sk0: sk.set_flag 1 is guarded to cores [44, 52), beyond the 48 AIVs of the SuperKernel; lower its 'at' or 'blocks'
