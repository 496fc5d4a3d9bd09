// RUN: sk-opt %s --split-input-file -p 'sk-form-scopes,sk-outline' | filecheck %s
// RUN: sk-opt %s --split-input-file -p 'sk-form-scopes{options="feed-sync-all=1"},sk-outline{options="feed-sync-all=1"}' | filecheck %s --check-prefix=FEED
// RUN: sk-opt %s --split-input-file -p 'superkernel-pipeline,sk-check' > /dev/null
// RUN: sk-opt %s --split-input-file -p 'superkernel-pipeline{options="feed-sync-all=1"},sk-check' > /dev/null

// The vendor's newer launch-shape rule (docs/design.md §3 "Launch shape"): one model
// per candidate path and per conflict. minCube / minVec are the members' largest cube /
// vector demands; a batch member without block_dim_scale_up fixes the SuperKernel's vector
// (aiv class) or cube (others) cores to its own demand ("exact"); the SuperKernel is cut
// before the kernel that leaves no valid shape (syncall_block_mismatch, with the mismatch
// as the detail). With feed-sync-all=1 exact values do not apply (FEED).

// Only aiv work: mix_aiv_1_0 of minVec blocks.
aclgraph.model @aiv cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @v blocks 48
    aclgraph.launch seq 1 @v blocks 16
  }
}
// CHECK-LABEL: aclgraph.model @aiv
// CHECK:       sk.kernel @aiv_sk0 mix_aiv_1_0 blocks 48 chain

// -----

// Only aic work: mix_aic_1_0 of minCube blocks.
aclgraph.model @aic cores(aic = 24, aiv = 48) {
  aclgraph.kernel @c aic_only params 0
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @c blocks 24
    aclgraph.launch seq 1 @c blocks 8
  }
}
// CHECK-LABEL: aclgraph.model @aic
// CHECK:       sk.kernel @aic_sk0 mix_aic_1_0 blocks 24 chain

// -----

// Both, minVec (16) <= minCube (24): mix_aic_1_1 first, of max(minCube, minVec) blocks.
aclgraph.model @mix11 cores(aic = 24, aiv = 48) {
  aclgraph.kernel @c aic_only params 0
  aclgraph.kernel @v aiv_only params 0
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @c blocks 24
    aclgraph.launch seq 1 @v blocks 16
  }
}
// CHECK-LABEL: aclgraph.model @mix11
// CHECK:       sk.kernel @mix11_sk0 mix_aic_1_1 blocks 24 chain

// -----

// Both, minVec (40) > minCube (8): mix_aic_1_2 first, of max(minCube, ceil(minVec / 2)) = 20.
aclgraph.model @mix12 cores(aic = 24, aiv = 48) {
  aclgraph.kernel @c aic_only params 0
  aclgraph.kernel @v aiv_only params 0
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @c blocks 8
    aclgraph.launch seq 1 @v blocks 40
  }
}
// CHECK-LABEL: aclgraph.model @mix12
// CHECK:       sk.kernel @mix12_sk0 mix_aic_1_2 blocks 20 chain

// -----

// A 1:2 member requires mix_aic_1_2 although minVec (16) <= minCube (24).
aclgraph.model @needs12 cores(aic = 24, aiv = 48) {
  aclgraph.kernel @c aic_only params 0
  aclgraph.kernel @x mix_aic_1_2 params 0
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @c blocks 24
    aclgraph.launch seq 1 @x blocks 8
  }
}
// CHECK-LABEL: aclgraph.model @needs12
// CHECK:       sk.kernel @needs12_sk0 mix_aic_1_2 blocks 24 chain

// -----

// Only 1:1 members: minVec = minCube, mix_aic_1_1.
aclgraph.model @only11 cores(aic = 24, aiv = 48) {
  aclgraph.kernel @y mix_aic_1_1 params 0
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @y blocks 16
    aclgraph.launch seq 1 @y blocks 4
  }
}
// CHECK-LABEL: aclgraph.model @only11
// CHECK:       sk.kernel @only11_sk0 mix_aic_1_1 blocks 16 chain

// -----

// The second candidate: minVec (20) > minCube (16) tries mix_aic_1_2 of 16 blocks first, whose
// 32 AIVs differ from the batch kernel's exact 20; mix_aic_1_1 of 20 blocks matches it.
// With feed-sync-all there are no exact values and the first candidate is valid.
aclgraph.model @second cores(aic = 24, aiv = 48) {
  aclgraph.kernel @c aic_only params 0
  aclgraph.kernel @vb aiv_only params 0 batch
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @c blocks 16
    aclgraph.launch seq 1 @vb blocks 20
  }
}
// CHECK-LABEL: aclgraph.model @second
// CHECK:       sk.kernel @second_sk0 mix_aic_1_1 blocks 20 chain
// FEED-LABEL:  aclgraph.model @second
// FEED:        sk.kernel @second_sk0 mix_aic_1_2 blocks 16 chain

