// RUN: sk-opt %s --split-input-file -p 'sk-form-scopes{options="early-start=0"}' | filecheck %s --check-prefix=ES0
// RUN: sk-opt %s --split-input-file -p 'sk-form-scopes{options="early-start=1"}' | filecheck %s --check-prefix=ES1
// RUN: sk-opt %s --split-input-file -p 'sk-form-scopes{options="feed-sync-all=1"}' | filecheck %s --check-prefix=FEED
// RUN: sk-opt %s --split-input-file -p 'superkernel-pipeline{options="early-start=1:feed-sync-all=1"},sk-check' > /dev/null

// Formation rules that come from synchronisation: early-start capabilities, batch kernels
// under feed-sync-all, and cross-core flag ids.

// A kernel that runs the early-start handshake itself: with early-start=0 (the ES0 run) it
// is not fused (op_unsupported, early_start_capability): its own set would leave a credit
// that satisfies the next barrier. With early-start=1 (ES1) it fuses into a chain.
aclgraph.model @es cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params 0 early_start(set)
  aclgraph.kernel @b aiv_only params 0
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @a blocks 16
    aclgraph.launch seq 1 @b blocks 8
    aclgraph.launch seq 2 @b blocks 8
  }
}

// ES0-LABEL: aclgraph.model @es cores(aic = 24, aiv = 48) {
// ES0:      aclgraph.launch seq 0 @a blocks 16 attributes {sk.fail = "op_unsupported", sk.fail_detail = "early_start_capability"}
// ES0:      aclgraph.launch seq 1 @b blocks 8 attributes {sk.group = 0 : i64}
// ES0:      aclgraph.launch seq 2 @b blocks 8 attributes {sk.group = 0 : i64}

// ES1-LABEL: aclgraph.model @es cores(aic = 24, aiv = 48) {
// ES1:      aclgraph.launch seq 0 @a blocks 16 attributes {sk.group = 0 : i64}
// ES1:      aclgraph.launch seq 1 @b blocks 8 attributes {sk.group = 0 : i64}
// ES1:      aclgraph.launch seq 2 @b blocks 8 attributes {sk.group = 0 : i64}

// FEED-LABEL: aclgraph.model @es cores(aic = 24, aiv = 48) {
// FEED:      aclgraph.launch seq 0 @a blocks 16 attributes {sk.fail = "op_unsupported", sk.fail_detail = "early_start_capability"}
// FEED:      aclgraph.launch seq 1 @b blocks 8 attributes {sk.group = 0 : i64}
// FEED:      aclgraph.launch seq 2 @b blocks 8 attributes {sk.group = 0 : i64}

// -----

// With early-start=1 such a kernel never joins a stream-fused (queue) SuperKernel, which
// has no handshake to consume its credit: @s1's `b`, unordered with `a`, closes the
// SuperKernel (stream_fusion_off) when `a` is a member. Without `a` (ES0, FEED) the two
// `b` fuse, and @s1's boundary events join the range (docs/design.md §3 (e')): `wait @e` before its
// first member and `record @j` after its last, so no back block (and no spare slot) is needed.
aclgraph.model @esq cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params 0 early_start(set)
  aclgraph.kernel @b aiv_only params 0
  aclgraph.event @e
  aclgraph.event @j
  aclgraph.stream @s0 {
    aclgraph.record seq 0 @e
    aclgraph.launch seq 1 @a blocks 16
    aclgraph.launch seq 2 @b blocks 8
    aclgraph.wait seq 7 @j
    aclgraph.reset seq 8 @e
    aclgraph.reset seq 9 @j
  }
  aclgraph.stream @s1 {
    aclgraph.wait seq 3 @e
    aclgraph.launch seq 4 @b blocks 8
    aclgraph.placeholder seq 5
    aclgraph.record seq 6 @j
  }
}

// ES0-LABEL: aclgraph.model @esq cores(aic = 24, aiv = 48) {
// ES0:      aclgraph.launch seq 1 @a blocks 16 attributes {sk.fail = "op_unsupported", sk.fail_detail = "early_start_capability"}
// ES0:      aclgraph.launch seq 2 @b blocks 8 attributes {sk.group = 0 : i64}
// ES0:      aclgraph.wait seq 3 @e attributes {sk.group = 0 : i64}
// ES0-NEXT: aclgraph.launch seq 4 @b blocks 8 attributes {sk.group = 0 : i64}
// ES0-NEXT: aclgraph.placeholder seq 5 attributes {sk.group = 0 : i64}
// ES0-NEXT: aclgraph.record seq 6 @j attributes {sk.group = 0 : i64}

// ES1-LABEL: aclgraph.model @esq cores(aic = 24, aiv = 48) {
// ES1:      aclgraph.launch seq 1 @a blocks 16 attributes {sk.group = 0 : i64}
// ES1:      aclgraph.launch seq 2 @b blocks 8 attributes {sk.group = 0 : i64}
// ES1:      aclgraph.launch seq 4 @b blocks 8 attributes {sk.fail = "stream_fusion_off", sk.cut = "stream_fusion_off"}

// FEED-LABEL: aclgraph.model @esq cores(aic = 24, aiv = 48) {
// FEED:      aclgraph.launch seq 1 @a blocks 16 attributes {sk.fail = "op_unsupported", sk.fail_detail = "early_start_capability"}
// FEED:      aclgraph.launch seq 2 @b blocks 8 attributes {sk.group = 0 : i64}
// FEED:      aclgraph.wait seq 3 @e attributes {sk.group = 0 : i64}
// FEED-NEXT: aclgraph.launch seq 4 @b blocks 8 attributes {sk.group = 0 : i64}
// FEED-NEXT: aclgraph.placeholder seq 5 attributes {sk.group = 0 : i64}
// FEED-NEXT: aclgraph.record seq 6 @j attributes {sk.group = 0 : i64}

