// RUN: sk-opt %s -p 'sk-form-scopes,sk-outline{options="dcci-before-kernel-start=proj:split-mode=1"},sk-place-sync,sk-lower-sync,sk-insert-preload,sk-insert-debug,sk-to-ascendc{patterns="none"}' | filecheck %s --check-prefix=STAGED
// RUN: sk-opt %s -p 'sk-form-scopes,sk-outline{options="dcci-before-kernel-start=proj:split-mode=1"},sk-place-sync,sk-lower-sync,sk-insert-preload,sk-insert-debug,sk-to-ascendc{patterns="LowerSubtask"}' | filecheck %s --check-prefix=SUB
// RUN: sk-opt %s -p 'sk-form-scopes,sk-outline{options="dcci-before-kernel-start=proj:split-mode=1"},sk-place-sync,sk-lower-sync,sk-insert-preload,sk-insert-debug,sk-to-ascendc{patterns="LowerBarrier"}' | filecheck %s --check-prefix=BAR
// RUN: sk-opt %s -p 'sk-form-scopes,sk-outline{options="dcci-before-kernel-start=proj:split-mode=1"},sk-place-sync,sk-lower-sync,sk-insert-preload,sk-insert-debug,sk-to-ascendc{patterns="LowerPreload"}' | filecheck %s --check-prefix=PRE
// RUN: sk-opt %s -p 'sk-form-scopes,sk-outline{options="dcci-before-kernel-start=proj:split-mode=1"},sk-place-sync,sk-lower-sync,sk-insert-preload,sk-insert-debug,sk-to-ascendc{patterns="LowerDcci"}' | filecheck %s --check-prefix=DCCI
// RUN: sk-opt %s -p 'sk-form-scopes,sk-outline{options="split-mode=1:preload-code=none:early-start=1"},sk-place-sync,sk-lower-sync,sk-to-ascendc{patterns="LowerEarlyStart"}' | filecheck %s --check-prefix=EARLY
// RUN: %expect-exit 1 sk-opt %s -p 'sk-to-ascendc{patterns="LowerNothing"}' 2>&1 | filecheck %s --check-prefix=BAD

// The sk -> ascendc patterns one at a time (skir.patterns.sk_to_ascendc). `patterns="none"`
// shows the staged entry: a copy of each program op where its statements go; each run below
// applies one pattern and leaves the other ops staged.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @proj aic_only params(in, out)
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @norm blocks 48
    aclgraph.launch seq 1 @norm blocks 8
    aclgraph.launch seq 2 @proj blocks 24
  }
}

// STAGED:      ascendc.entry "auto_gen_m_sk0_kernel" align 512 {
// STAGED-NEXT:   ascendc.ffts_base
// STAGED-NEXT:   sk.preload @proj units 8 blocks 24 on aic
// STAGED-NEXT:   sk.preload @norm units 8 blocks 48 on aiv
// STAGED-NEXT:   %[[T2:[0-9]+]] = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// STAGED-NEXT:   sk.barrier all_aiv
// STAGED-NEXT:   %[[T4:[0-9]+]] = sk.subtask @norm blocks 8 offset 3 from @s0 seq 1 on aiv
// STAGED-NEXT:   sk.barrier sync_all
// STAGED-NEXT:   sk.dcci on aic
// STAGED-NEXT:   %[[T7:[0-9]+]] = sk.subtask @proj blocks 24 offset 5 from @s0 seq 2 on aic
// STAGED-NEXT: }

