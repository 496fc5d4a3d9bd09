// RUN: sk-opt %s -p 'sk-form-scopes{options="sync-mode=data"},sk-outline{options="sync-mode=data"},sk-place-sync{options="sync-mode=data"}' | filecheck %s --check-prefix=STAGED
// RUN: sk-opt %s -p 'sk-form-scopes{options="sync-mode=data"},sk-outline{options="sync-mode=data"},sk-place-sync{options="sync-mode=data"},sk-lower-sync{patterns="LowerPipeBarrier"}' | filecheck %s --check-prefix=AFTER

// LowerPipeBarrier: with sync-mode=data, two consecutive sub-tasks of one stream that the
// buffer args prove independent need only the local pipes drained: sk.depend_pipe, which the
// pattern makes an sk.barrier pipe_all; the real barriers stay depends here.
aclgraph.model @d cores(aic = 24, aiv = 48) {
  aclgraph.kernel @scale aiv_only params(inout)
  aclgraph.kernel @copy aiv_only params(in, out)
  aclgraph.kernel @any aiv_only params 1
  aclgraph.buffer @x bytes 4096
  aclgraph.buffer @y bytes 4096
  aclgraph.buffer @z bytes 4096
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @scale blocks 8 args(@x)
    aclgraph.launch seq 1 @scale blocks 8 args(@y)
    aclgraph.launch seq 2 @copy blocks 16 args(@x, @z)
    aclgraph.launch seq 3 @scale blocks 8 args(@y)
    aclgraph.launch seq 4 @copy blocks 8 args(@z, @y)
    aclgraph.launch seq 5 @any blocks 8 args(@x)
  }
}

// Before: the depend ops sk-place-sync places (each takes the ids of the ops its rule gives)
// STAGED:      sk.kernel @d_sk0 mix_aiv_1_0 blocks 16 chain slots 9 options "sync-mode=data" {
// STAGED-NEXT:   %[[T0:[0-9]+]] = sk.subtask @scale blocks 8 offset 1 from @s0 seq 0 on aiv
// STAGED-NEXT:   sk.depend_pipe on aiv
// STAGED-NEXT:   %[[T2:[0-9]+]] = sk.subtask @scale blocks 8 offset 2 from @s0 seq 1 on aiv after %[[T0]]
// STAGED-NEXT:   sk.depend_barrier aiv -> aiv on aiv
// STAGED-NEXT:   %[[T4:[0-9]+]] = sk.subtask @copy blocks 16 offset 3 from @s0 seq 2 on aiv after %[[T2]]
// STAGED-NEXT:   sk.depend_pipe on aiv
// STAGED-NEXT:   %[[T6:[0-9]+]] = sk.subtask @scale blocks 8 offset 5 from @s0 seq 3 on aiv after %[[T4]]
// STAGED-NEXT:   sk.depend_barrier aiv -> aiv on aiv
// STAGED-NEXT:   %[[T8:[0-9]+]] = sk.subtask @copy blocks 8 offset 6 from @s0 seq 4 on aiv after %[[T6]]
// STAGED-NEXT:   sk.depend_barrier aiv -> aiv on aiv
// STAGED-NEXT:   %[[T10:[0-9]+]] = sk.subtask @any blocks 8 offset 8 from @s0 seq 5 on aiv after %[[T8]]
// STAGED-NEXT: }

// After LowerPipeBarrier: sk.depend_pipe -> sk.barrier pipe_all
// AFTER:      sk.kernel @d_sk0 mix_aiv_1_0 blocks 16 chain slots 9 options "sync-mode=data" {
// AFTER-NEXT:   %[[T0:[0-9]+]] = sk.subtask @scale blocks 8 offset 1 from @s0 seq 0 on aiv
// AFTER-NEXT:   sk.barrier pipe_all on aiv
// AFTER-NEXT:   %[[T2:[0-9]+]] = sk.subtask @scale blocks 8 offset 2 from @s0 seq 1 on aiv after %[[T0]]
// AFTER-NEXT:   sk.depend_barrier aiv -> aiv on aiv
// AFTER-NEXT:   %[[T4:[0-9]+]] = sk.subtask @copy blocks 16 offset 3 from @s0 seq 2 on aiv after %[[T2]]
// AFTER-NEXT:   sk.barrier pipe_all on aiv
// AFTER-NEXT:   %[[T6:[0-9]+]] = sk.subtask @scale blocks 8 offset 5 from @s0 seq 3 on aiv after %[[T4]]
// AFTER-NEXT:   sk.depend_barrier aiv -> aiv on aiv
// AFTER-NEXT:   %[[T8:[0-9]+]] = sk.subtask @copy blocks 8 offset 6 from @s0 seq 4 on aiv after %[[T6]]
// AFTER-NEXT:   sk.depend_barrier aiv -> aiv on aiv
// AFTER-NEXT:   %[[T10:[0-9]+]] = sk.subtask @any blocks 8 offset 8 from @s0 seq 5 on aiv after %[[T8]]
// AFTER-NEXT: }
