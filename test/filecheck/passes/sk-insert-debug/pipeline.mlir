// RUN: sk-opt %s --split-input-file -p 'sk-form-scopes{options="debug-sync-all=1"},sk-outline{options="debug-sync-all=1"},sk-place-sync{options="debug-sync-all=1"},sk-lower-sync,sk-insert-debug{options="debug-sync-all=1"}' | filecheck %s --check-prefix=DSYNC
// RUN: sk-opt %s --split-input-file -p 'sk-form-scopes{options="debug-dcci-all=1:dcci-after-kernel-end=b"},sk-outline{options="debug-dcci-all=1:dcci-after-kernel-end=b"},sk-place-sync{options="debug-dcci-all=1:dcci-after-kernel-end=b"},sk-lower-sync,sk-insert-debug{options="debug-dcci-all=1:dcci-after-kernel-end=b"}' | filecheck %s --check-prefix=DCCI
// RUN: sk-opt %s --split-input-file -p 'sk-form-scopes{options="dcci-before-kernel-start=a:dcci-after-kernel-end=a_middle"},sk-outline{options="dcci-before-kernel-start=a:dcci-after-kernel-end=a_middle"},sk-place-sync{options="dcci-before-kernel-start=a:dcci-after-kernel-end=a_middle"},sk-lower-sync,sk-insert-debug{options="dcci-before-kernel-start=a:dcci-after-kernel-end=a_middle"}' | filecheck %s --check-prefix=LISTS
// RUN: sk-opt %s --split-input-file -p 'sk-form-scopes{options="feed-sync-all=1"},sk-outline{options="feed-sync-all=1"},sk-place-sync{options="feed-sync-all=1"},sk-lower-sync,sk-insert-debug{options="feed-sync-all=1"}' | filecheck %s --check-prefix=FEED
// RUN: sk-opt %s --split-input-file -p 'superkernel-pipeline{options="debug-sync-all=1:debug-dcci-all=1:feed-sync-all=1"},sk-check' > /dev/null

// Debug and cache options, inserted after pruning and never pruned. The DSYNC run turns
// on debug-sync-all; the DCCI run debug-dcci-all plus a list naming `b`, which disables
// dcci; the LISTS run the dcci-before/after lists, by kernel or sub-kernel symbol; the FEED
// run feed-sync-all, which marks the batch kernel `k` (it calls SyncAll on 16 of the 48
// AIVs; without feed-sync-all `k` is cut off: syncall_block_mismatch).

// A chain: a mix SuperKernel, so debug-sync-all adds `SyncAll<false>` after every call.
// `b` declares `dcci(disable)`: no cache clean around it, whatever the options say.
aclgraph.model @c cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params 0
  aclgraph.kernel @b aiv_only params 0 dcci(disable)
  aclgraph.kernel @x mix_aic_1_1 params 0 dcci(before)
  aclgraph.kernel @k aiv_only params 0 batch
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @a blocks 48
    aclgraph.launch seq 1 @b blocks 8
    aclgraph.launch seq 2 @x blocks 24
    aclgraph.launch seq 3 @k blocks 16
  }
}





// DSYNC-LABEL: aclgraph.model @c cores(aic = 24, aiv = 48) {
// DSYNC:      sk.kernel @c_sk0 mix_aic_1_2 blocks 24 chain slots 1 options "debug-sync-all=1" {
// DSYNC-NEXT:   %[[T0:[0-9]+]] = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
// DSYNC-NEXT:   sk.barrier sync_all
// DSYNC-NEXT:   sk.barrier all_aiv
// DSYNC-NEXT:   %[[T3:[0-9]+]] = sk.subtask @b blocks 8 offset 1 from @s0 seq 1 on aiv after %[[T0]]
// DSYNC-NEXT:   sk.barrier sync_all
// DSYNC-NEXT:   sk.barrier sync_all
// DSYNC-NEXT:   sk.dcci on aic
// DSYNC-NEXT:   sk.dcci on aiv
// DSYNC-NEXT:   %[[T8:[0-9]+]] = sk.subtask @x blocks 24 offset 1 from @s0 seq 2 on mix after %[[T3]]
// DSYNC-NEXT:   sk.barrier sync_all
// DSYNC-NEXT: }

