// RUN: sk-opt %s -p 'superkernel-pipeline{options="preload-code=none"}' -t sk-meta | filecheck %s
// RUN: sk-opt %s -p 'superkernel-pipeline{options="feed-sync-all=1:profiling=1"}' -t sk-meta | filecheck %s --check-prefix=OPTS
// RUN: sk-opt %s -p sk-form-scopes -t sk-meta | filecheck %s --check-prefix=FORM
// RUN: sk-opt %s -t sk-meta | filecheck %s --check-prefix=RAW
// RUN: echo 'aclgraph.model @m cores(aic = 24, aiv = 48) { aclgraph.kernel @a aiv_only params(in) aclgraph.stream @s0 { aclgraph.launch seq 0 @a blocks 8 attributes {sk.fail = "bogus"} } }' > %t.reason.mlir
// RUN: %expect-exit 1 sk-opt %t.reason.mlir -t sk-meta 2>&1 | filecheck %s --check-prefix=REASON
// RUN: echo 'aclgraph.model @m cores(aic = 24, aiv = 48) { aclgraph.kernel @a aiv_only params(in) aclgraph.stream @s0 { aclgraph.launch_sk seq 0 @m_sk0 aclgraph.disabled seq 1 was launch @a blocks 8 } sk.kernel @m_sk0 mix_aiv_1_0 blocks 8 chain slots 4 { %0 = sk.subtask @a blocks 8 offset 1 from @s0 seq 0 on aiv %1 = sk.subtask @a blocks 8 offset 2 from @s0 seq 1 on aiv after %0 } }' > %t.table.mlir
// RUN: %expect-exit 4 sk-opt %t.table.mlir -t sk-meta 2>&1 | filecheck %s --check-prefix=TABLE
// RUN: sk-opt %s -p 'superkernel-pipeline{options="feed-sync-all=1:profiling=1"},sk-check' > /dev/null

// Two streams. @m_sk0 fuses seq 0, 5, 6 of @s0; the record of @e inside it (its wait is
// on @s1) becomes an in-kernel notify of @e_cell after @a, and the wait for @g (recorded
// on @s1) an in-kernel wait lock before @b, reset at exit. The rest stay unfused for
// three different reasons.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params(in, out)
  aclgraph.kernel @b aic_only params(in, in, out)
  aclgraph.kernel @c aiv_only params(inout)
  aclgraph.kernel @mm mix_aic_1_1 params(in, out)
  aclgraph.kernel @ns aiv_only params(in) not_sk_capable
  aclgraph.buffer @x
  aclgraph.buffer @y
  aclgraph.event @e
  aclgraph.event @g
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @a blocks 48 args(@x, @y)
    aclgraph.record seq 1 @e
    aclgraph.wait seq 4 @g
    aclgraph.launch seq 5 @b blocks 24 args(@x, @y, @x)
    aclgraph.launch seq 6 @mm blocks 4 args(@x, @y)
    aclgraph.launch seq 7 @ns blocks 8 args(@x)
    aclgraph.launch seq 8 @c blocks 8 args(@x)
    aclgraph.launch seq 9 @b blocks 30 args(@x, @y, @x)
    aclgraph.launch seq 10 @c blocks 8 args(@x)
    aclgraph.opaque seq 11 memcpy
    aclgraph.reset seq 12 @g
  }
  aclgraph.stream @s1 {
    aclgraph.opaque seq 2 aicpu
    aclgraph.record seq 3 @g
    aclgraph.wait seq 13 @e
    aclgraph.reset seq 14 @e
  }
}

