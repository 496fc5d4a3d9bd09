// RUN: sk-opt %s --split-input-file -p 'sk-form-scopes{options="sync-mode=data"},sk-outline{options="sync-mode=data"},sk-place-sync{options="sync-mode=data"},sk-lower-sync' | filecheck %s
// RUN: sk-opt %s --split-input-file -p 'sk-form-scopes{options="sync-mode=data"},sk-outline{options="sync-mode=data"},sk-place-sync{options="sync-mode=data"},sk-lower-sync,sk-check' > /dev/null

// sync-mode=data: param roles and buffer args prove seq 1 independent of seq 0 (@x vs @y),
// so a local pipe barrier replaces the cross-core one. seq 2 reads @x, which seq 0 writes:
// a real barrier. seq 3 is independent of seq 2 (the only sub-task since that barrier),
// although not of seq 1, which the real barrier already orders. seq 4 reads @z: a real
// barrier. Across streams, and for kernels without roles, barriers stay.
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

// CHECK-LABEL: aclgraph.model @d cores(aic = 24, aiv = 48) {
// CHECK:      sk.kernel @d_sk0 mix_aiv_1_0 blocks 16 chain slots 9 options "sync-mode=data" {
// CHECK-NEXT:   %[[T0:[0-9]+]] = sk.subtask @scale blocks 8 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:   sk.barrier pipe_all on aiv
// CHECK-NEXT:   %[[T2:[0-9]+]] = sk.subtask @scale blocks 8 offset 2 from @s0 seq 1 on aiv after %[[T0]]
// CHECK-NEXT:   sk.barrier all_aiv
// CHECK-NEXT:   %[[T4:[0-9]+]] = sk.subtask @copy blocks 16 offset 3 from @s0 seq 2 on aiv after %[[T2]]
// CHECK-NEXT:   sk.barrier pipe_all on aiv
// CHECK-NEXT:   %[[T6:[0-9]+]] = sk.subtask @scale blocks 8 offset 5 from @s0 seq 3 on aiv after %[[T4]]
// CHECK-NEXT:   sk.barrier all_aiv
// CHECK-NEXT:   %[[T8:[0-9]+]] = sk.subtask @copy blocks 8 offset 6 from @s0 seq 4 on aiv after %[[T6]]
// CHECK-NEXT:   sk.barrier all_aiv
// CHECK-NEXT:   %[[T10:[0-9]+]] = sk.subtask @any blocks 8 offset 8 from @s0 seq 5 on aiv after %[[T8]]
// CHECK-NEXT: }

// -----

// `tiling` params are read-only (docs/design.md §3): two kernels that share a tiling buffer @t and
// write different outputs are independent (a local pipe barrier between them), while a
// kernel that writes @t (an `out` param) before a tiling reader of it is not (a real barrier).
aclgraph.model @tiling cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, tiling, out)
  aclgraph.kernel @fill aiv_only params(out)
  aclgraph.buffer @x bytes 4096
  aclgraph.buffer @t bytes 64
  aclgraph.buffer @y bytes 4096
  aclgraph.buffer @z bytes 4096
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @norm blocks 8 args(@x, @t, @y)
    aclgraph.launch seq 1 @norm blocks 8 args(@x, @t, @z)
    aclgraph.launch seq 2 @fill blocks 8 args(@t)
    aclgraph.launch seq 3 @norm blocks 8 args(@x, @t, @y)
  }
}

// CHECK-LABEL: aclgraph.model @tiling cores(aic = 24, aiv = 48) {
// CHECK:        sk.kernel @tiling_sk0 mix_aiv_1_0 blocks 8 chain slots 11 options "sync-mode=data" {
// CHECK-NEXT:     %[[T0:[0-9]+]] = sk.subtask @norm blocks 8 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:     sk.barrier pipe_all on aiv
// CHECK-NEXT:     %[[T2:[0-9]+]] = sk.subtask @norm blocks 8 offset 4 from @s0 seq 1 on aiv after %[[T0]]
// CHECK-NEXT:     sk.barrier all_aiv
// CHECK-NEXT:     %[[T4:[0-9]+]] = sk.subtask @fill blocks 8 offset 7 from @s0 seq 2 on aiv after %[[T2]]
// CHECK-NEXT:     sk.barrier all_aiv
// CHECK-NEXT:     %[[T6:[0-9]+]] = sk.subtask @norm blocks 8 offset 8 from @s0 seq 3 on aiv after %[[T4]]
// CHECK-NEXT:   }

// -----

// A wait inside the chain (on @e, recorded on @s1 after work skir cannot see) runs on the aic
// before @c, and only an all-aic barrier follows it. So the aiv sub-task after @c needs a real
// barrier although it shares no buffer with @c: a pipe barrier would let it start before @e
// is recorded.
aclgraph.model @waited cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params(inout)
  aclgraph.kernel @c aic_only params(inout)
  aclgraph.buffer @x bytes 4096
  aclgraph.buffer @y bytes 4096
  aclgraph.buffer @z bytes 4096
  aclgraph.event @e
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @v blocks 8 args(@x)
    aclgraph.wait seq 3 @e
    aclgraph.launch seq 4 @c blocks 4 args(@y)
    aclgraph.launch seq 5 @v blocks 8 args(@z)
    aclgraph.reset seq 6 @e
  }
  aclgraph.stream @s1 {
    aclgraph.opaque seq 1 host_func
    aclgraph.record seq 2 @e
  }
}

// CHECK-LABEL: aclgraph.model @waited cores(aic = 24, aiv = 48) {
// CHECK:        sk.kernel @waited_sk0 mix_aic_1_2 blocks 4 chain slots 5 options "sync-mode=data" {
// CHECK-NEXT:     %[[T0:[0-9]+]] = sk.subtask @v blocks 8 offset 1 from @s0 seq 0 on aiv
// CHECK-NEXT:     sk.barrier sync_all
// CHECK-NEXT:     %[[T2:[0-9]+]] = sk.wait_lock @e_cell slot 3 on aic
// CHECK-NEXT:     sk.barrier all_aic
// CHECK-NEXT:     %[[T4:[0-9]+]] = sk.subtask @c blocks 4 offset 2 from @s0 seq 4 on aic after %[[T0]]
// CHECK-NEXT:     sk.barrier sync_all
// CHECK-NEXT:     %[[T6:[0-9]+]] = sk.subtask @v blocks 8 offset 4 from @s0 seq 5 on aiv after %[[T4]]
// CHECK-NEXT:     sk.reset_lock @e_cell slot 3 on aic
// CHECK-NEXT:   }