// DCCI-LABEL: aclgraph.model @c cores(aic = 24, aiv = 48) {
// DCCI:      sk.kernel @c_sk0 mix_aic_1_2 blocks 24 chain slots 1 options "dcci-after-kernel-end=b:debug-dcci-all=1" {
// DCCI-NEXT:   %[[T0:[0-9]+]] = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
// DCCI-NEXT:   sk.dcci on aiv
// DCCI-NEXT:   sk.barrier all_aiv
// DCCI-NEXT:   %[[T3:[0-9]+]] = sk.subtask @b blocks 8 offset 1 from @s0 seq 1 on aiv after %[[T0]]
// DCCI-NEXT:   sk.barrier sync_all
// DCCI-NEXT:   sk.dcci on aic
// DCCI-NEXT:   sk.dcci on aiv
// DCCI-NEXT:   %[[T7:[0-9]+]] = sk.subtask @x blocks 24 offset 1 from @s0 seq 2 on mix after %[[T3]]
// DCCI-NEXT:   sk.dcci on aic
// DCCI-NEXT:   sk.dcci on aiv
// DCCI-NEXT: }

// LISTS-LABEL: aclgraph.model @c cores(aic = 24, aiv = 48) {
// LISTS:      sk.kernel @c_sk0 mix_aic_1_2 blocks 24 chain slots 1 options "dcci-after-kernel-end=a_middle:dcci-before-kernel-start=a" {
// LISTS-NEXT:   sk.dcci on aiv
// LISTS-NEXT:   %[[T1:[0-9]+]] = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
// LISTS-NEXT:   sk.dcci on aiv
// LISTS-NEXT:   sk.barrier all_aiv
// LISTS-NEXT:   %[[T4:[0-9]+]] = sk.subtask @b blocks 8 offset 1 from @s0 seq 1 on aiv after %[[T1]]
// LISTS-NEXT:   sk.barrier sync_all
// LISTS-NEXT:   sk.dcci on aic
// LISTS-NEXT:   sk.dcci on aiv
// LISTS-NEXT:   %[[T8:[0-9]+]] = sk.subtask @x blocks 24 offset 1 from @s0 seq 2 on mix after %[[T4]]
// LISTS-NEXT: }

// FEED-LABEL: aclgraph.model @c cores(aic = 24, aiv = 48) {
// FEED:      sk.kernel @c_sk0 mix_aic_1_2 blocks 24 chain slots 2 options "feed-sync-all=1" {
// FEED-NEXT:   %[[T0:[0-9]+]] = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
// FEED-NEXT:   sk.barrier all_aiv
// FEED-NEXT:   %[[T2:[0-9]+]] = sk.subtask @b blocks 8 offset 1 from @s0 seq 1 on aiv after %[[T0]]
// FEED-NEXT:   sk.barrier sync_all
// FEED-NEXT:   sk.dcci on aic
// FEED-NEXT:   sk.dcci on aiv
// FEED-NEXT:   %[[T6:[0-9]+]] = sk.subtask @x blocks 24 offset 1 from @s0 seq 2 on mix after %[[T2]]
// FEED-NEXT:   sk.barrier sync_all
// FEED-NEXT:   %[[T8:[0-9]+]] = sk.subtask @k blocks 16 offset 1 from @s0 seq 3 on aiv after %[[T6]] feed 0
// FEED-NEXT: }

// -----

// A queue: debug-sync-all adds a pipe barrier and the core type's all-core barrier after
// every call, in each program.
aclgraph.model @q cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.kernel @c aic_only params 0
  aclgraph.event @e1
  aclgraph.event @j
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @v blocks 48
    aclgraph.record seq 1 @e1
    aclgraph.launch seq 2 @c blocks 24
    aclgraph.wait seq 6 @j
    aclgraph.reset seq 7 @e1
    aclgraph.reset seq 8 @j
  }
  aclgraph.stream @s1 {
    aclgraph.wait seq 3 @e1
    aclgraph.launch seq 4 @v blocks 8
    aclgraph.record seq 5 @j
  }
}