// CHECK:      "format": "skir.sk_meta",
// CHECK-NEXT: "version": 1,
// CHECK-NEXT: "model": "m",
// CHECK-NEXT: "note": null,
// CHECK-NEXT: "streams": [
// CHECK-NEXT:  {
// CHECK-NEXT:   "name": "s0",
// CHECK-NEXT:   "index": 0,
// CHECK-NEXT:   "seq_ids": [
// CHECK-NEXT:    0,
// CHECK-NEXT:    1,
// CHECK-NEXT:    4,
// CHECK-NEXT:    5,
// CHECK-NEXT:    6,
// CHECK-NEXT:    7,
// CHECK-NEXT:    8,
// CHECK-NEXT:    9,
// CHECK-NEXT:    10,
// CHECK-NEXT:    11,
// CHECK-NEXT:    12
// CHECK-NEXT:   ]
// CHECK-NEXT:  },
// CHECK-NEXT:  {
// CHECK-NEXT:   "name": "s1",
// CHECK-NEXT:   "index": 1,
// CHECK-NEXT:   "seq_ids": [
// CHECK-NEXT:    2,
// CHECK-NEXT:    3,
// CHECK-NEXT:    13,
// CHECK-NEXT:    14
// CHECK-NEXT:   ]
// CHECK-NEXT:  }
// CHECK-NEXT: ],
// CHECK-NEXT: "superkernels": [
// CHECK-NEXT:  {
// CHECK-NEXT:   "name": "m_sk0",
// CHECK-NEXT:   "origin_op_name": "sk_m_sk0_start_a_end_mm",
// CHECK-NEXT:   "entry": "auto_gen_m_sk0_kernel",
// CHECK-NEXT:   "kernel_type": "mix_aic_1_2",
// CHECK-NEXT:   "blocks": 24,
// CHECK-NEXT:   "form": "chain",
// CHECK-NEXT:   "label": [],
// CHECK-NEXT:   "options": "preload-code=none",
// CHECK-NEXT:   "host": {
// CHECK-NEXT:    "stream": "s0",
// CHECK-NEXT:    "seq": 0
// CHECK-NEXT:   },
// CHECK-NEXT:   "members": [
// CHECK-NEXT:    {
// CHECK-NEXT:     "subtask": 0,
// CHECK-NEXT:     "stream": "s0",
// CHECK-NEXT:     "seq": 0,
// CHECK-NEXT:     "kernel": "a",
// CHECK-NEXT:     "blocks": 48,
// CHECK-NEXT:     "first_block": 0,
// CHECK-NEXT:     "system_args": false,
// CHECK-NEXT:     "arg_offset": 1,
// CHECK-NEXT:     "depends_on": []
// CHECK-NEXT:    },
// CHECK-NEXT:    {
// CHECK-NEXT:     "subtask": 6,
// CHECK-NEXT:     "stream": "s0",
// CHECK-NEXT:     "seq": 5,
// CHECK-NEXT:     "kernel": "b",
// CHECK-NEXT:     "blocks": 24,
// CHECK-NEXT:     "first_block": 0,
// CHECK-NEXT:     "system_args": false,
// CHECK-NEXT:     "arg_offset": 4,
// CHECK-NEXT:     "depends_on": [
// CHECK-NEXT:      0
// CHECK-NEXT:     ]
// CHECK:          "subtask": 8,
// CHECK:          "kernel": "mm",
// CHECK:          "arg_offset": 8,
// CHECK:        "locks": [
// CHECK-NEXT:    {
// CHECK-NEXT:     "id": 2,
// CHECK-NEXT:     "op": "notify",
// CHECK-NEXT:     "cell": "e_cell",
// CHECK-NEXT:     "slot": 3,
// CHECK-NEXT:     "core": "aiv"
// CHECK-NEXT:    },
// CHECK-NEXT:    {
// CHECK-NEXT:     "id": 4,
// CHECK-NEXT:     "op": "wait",
// CHECK-NEXT:     "cell": "g_cell",
// CHECK-NEXT:     "slot": 7,
// CHECK-NEXT:     "core": "aic"
// CHECK-NEXT:    },
// CHECK-NEXT:    {
// CHECK-NEXT:     "id": 9,
// CHECK-NEXT:     "op": "reset",
// CHECK-NEXT:     "cell": "g_cell",
// CHECK-NEXT:     "slot": 7,
// CHECK-NEXT:     "core": "aic"
// CHECK-NEXT:    }
// CHECK-NEXT:   ],
// The whole table: FFTS base, @a's 2 params, @a's notify lock, @b's 3 params, @b's
// wait lock (shared with the reset at exit), @mm's 2 params.
// CHECK-NEXT:   "args": [
// CHECK-NEXT:    {
// CHECK-NEXT:     "slot": 0,
// CHECK-NEXT:     "source": "ffts_base"
// CHECK-NEXT:    },
// CHECK-NEXT:    {
// CHECK-NEXT:     "slot": 1,
// CHECK-NEXT:     "source": "task",
// CHECK-NEXT:     "stream": "s0",
// CHECK-NEXT:     "seq": 0,
// CHECK-NEXT:     "arg": 0
// CHECK-NEXT:    },
// CHECK-NEXT:    {
// CHECK-NEXT:     "slot": 2,
// CHECK-NEXT:     "source": "task",
// CHECK-NEXT:     "stream": "s0",
// CHECK-NEXT:     "seq": 0,
// CHECK-NEXT:     "arg": 1
// CHECK-NEXT:    },
// CHECK-NEXT:    {
// CHECK-NEXT:     "slot": 3,
// CHECK-NEXT:     "source": "cell",
// CHECK-NEXT:     "cell": "e_cell",
// CHECK-NEXT:     "use": "notify"
// CHECK-NEXT:    },
// CHECK-NEXT:    {
// CHECK-NEXT:     "slot": 4,
// CHECK-NEXT:     "source": "task",
// CHECK-NEXT:     "stream": "s0",
// CHECK-NEXT:     "seq": 5,
// CHECK-NEXT:     "arg": 0
// CHECK-NEXT:    },
// CHECK:          "slot": 6,
// CHECK-NEXT:     "source": "task",
// CHECK-NEXT:     "stream": "s0",
// CHECK-NEXT:     "seq": 5,
// CHECK-NEXT:     "arg": 2
// CHECK-NEXT:    },
// CHECK-NEXT:    {
// CHECK-NEXT:     "slot": 7,
// CHECK-NEXT:     "source": "cell",
// CHECK-NEXT:     "cell": "g_cell",
// CHECK-NEXT:     "use": "wait",
// CHECK-NEXT:     "uses": [
// CHECK-NEXT:      "wait",
// CHECK-NEXT:      "reset"
// CHECK-NEXT:     ]
// CHECK-NEXT:    },
// CHECK-NEXT:    {
// CHECK-NEXT:     "slot": 8,
// CHECK:          "slot": 9,
// CHECK-NEXT:     "source": "task",
// CHECK-NEXT:     "stream": "s0",
// CHECK-NEXT:     "seq": 6,
// CHECK-NEXT:     "arg": 1
// CHECK-NEXT:    }
// CHECK-NEXT:   ],
// A 1:1 member of a 1:2 SuperKernel runs its aiv half on both AIVs of each block.
// CHECK-NEXT:   "warnings": [
// CHECK-NEXT:    {
// CHECK-NEXT:     "warning": "mix11_under_mix12",
// CHECK-NEXT:     "subtask": 8
// CHECK-NEXT:    }
// CHECK-NEXT:   ],
// CHECK-NEXT:   "workspaces": []
// CHECK-NEXT:  }
// CHECK-NEXT: ],
// CHECK-NEXT: "cells": [
// CHECK-NEXT:  {
// CHECK-NEXT:   "cell": "e_cell",
// CHECK-NEXT:   "bytes": 64,
// CHECK-NEXT:   "align": 64,
// CHECK-NEXT:   "uses": [
// CHECK-NEXT:    {
// CHECK-NEXT:     "sk": "m_sk0",
// CHECK-NEXT:     "op": "notify",
// CHECK-NEXT:     "slot": 3,
// CHECK-NEXT:     "core": "aiv"
// CHECK-NEXT:    },
// CHECK-NEXT:    {
// CHECK-NEXT:     "stream": "s1",
// CHECK-NEXT:     "seq": 13,
// CHECK-NEXT:     "op": "value_wait",
// CHECK-NEXT:     "rule": "eq",
// CHECK-NEXT:     "value": 1
// CHECK-NEXT:    },
// CHECK-NEXT:    {
// CHECK-NEXT:     "stream": "s1",
// CHECK-NEXT:     "seq": 14,
// CHECK-NEXT:     "op": "value_write",
// CHECK-NEXT:     "value": 0
// CHECK-NEXT:    }
// CHECK-NEXT:   ]
// CHECK-NEXT:  },
// CHECK-NEXT:  {
// CHECK-NEXT:   "cell": "g_cell",
// CHECK:           "stream": "s1",
// CHECK-NEXT:     "seq": 3,
// CHECK-NEXT:     "op": "value_write",
// CHECK-NEXT:     "value": 1
// CHECK:        "unfused": [
// CHECK-NEXT:  {
// CHECK-NEXT:   "stream": "s0",
// CHECK-NEXT:   "seq": 7,
// CHECK-NEXT:   "kernel": "ns",
// CHECK-NEXT:   "reason": "op_unsupported",
// CHECK-NEXT:   "vendor_reason": "OP_UNSUPPORT",
// CHECK-NEXT:   "detail": "not_sk_capable",
// CHECK-NEXT:   "label": []
// CHECK-NEXT:  },
// CHECK-NEXT:  {
// CHECK-NEXT:   "stream": "s0",
// CHECK-NEXT:   "seq": 8,
// CHECK-NEXT:   "kernel": "c",
// CHECK-NEXT:   "reason": "single_task",
// CHECK-NEXT:   "vendor_reason": "SCOPE_FUSE_PART",
// CHECK-NEXT:   "detail": "NO_TARGET_NODE",
// CHECK-NEXT:   "label": []
// CHECK-NEXT:  },
// CHECK-NEXT:  {
// CHECK-NEXT:   "stream": "s0",
// CHECK-NEXT:   "seq": 9,
// CHECK-NEXT:   "kernel": "b",
// CHECK-NEXT:   "reason": "exceed_core_max",
// CHECK-NEXT:   "vendor_reason": "EXCEED_CORE_MAX",
// CHECK-NEXT:   "detail": null,
// CHECK-NEXT:   "label": []
// CHECK-NEXT:  },
// CHECK-NEXT:  {
// CHECK-NEXT:   "stream": "s0",
// CHECK-NEXT:   "seq": 10,
// CHECK-NEXT:   "kernel": "c",
// CHECK-NEXT:   "reason": "single_task",
// CHECK:       "cuts": [
// CHECK-NEXT:  {
// CHECK-NEXT:   "reason": "breaker",
// CHECK-NEXT:   "seq": 8,
// CHECK-NEXT:   "stream": "s0",
// CHECK-NEXT:   "detail": null
// CHECK-NEXT:  },
// CHECK-NEXT:  {
// CHECK-NEXT:   "reason": "breaker",
// CHECK-NEXT:   "seq": 10,
// CHECK-NEXT:   "stream": "s0",
// CHECK-NEXT:   "detail": null
// CHECK-NEXT:  }
// CHECK-NEXT: ],
// CHECK-NEXT: "updates": [],
// CHECK-NEXT: "summary": {
// CHECK-NEXT:  "kernel_tasks": 7,
// CHECK-NEXT:  "fused": 3,
// CHECK-NEXT:  "unfused": 4,
// CHECK-NEXT:  "pending": 0,
// CHECK-NEXT:  "superkernels": 1,
// CHECK-NEXT:  "launches_saved": 2,
// CHECK-NEXT:  "updated": 0,
// CHECK-NEXT:  "by_reason": {
// CHECK-NEXT:   "exceed_core_max": 1,
// CHECK-NEXT:   "op_unsupported": 1,
// CHECK-NEXT:   "single_task": 2
// CHECK-NEXT:  }
// CHECK-NEXT: },
// CHECK-NEXT: "provenance": {
// CHECK-NEXT:  "tool": "sk-opt",
// CHECK-NEXT:  "arguments": [
// CHECK-NEXT:   "sk-meta.mlir",
// CHECK-NEXT:   "-p",
// CHECK-NEXT:   "superkernel-pipeline{options=\"preload-code=none\"}",
// CHECK-NEXT:   "-t",
// CHECK-NEXT:   "sk-meta"
// CHECK-NEXT:  ],
// CHECK:       "input": {
// CHECK-NEXT:   "name": "sk-meta.mlir",
// CHECK-NEXT:   "sha256": "{{[0-9a-f]+}}"
// CHECK-NEXT:  }
// CHECK-NEXT: }
// CHECK-NEXT: }