// -----

// A batch-mode kernel (it calls SyncAll) on 16 of the SuperKernel's 48 AIVs: without
// feed-sync-all it cannot join (syncall_block_mismatch); with it the idle AIVs mirror its
// SyncAll rounds.
aclgraph.model @batch cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params 0
  aclgraph.kernel @k aiv_only params 0 batch
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @a blocks 48
    aclgraph.launch seq 1 @k blocks 16
  }
}

// ES0-LABEL: aclgraph.model @batch cores(aic = 24, aiv = 48) {
// ES0:      aclgraph.launch seq 0 @a blocks 48 attributes {sk.fail = "syncall_block_mismatch", sk.fail_detail = "exact aiv 16, candidate mix_aiv_1_0 blocks 48 gives 48"}
// ES0:      aclgraph.launch seq 1 @k blocks 16 attributes {sk.fail = "syncall_block_mismatch", sk.fail_detail = "exact aiv 16, candidate mix_aiv_1_0 blocks 48 gives 48", sk.cut = "syncall_block_mismatch", sk.cut_detail = "exact aiv 16, candidate mix_aiv_1_0 blocks 48 gives 48"}

// ES1-LABEL: aclgraph.model @batch cores(aic = 24, aiv = 48) {
// ES1:      aclgraph.launch seq 0 @a blocks 48 attributes {sk.fail = "syncall_block_mismatch", sk.fail_detail = "exact aiv 16, candidate mix_aiv_1_0 blocks 48 gives 48"}
// ES1:      aclgraph.launch seq 1 @k blocks 16 attributes {sk.fail = "syncall_block_mismatch", sk.fail_detail = "exact aiv 16, candidate mix_aiv_1_0 blocks 48 gives 48", sk.cut = "syncall_block_mismatch", sk.cut_detail = "exact aiv 16, candidate mix_aiv_1_0 blocks 48 gives 48"}

// FEED-LABEL: aclgraph.model @batch cores(aic = 24, aiv = 48) {
// FEED:      aclgraph.launch seq 0 @a blocks 48 attributes {sk.group = 0 : i64}
// FEED:      aclgraph.launch seq 1 @k blocks 16 attributes {sk.group = 0 : i64}

// -----

// Stream fusion needs a cross-core flag id for the AIV -> AIC dependency, but the members
// declare every free id in `sync_flags`: resource_insufficient.
aclgraph.model @flags cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0 sync_flags [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15]
  aclgraph.kernel @c aic_only params 0
  aclgraph.event @e
  aclgraph.event @j
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @v blocks 48
    aclgraph.record seq 1 @e
    aclgraph.launch seq 2 @c blocks 24
    aclgraph.wait seq 6 @j
    aclgraph.reset seq 7 @e
    aclgraph.reset seq 8 @j
  }
  aclgraph.stream @s1 {
    aclgraph.wait seq 3 @e
    aclgraph.launch seq 4 @c blocks 8
    aclgraph.record seq 5 @j
  }
}

// ES0-LABEL: aclgraph.model @flags cores(aic = 24, aiv = 48) {
// ES0:      aclgraph.launch seq 0 @v blocks 48 attributes {sk.fail = "resource_insufficient", sk.fail_detail = "cross-core flags: no free cross-core flag id for aiv -> aic"}
// ES0:      aclgraph.launch seq 2 @c blocks 24 attributes {sk.fail = "resource_insufficient", sk.fail_detail = "cross-core flags: no free cross-core flag id for aiv -> aic"}
// ES0:      aclgraph.launch seq 4 @c blocks 8 attributes {sk.fail = "resource_insufficient", sk.fail_detail = "cross-core flags: no free cross-core flag id for aiv -> aic"}

// ES1-LABEL: aclgraph.model @flags cores(aic = 24, aiv = 48) {
// ES1:      aclgraph.launch seq 0 @v blocks 48 attributes {sk.fail = "resource_insufficient", sk.fail_detail = "cross-core flags: no free cross-core flag id for aiv -> aic"}
// ES1:      aclgraph.launch seq 2 @c blocks 24 attributes {sk.fail = "resource_insufficient", sk.fail_detail = "cross-core flags: no free cross-core flag id for aiv -> aic"}
// ES1:      aclgraph.launch seq 4 @c blocks 8 attributes {sk.fail = "resource_insufficient", sk.fail_detail = "cross-core flags: no free cross-core flag id for aiv -> aic"}

// FEED-LABEL: aclgraph.model @flags cores(aic = 24, aiv = 48) {
// FEED:      aclgraph.launch seq 0 @v blocks 48 attributes {sk.fail = "resource_insufficient", sk.fail_detail = "cross-core flags: no free cross-core flag id for aiv -> aic"}
// FEED:      aclgraph.launch seq 2 @c blocks 24 attributes {sk.fail = "resource_insufficient", sk.fail_detail = "cross-core flags: no free cross-core flag id for aiv -> aic"}
// FEED:      aclgraph.launch seq 4 @c blocks 8 attributes {sk.fail = "resource_insufficient", sk.fail_detail = "cross-core flags: no free cross-core flag id for aiv -> aic"}