// LowerSubtask: a call under its core-type and block guards, with its comment
// SUB:      ascendc.ffts_base
// SUB-NEXT: sk.preload @proj units 8 blocks 24 on aic
// SUB-NEXT: sk.preload @norm units 8 blocks 48 on aiv
// SUB-NEXT: ascendc.guarded_call "norm_middle" offset 1 copies 1 on aiv logical 48 note "begin func call of sub operator norm (seq 0)"
// SUB-NEXT: sk.barrier all_aiv
// SUB-NEXT: ascendc.guarded_call "norm_middle" offset 3 copies 1 on aiv logical 8 note "begin func call of sub operator norm (seq 1)"
// SUB-NEXT: sk.barrier sync_all
// SUB-NEXT: sk.dcci on aic
// SUB-NEXT: ascendc.guarded_call "proj_middle" offset 5 copies 1 on aic block 24 note "begin func call of sub operator proj (seq 2)"

// LowerBarrier: an all-AIV barrier is a flag set and wait on the AIVs; SyncAll is unguarded
// BAR:      ascendc.ffts_base
// BAR-NEXT: sk.preload @proj units 8 blocks 24 on aic
// BAR-NEXT: sk.preload @norm units 8 blocks 48 on aiv
// BAR-NEXT: %[[T2:[0-9]+]] = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// BAR-NEXT: ascendc.flag_barrier mte3 mode 0 flag 14 on aiv note "begin inter ops barrier"
// BAR-NEXT: %[[T4:[0-9]+]] = sk.subtask @norm blocks 8 offset 3 from @s0 seq 1 on aiv
// BAR-NEXT: ascendc.comment "begin inter ops barrier"
// BAR-NEXT: ascendc.sync_all
// BAR-NEXT: sk.dcci on aic

// LowerPreload: each code preload under its kernel's block guard, on its core type
// PRE:      ascendc.ffts_base
// PRE-NEXT: ascendc.if_core aic {
// PRE-NEXT:   ascendc.if_block block 24 {
// PRE-NEXT:     ascendc.preload "proj_middle" units 8 copies 1
// PRE-NEXT:   }
// PRE-NEXT: }
// PRE-NEXT: ascendc.if_core aiv {
// PRE-NEXT:   ascendc.if_block logical 48 {
// PRE-NEXT:     ascendc.preload "norm_middle" units 8 copies 1
// PRE-NEXT:   }
// PRE-NEXT: }
// PRE-NEXT: %[[T2:[0-9]+]] = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv

// LowerDcci: a pipe barrier, then the whole data-cache clean, on the core type of the op
// DCCI:      ascendc.ffts_base
// DCCI:      sk.barrier sync_all
// DCCI-NEXT: ascendc.if_core aic {
// DCCI-NEXT:   ascendc.pipe_barrier
// DCCI-NEXT:   ascendc.dcci_all
// DCCI-NEXT: }
// DCCI-NEXT: %[[T7:[0-9]+]] = sk.subtask @proj blocks 24 offset 5 from @s0 seq 2 on aic

// LowerEarlyStart (early-start=1): the previous sub-task's core types set, every core type
// waits; the entry sets the handshake's configuration before the waits
// EARLY:      ascendc.ffts_base
// EARLY-NEXT: %[[T0:[0-9]+]] = sk.subtask @norm blocks 48 offset 1 from @s0 seq 0 on aiv
// EARLY-NEXT: ascendc.comment "begin inter ops barrier"
// EARLY-NEXT: ascendc.if_core aiv {
// EARLY-NEXT:   ascendc.set_next_task_start
// EARLY-NEXT: }
// EARLY-NEXT: ascendc.early_start_config 5
// EARLY-NEXT: ascendc.if_core aic {
// EARLY-NEXT:   ascendc.wait_pre_task_end 5
// EARLY-NEXT: }
// EARLY-NEXT: ascendc.if_core aiv {
// EARLY-NEXT:   ascendc.wait_pre_task_end 5
// EARLY-NEXT: }
// EARLY-NEXT: %[[T4:[0-9]+]] = sk.subtask @norm blocks 8 offset 3 from @s0 seq 1 on aiv

// BAD: sk-to-ascendc: patterns='LowerNothing': expected all, none or pattern names (LowerSubtask, LowerBarrier, LowerFlag, LowerEarlyStart, LowerLock, LowerPreload, LowerDcci)
