// RUN: sk-opt %s -p 'superkernel-pipeline{options="feed-sync-all=1:profiling=1"}' -t sk-plan | filecheck %s
// RUN: %expect-exit 1 sk-opt %s -t sk-plan 2>&1 | filecheck %s --check-prefix=RAW

// Boundary events: A's record of e1 is waited outside (on @s1) -> an in-kernel notify of a
// new cell, and @s1's wait becomes a value_wait; B's wait of e2, recorded outside, -> an
// in-kernel lock wait, and @s1's record becomes a value_write. The resets of e1 and e2
// become value_writes of 0. Feed-sync-all and profiling add a workspace and a profiling area.
aclgraph.model @bounds cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params(in)
  aclgraph.kernel @sa aiv_only params(in) batch
  aclgraph.kernel @o aic_only params(in) not_sk_capable
  aclgraph.buffer @x
  aclgraph.event @e1
  aclgraph.event @e2
  aclgraph.event @j
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @v blocks 48 args(@x)
    aclgraph.record seq 1 @e1
    aclgraph.launch seq 2 @sa blocks 8 args(@x)
    aclgraph.wait seq 5 @e2
    aclgraph.launch seq 6 @v blocks 16 args(@x)
    aclgraph.wait seq 10 @j
    aclgraph.reset seq 11 @e1
    aclgraph.reset seq 12 @e2
    aclgraph.reset seq 13 @j
  }
  aclgraph.stream @s1 {
    aclgraph.launch seq 3 @o blocks 4 args(@x)
    aclgraph.record seq 4 @e2
    aclgraph.wait seq 7 @e1
    aclgraph.record seq 9 @j
  }
}

// One action per slot, stream by stream; the cells to allocate and the workspace and the
// profiling area the entry needs, each on 64-byte lines of its own (bytes a multiple of 64,
// 64-aligned); where each argument slot of the SuperKernel comes from.
// CHECK:      {
// CHECK-NEXT:  "format": "skir.rewrite_plan",
// CHECK-NEXT:  "version": 3,
// CHECK-NEXT:  "model": "bounds",
// CHECK-NEXT:  "streams": [{"name": "s0", "index": 0}, {"name": "s1", "index": 1}],
// CHECK-NEXT:  "cells": [
// CHECK-NEXT:   {"name": "e1_cell", "bytes": 64, "align": 64},
// CHECK-NEXT:   {"name": "e2_cell", "bytes": 64, "align": 64}
// CHECK-NEXT:  ],
// CHECK-NEXT:  "workspaces": [
// CHECK-NEXT:   {"superkernel": "bounds_sk0", "slot": 6, "use": "workspace", "bytes": 24576, "align": 64},
// CHECK-NEXT:   {"superkernel": "bounds_sk0", "slot": 7, "use": "profiling", "bytes": 12864, "align": 64}
// CHECK-NEXT:  ],
// CHECK-NEXT:  "slots": [
// CHECK-NEXT:   {"stream": "s0", "seq": 0, "seq_id": 0, "action": "set_kernel", "superkernel": "bounds_sk0", "task": {"type": "kernel", "function": "v", "blocks": 48, "args_bytes": 8}},
// CHECK-NEXT:   {"stream": "s0", "seq": 1, "seq_id": 1, "action": "disable", "task": {"type": "event_record"}},
// CHECK-NEXT:   {"stream": "s0", "seq": 2, "seq_id": 2, "action": "disable", "task": {"type": "kernel", "function": "sa", "blocks": 8, "args_bytes": 8}},
// CHECK-NEXT:   {"stream": "s0", "seq": 5, "seq_id": 5, "action": "disable", "task": {"type": "event_wait"}},
// CHECK-NEXT:   {"stream": "s0", "seq": 6, "seq_id": 6, "action": "disable", "task": {"type": "kernel", "function": "v", "blocks": 16, "args_bytes": 8}},
// CHECK-NEXT:   {"stream": "s0", "seq": 10, "seq_id": 9, "action": "keep", "task": {"type": "event_wait"}},
// CHECK-NEXT:   {"stream": "s0", "seq": 11, "seq_id": 10, "action": "set_value_write", "cell": "e1_cell", "value": 0, "task": {"type": "event_reset"}},
// CHECK-NEXT:   {"stream": "s0", "seq": 12, "seq_id": 11, "action": "set_value_write", "cell": "e2_cell", "value": 0, "task": {"type": "event_reset"}},
// CHECK-NEXT:   {"stream": "s0", "seq": 13, "seq_id": 12, "action": "keep", "task": {"type": "event_reset"}},
// CHECK-NEXT:   {"stream": "s1", "seq": 3, "seq_id": 3, "action": "keep", "task": {"type": "kernel", "function": "o", "blocks": 4, "args_bytes": 8}},
// CHECK-NEXT:   {"stream": "s1", "seq": 4, "seq_id": 4, "action": "set_value_write", "cell": "e2_cell", "value": 1, "task": {"type": "event_record"}},
// CHECK-NEXT:   {"stream": "s1", "seq": 7, "seq_id": 7, "action": "set_value_wait", "cell": "e1_cell", "rule": "eq", "value": 1, "task": {"type": "event_wait"}},
// CHECK-NEXT:   {"stream": "s1", "seq": 9, "seq_id": 8, "action": "keep", "task": {"type": "event_record"}}
// CHECK-NEXT:  ],
// CHECK-NEXT:  "update": {"slots": 13, "changed": 9},
// CHECK-NEXT:  "superkernels": [
// CHECK-NEXT:   {"name": "bounds_sk0", "entry": "auto_gen_bounds_sk0_kernel", "host": {"stream": "s0", "seq": 0}, "kernel_type": "mix_aiv_1_0", "blocks": 48, "sched_mode": "batch", "object": "bounds_sk0/build/bounds_sk0.o", "args": [
// CHECK-NEXT:     {"slot": 0, "source": "ffts_base"},
// CHECK-NEXT:     {"slot": 1, "source": "task", "stream": "s0", "seq": 0, "arg": 0},
// CHECK-NEXT:     {"slot": 2, "source": "cell", "cell": "e1_cell", "use": "notify"},
// CHECK-NEXT:     {"slot": 3, "source": "task", "stream": "s0", "seq": 2, "arg": 0},
// CHECK-NEXT:     {"slot": 4, "source": "task", "stream": "s0", "seq": 6, "arg": 0},
// CHECK-NEXT:     {"slot": 5, "source": "cell", "cell": "e2_cell", "use": "wait", "uses": ["wait", "reset"]},
// CHECK-NEXT:     {"slot": 6, "source": "workspace"},
// CHECK-NEXT:     {"slot": 7, "source": "profiling"},
// CHECK-NEXT:     {"slot": 8, "source": "profiling_task_id"}
// CHECK-NEXT:   ]}
// CHECK-NEXT:  ],
// CHECK-NEXT: "updates": []
// CHECK-NEXT: }

// RAW: sk-opt: error: target 'sk-plan': no SuperKernels in the module; run 'superkernel-pipeline' first