// DSYNC-LABEL: aclgraph.model @q cores(aic = 24, aiv = 48) {
// DSYNC:      sk.kernel @q_sk0 mix_aic_1_2 blocks 24 queue slots 2 options "debug-sync-all=1" {
// DSYNC-NEXT:   %[[T0:[0-9]+]] = sk.subtask @v blocks 48 offset 1 from @s0 seq 0 on aiv
// DSYNC-NEXT:   sk.barrier pipe_all on aiv
// DSYNC-NEXT:   sk.barrier all_aiv
// DSYNC-NEXT:   sk.wait_flag flag 15 on aic
// DSYNC-NEXT:   %[[T4:[0-9]+]] = sk.subtask @c blocks 24 offset 1 from @s0 seq 2 on aic after %[[T0]]
// DSYNC-NEXT:   sk.barrier pipe_all on aic
// DSYNC-NEXT:   sk.barrier all_aic
// DSYNC-NEXT:   sk.barrier all_aiv
// DSYNC-NEXT:   sk.set_flag mode 2 flag 15 pipe mte3 on aiv
// DSYNC-NEXT:   %[[T9:[0-9]+]] = sk.subtask @v blocks 8 offset 1 from @s1 seq 4 on aiv after %[[T0]]
// DSYNC-NEXT:   sk.barrier pipe_all on aiv
// DSYNC-NEXT:   sk.barrier all_aiv
// DSYNC-NEXT:   sk.barrier all_aiv
// DSYNC-NEXT:   sk.notify @j_cell slot 1 on aiv
// DSYNC-NEXT: }

// DCCI-LABEL: aclgraph.model @q cores(aic = 24, aiv = 48) {
// DCCI:      sk.kernel @q_sk0 mix_aic_1_2 blocks 24 queue slots 2 options "dcci-after-kernel-end=b:debug-dcci-all=1" {
// DCCI-NEXT:   %[[T0:[0-9]+]] = sk.subtask @v blocks 48 offset 1 from @s0 seq 0 on aiv
// DCCI-NEXT:   sk.dcci on aiv
// DCCI-NEXT:   sk.wait_flag flag 15 on aic
// DCCI-NEXT:   %[[T3:[0-9]+]] = sk.subtask @c blocks 24 offset 1 from @s0 seq 2 on aic after %[[T0]]
// DCCI-NEXT:   sk.dcci on aic
// DCCI-NEXT:   sk.barrier all_aiv
// DCCI-NEXT:   sk.set_flag mode 2 flag 15 pipe mte3 on aiv
// DCCI-NEXT:   %[[T7:[0-9]+]] = sk.subtask @v blocks 8 offset 1 from @s1 seq 4 on aiv after %[[T0]]
// DCCI-NEXT:   sk.dcci on aiv
// DCCI-NEXT:   sk.barrier all_aiv
// DCCI-NEXT:   sk.notify @j_cell slot 1 on aiv
// DCCI-NEXT: }

// LISTS-LABEL: aclgraph.model @q cores(aic = 24, aiv = 48) {
// LISTS:      sk.kernel @q_sk0 mix_aic_1_2 blocks 24 queue slots 2 options "dcci-after-kernel-end=a_middle:dcci-before-kernel-start=a" {
// LISTS-NEXT:   %[[T0:[0-9]+]] = sk.subtask @v blocks 48 offset 1 from @s0 seq 0 on aiv
// LISTS-NEXT:   sk.wait_flag flag 15 on aic
// LISTS-NEXT:   %[[T2:[0-9]+]] = sk.subtask @c blocks 24 offset 1 from @s0 seq 2 on aic after %[[T0]]
// LISTS-NEXT:   sk.barrier all_aiv
// LISTS-NEXT:   sk.set_flag mode 2 flag 15 pipe mte3 on aiv
// LISTS-NEXT:   %[[T5:[0-9]+]] = sk.subtask @v blocks 8 offset 1 from @s1 seq 4 on aiv after %[[T0]]
// LISTS-NEXT:   sk.barrier all_aiv
// LISTS-NEXT:   sk.notify @j_cell slot 1 on aiv
// LISTS-NEXT: }

// FEED-LABEL: aclgraph.model @q cores(aic = 24, aiv = 48) {
// FEED:      sk.kernel @q_sk0 mix_aic_1_2 blocks 24 queue slots 3 options "feed-sync-all=1" {
// FEED-NEXT:   %[[T0:[0-9]+]] = sk.subtask @v blocks 48 offset 1 from @s0 seq 0 on aiv
// FEED-NEXT:   sk.wait_flag flag 15 on aic
// FEED-NEXT:   %[[T2:[0-9]+]] = sk.subtask @c blocks 24 offset 1 from @s0 seq 2 on aic after %[[T0]]
// FEED-NEXT:   sk.barrier all_aiv
// FEED-NEXT:   sk.set_flag mode 2 flag 15 pipe mte3 on aiv
// FEED-NEXT:   %[[T5:[0-9]+]] = sk.subtask @v blocks 8 offset 1 from @s1 seq 4 on aiv after %[[T0]]
// FEED-NEXT:   sk.barrier all_aiv
// FEED-NEXT:   sk.notify @j_cell slot 1 on aiv
// FEED-NEXT: }