// -----

// An exact cube count: the batch kernel @cb fixes the cube cores to 16; the 24-block kernel
// leaves no valid shape and is cut off.
aclgraph.model @exactaic cores(aic = 24, aiv = 48) {
  aclgraph.kernel @c aic_only params 0
  aclgraph.kernel @cb aic_only params 0 batch
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @cb blocks 16
    aclgraph.launch seq 1 @c blocks 16
    aclgraph.launch seq 2 @c blocks 24
  }
}
// CHECK-LABEL: aclgraph.model @exactaic
// CHECK:       aclgraph.launch seq 2 @c blocks 24 attributes {sk.fail = "syncall_block_mismatch", sk.fail_detail = "exact aic 16, candidate mix_aic_1_0 blocks 24 gives 24", sk.cut = "syncall_block_mismatch", sk.cut_detail = "exact aic 16, candidate mix_aic_1_0 blocks 24 gives 24"}
// CHECK:       sk.kernel @exactaic_sk0 mix_aic_1_0 blocks 16 chain
// FEED-LABEL:  aclgraph.model @exactaic
// FEED:        sk.kernel @exactaic_sk0 mix_aic_1_0 blocks 24 chain

// -----

// Two different exact values conflict: the SuperKernel is cut before the second one.
aclgraph.model @conflict cores(aic = 24, aiv = 48) {
  aclgraph.kernel @vb aiv_only params 0 batch
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @vb blocks 16
    aclgraph.launch seq 1 @vb blocks 16
    aclgraph.launch seq 2 @vb blocks 32
    aclgraph.launch seq 3 @vb blocks 32
  }
}
// CHECK-LABEL: aclgraph.model @conflict
// CHECK:       aclgraph.launch_sk seq 2 @conflict_sk1 was launch @vb blocks 32 attributes {sk.cut = "syncall_block_mismatch", sk.cut_detail = "exact aiv 16 and 32 conflict"}
// CHECK:       sk.kernel @conflict_sk0 mix_aiv_1_0 blocks 16 chain
// CHECK:       sk.kernel @conflict_sk1 mix_aiv_1_0 blocks 32 chain

// -----

// No candidate fits: mix_aic_1_2 of 24 blocks gives 48 AIVs, not the exact 30, and
// mix_aic_1_1 of 30 blocks needs more cube cores than the device has. Both kernels stay
// unfused with the mismatch.
aclgraph.model @device cores(aic = 24, aiv = 48) {
  aclgraph.kernel @c aic_only params 0
  aclgraph.kernel @vb aiv_only params 0 batch
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @c blocks 24
    aclgraph.launch seq 1 @vb blocks 30
  }
}
// CHECK-LABEL: aclgraph.model @device
// CHECK:       aclgraph.launch seq 0 @c blocks 24 attributes {sk.fail = "syncall_block_mismatch", sk.fail_detail = "exact aiv 30, candidate mix_aic_1_2 blocks 24 gives 48; candidate mix_aic_1_1 blocks 30 needs 30 aic of the device's 24"}
// CHECK-NEXT:  aclgraph.launch seq 1 @vb blocks 30 attributes {sk.fail = "syncall_block_mismatch", sk.fail_detail = "exact aiv 30, candidate mix_aic_1_2 blocks 24 gives 48; candidate mix_aic_1_1 blocks 30 needs 30 aic of the device's 24", sk.cut = "syncall_block_mismatch", sk.cut_detail = "exact aiv 30, candidate mix_aic_1_2 blocks 24 gives 48; candidate mix_aic_1_1 blocks 30 needs 30 aic of the device's 24"}
// FEED-LABEL:  aclgraph.model @device
// FEED:        sk.kernel @device_sk0 mix_aic_1_2 blocks 24 chain

// -----

// block_dim_scale_up: the batch kernel @vs asks for 16 blocks but tolerates more, so it sets no
// exact value and runs on the SuperKernel's 48 AIVs (its guard is the SuperKernel's count).
aclgraph.model @scaleup cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.kernel @vs aiv_only params 0 batch block_dim_scale_up
  aclgraph.kernel @c aic_only params 0
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @vs blocks 16
    aclgraph.launch seq 1 @c blocks 24
    aclgraph.launch seq 2 @v blocks 40
  }
}
// CHECK-LABEL: aclgraph.model @scaleup
// CHECK:       aclgraph.kernel @vs aiv_only params 0 batch block_dim_scale_up
// CHECK:       sk.kernel @scaleup_sk0 mix_aic_1_2 blocks 24 chain
// CHECK:         %[[T0:[0-9]+]] = sk.subtask @vs blocks 48 offset 1 from @s0 seq 0
