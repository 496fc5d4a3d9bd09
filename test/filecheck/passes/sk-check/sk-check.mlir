// RUN: sk-opt %s -p 'superkernel-pipeline{options="preload-code=none"},sk-check{stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=STATS
// RUN: sk-opt %s -p 'superkernel-pipeline{options="preload-code=none"}' > %t.ok.mlir
// RUN: sed '/sk.barrier all_aic/d' %t.ok.mlir > %t.barrier.mlir
// RUN: %expect-exit 3 sk-opt %t.barrier.mlir -p sk-check 2>&1 | filecheck %s --check-prefix=BARRIER
// RUN: sed '/sk.set_flag mode 2 flag 15 pipe fix on aic/d' %t.ok.mlir > %t.set.mlir
// RUN: %expect-exit 3 sk-opt %t.set.mlir -p sk-check 2>&1 | filecheck %s --check-prefix=SET
// RUN: sed '/sk.wait_flag flag 15 on aiv/d' %t.ok.mlir > %t.wait.mlir
// RUN: %expect-exit 3 sk-opt %t.wait.mlir -p sk-check 2>&1 | filecheck %s --check-prefix=WAIT
// RUN: sed '/sk.notify /d' %t.ok.mlir > %t.notify.mlir
// RUN: %expect-exit 3 sk-opt %t.notify.mlir -p sk-check 2>&1 | filecheck %s --check-prefix=NOTIFY
// RUN: sed 's/sk.subtask @c blocks 24/sk.subtask @c blocks 12/' %t.ok.mlir > %t.blocks.mlir
// RUN: %expect-exit 3 sk-opt %t.blocks.mlir -p sk-check 2>&1 | filecheck %s --check-prefix=BLOCKS

// sk-check changes nothing and proves the rewritten module: it runs every stream and every
// core type's program abstractly (counting barriers, flags, early-start and GM locks) and
// fails (exit 3, one line per violation) on a deadlock, naming what each blocked core or
// stream waits on, on an original happens-before edge the rewrite no longer enforces,
// naming both tasks, and on credits left over. Here the pruned program of the crossing
// events of sk-prune-sync.mlir is proved, then broken one sync op at a time.
aclgraph.model @q cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.kernel @c aic_only params 0
  aclgraph.event @e1
  aclgraph.event @e2
  aclgraph.event @j
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @v blocks 48
    aclgraph.record seq 1 @e1
    aclgraph.launch seq 2 @c blocks 24
    aclgraph.wait seq 6 @e2
    aclgraph.launch seq 7 @v blocks 16
    aclgraph.wait seq 10 @j
    aclgraph.reset seq 11 @e1
    aclgraph.reset seq 12 @e2
    aclgraph.reset seq 13 @j
  }
  aclgraph.stream @s1 {
    aclgraph.wait seq 3 @e1
    aclgraph.launch seq 4 @c blocks 8
    aclgraph.record seq 5 @e2
    aclgraph.placeholder seq 8
    aclgraph.record seq 9 @j
  }
}

// STATS: sk-check: 1 SuperKernels, 4 sub-tasks, 7 syncs (1.75 per sub-task), 4 edges checked

// Without the AIC barrier the AIC -> AIV set only says that each AIC finished its own `c`s.
// BARRIER:      sk-opt: error: sk-check found 2 violations: edge not enforced: @q/@s0/seq 2 -> @q/@s0/seq 7 (not after every aic core of q_sk0)
// BARRIER-NEXT: sk-opt: edge not enforced: @q/@s1/seq 4 -> @q/@s0/seq 7 (not after every aic core of q_sk0)

// SET:      sk-opt: error: sk-check found 2 violations: deadlock: @q/@s0/seq 0 waits on launch_sk @q_sk0 (the SuperKernel has not finished)
// SET-NEXT: sk-opt: deadlock: q_sk0 aiv waits on sk.wait_flag 8

// WAIT:      sk-opt: error: sk-check found 3 violations: edge not enforced: @q/@s0/seq 2 -> @q/@s0/seq 7 (not after every aic core of q_sk0)
// WAIT-NEXT: sk-opt: edge not enforced: @q/@s1/seq 4 -> @q/@s0/seq 7 (not after every aic core of q_sk0)
// WAIT-NEXT: sk-opt: leftover: q_sk0 aiv flag 15 holds 1 credit(s) at the end

// The record of @j after @s1's last member joined the range (docs/design.md §3 (e')): without its
// in-kernel notify the converted wait on @s0 never sees the cell.
// NOTIFY:      sk-opt: error: sk-check found 1 violation: deadlock: @q/@s0/seq 10 waits on value_wait @j_cell eq 1 (cell is 0)

// A sub-task must run with its launch's blocks, and the entry must call it on exactly those.
// BLOCKS:      sk-opt: error: sk-check found 3 violations: blocks: q_sk0 sub-task 2 (@s0 seq 2) runs on 12 blocks; its launch asked for 24
// BLOCKS-NEXT: sk-opt: placement: q_sk0: the entry lacks the call of c_middle (slot 1) on aic guarded 0 <= block < 12
// BLOCKS-NEXT: sk-opt: placement: q_sk0: the entry calls c_middle (slot 1) on aic guarded 0 <= block < 24, which no sub-task runs so