// feed-sync-all and profiling add three distinct slots after the last lock slot.
// OPTS:          "options": "feed-sync-all=1:profiling=1",
// OPTS:          "args": [
// OPTS:           "slot": 9,
// OPTS-NEXT:      "source": "task",
// OPTS-NEXT:      "stream": "s0",
// OPTS-NEXT:      "seq": 6,
// OPTS-NEXT:      "arg": 1
// OPTS-NEXT:     },
// OPTS-NEXT:     {
// OPTS-NEXT:      "slot": 10,
// OPTS-NEXT:      "source": "workspace"
// OPTS-NEXT:     },
// OPTS-NEXT:     {
// OPTS-NEXT:      "slot": 11,
// OPTS-NEXT:      "source": "profiling"
// OPTS-NEXT:     },
// OPTS-NEXT:     {
// OPTS-NEXT:      "slot": 12,
// OPTS-NEXT:      "source": "profiling_task_id"
// OPTS-NEXT:     }
// OPTS-NEXT:    ],
// The profiling area, as the plan lays it out: whole 64-byte lines, 64-aligned.
// OPTS:         "workspaces": [
// OPTS-NEXT:     {
// OPTS-NEXT:      "slot": 11,
// OPTS-NEXT:      "use": "profiling",
// OPTS-NEXT:      "bytes": 19008,
// OPTS-NEXT:      "align": 64
// OPTS-NEXT:     }
// OPTS-NEXT:    ]

// After sk-form-scopes alone: no SuperKernels, every unfused kernel, grouped ones pending.
// FORM:      "note": "formed but not outlined: 3 kernel task(s) carry sk.group and are listed neither as fused nor as unfused (run sk-outline).",
// FORM-NEXT: "streams": [
// FORM:      "superkernels": [],
// FORM-NEXT: "cells": [],
// FORM-NEXT: "unfused": [
// FORM:       "reason": "op_unsupported",
// FORM:       "reason": "single_task",
// FORM:       "reason": "exceed_core_max",
// FORM:       "reason": "single_task",
// FORM:      "summary": {
// FORM-NEXT:  "kernel_tasks": 7,
// FORM-NEXT:  "fused": 0,
// FORM-NEXT:  "unfused": 4,
// FORM-NEXT:  "pending": 3,
// FORM-NEXT:  "superkernels": 0,
// FORM-NEXT:  "launches_saved": 0,

// RAW:      "note": "not processed by sk-form-scopes: no kernel task is listed as fused or unfused.",
// RAW-NEXT: "streams": [
// RAW:      "superkernels": [],
// RAW-NEXT: "cells": [],
// RAW-NEXT: "unfused": [],
// RAW-NEXT: "cuts": [],
// RAW-NEXT: "updates": [],
// RAW-NEXT: "summary": {
// RAW-NEXT:  "kernel_tasks": 7,
// RAW-NEXT:  "fused": 0,
// RAW-NEXT:  "unfused": 0,
// RAW-NEXT:  "pending": 7,

// REASON: sk-opt: error: sk-meta: @m/@s0/seq 0: unknown fail reason 'bogus' (one of in_unfusible_scope,

// A table slot nothing explains is a bug (exit 4), never a guess.
// TABLE: sk-opt: error: sk-meta: @m/@m_sk0: inconsistent argument table: slot 3 of 4 is not explained
