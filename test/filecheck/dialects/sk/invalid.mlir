// RUN: SKIR_DIAGNOSTICS

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 chain slots 3 {
    aic {
    }
    aiv {
      sk.subtask id 1 @a blocks 8 offset 1 from @s seq 0
      sk.subtask id 0 @b blocks 8 offset 2 from @s seq 1
    }
  }
}

// CHECK: {{.*}}invalid.mlir:9:7: error: @m/@k: ids must increase along the aiv program of a chain SuperKernel (id 0 after 1)

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 chain slots 3 {
    aic {
    }
    aiv {
      sk.subtask id 0 @a blocks 8 offset 1 from @s seq 0
      sk.barrier id 1 all_aic
    }
  }
}

// CHECK: {{.*}}invalid.mlir:24:7: error: @m/@k: barrier 1 (all_aic) is in the aiv program; move it to the aic program

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 chain slots 3 {
    aic {
    }
    aiv {
      sk.subtask id 0 @a blocks 8 offset 1 from @s seq 0
      sk.barrier id 1 sync_all
    }
  }
}

// CHECK: {{.*}}invalid.mlir:39:7: error: @m/@k: sync_all barrier 1 must appear in both the aic and the aiv program

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 chain slots 3 {
    aic {
      sk.subtask id 0 @a blocks 8 offset 1 from @s seq 0
    }
    aiv {
      sk.subtask id 0 @a blocks 4 offset 1 from @s seq 0
    }
  }
}

// CHECK: {{.*}}invalid.mlir:54:7: error: @m/@k: id 0 names two different ops; an op shared by both programs must be identical in each

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 chain slots 3 {
    aic {
    }
    aiv {
      sk.subtask id 0 @a blocks 8 offset 1 from @s seq 0 after [3]
    }
  }
}

// CHECK: {{.*}}invalid.mlir:68:7: error: @m/@k: sub-task 0 depends on id 3, which is not a sub-task

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 chain slots 3 {
    aic {
    }
    aiv {
      sk.subtask id 0 @a blocks 0 offset 1 from @s seq 0
    }
  }
}

// CHECK: {{.*}}invalid.mlir:82:33: error: blocks must be in [1, 65535], got 0

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 ring slots 3 {
    aic {
    }
    aiv {
    }
  }
}

// CHECK: {{.*}}invalid.mlir:92:37: error: Expected `chain`, or `queue`.

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 chain slots 3 {
    aic {
    }
    aiv {
      aclgraph.placeholder seq 0
    }
  }
}

// CHECK: error: 'aclgraph.placeholder' expects parent op 'aclgraph.stream'

// -----

sk.kernel @k mix_aiv_1_0 blocks 8 chain slots 3 {
  aic {
  }
  aiv {
  }
}

// CHECK: error: 'sk.kernel' expects parent op 'aclgraph.model'

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.stream @s {
    sk.barrier id 0 all_aiv
  }
}

// CHECK: error: 'sk.barrier' expects parent op to be one of 'sk.kernel', 'ascendc.entry', 'ascendc.core_function'

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 queue slots 3 {
    aic {
      sk.wait_flag id 0 flag 12 on aic
    }
    aiv {
    }
  }
}

// CHECK: {{.*}}invalid.mlir:142:7: error: sk.wait_flag 0: flag ids 11-14 are reserved for SyncAll, barriers and early-start; use another

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 queue slots 3 {
    aic {
      sk.set_flag id 0 mode 1 flag 3 pipe fix on aic
    }
    aiv {
    }
  }
}

// CHECK: {{.*}}invalid.mlir:156:7: error: set_flag 0: mode 1 synchronises the AIVs of a block; run it on aiv

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 queue slots 3 {
    aic {
    }
    aiv {
      sk.notify id 0 @c slot 1 on aic
    }
  }
}

// CHECK: {{.*}}invalid.mlir:172:7: error: @m/@k: sk.notify 0 runs on aic but is in the aiv program

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 queue slots 3 {
    aic {
    }
    aiv {
      sk.early_start_wait id 0 cfg 3 on aiv
    }
  }
}

// CHECK: {{.*}}invalid.mlir:186:7: error: early_start_wait 0: cfg 3 is not 4 x class(prev) + class(cur)

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 queue slots 3 {
    aic {
    }
    aiv {
      sk.preload id 0 @a units 12 blocks 8 on aiv
    }
  }
}

// CHECK: {{.*}}invalid.mlir:200:7: error: preload 0: 12 units do not fit the aiv instruction cache (8 units of 2 KiB)

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 queue slots 3 {
    aic {
    }
    aiv {
      sk.set_flag id 0 mode 2 flag 3 pipe all on aiv
    }
  }
}

// CHECK: {{.*}}invalid.mlir:214:43: error: Expected `v`, `m`, `mte1`, `mte2`, `mte3`, or `fix`.

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 queue slots 3 {
    aic {
    }
    aiv {
      sk.depend id 0 flag_signal 12
    }
  }
}

// CHECK: {{.*}}invalid.mlir:228:7: error: sk.depend 0: flag ids 11-14 are reserved for SyncAll, barriers and early-start; use another

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 chain slots 3 {
    aic {
    }
    aiv {
      sk.depend id 0 fence aiv -> aiv
    }
  }
}

// CHECK: {{.*}}invalid.mlir:242:22: error: Expected `barrier`, `pipe`, `early_start`, `lock_release`, `lock_acquire`, `flag_signal`, or `flag_await`.

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 chain slots 3 {
    aic {
    }
    aiv {
      "sk.depend"() <{id = #builtin.int<0>, rule = #sk<depend_rule barrier>, src = #sk<class aiv>}> : () -> ()
    }
  }
}

// CHECK: {{.*}}invalid.mlir:256:7: error: sk.depend 0 (barrier) needs 'dst'

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 chain slots 3 {
    aic {
    }
    aiv {
      "sk.depend"() <{id = #builtin.int<0>, rule = #sk<depend_rule pipe>, wait_idle = #builtin.int<8>}> : () -> ()
    }
  }
}

// CHECK: {{.*}}invalid.mlir:270:7: error: sk.depend 0: only an early_start takes set_idle / wait_idle

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.cell @lock
  sk.kernel @k mix_aiv_1_0 blocks 8 queue slots 3 {
    aic {
    }
    aiv {
      sk.subtask id 0 @a blocks 8 offset 1 from @s seq 0
      sk.barrier id 1 all_aiv
      sk.notify id 2 @lock slot 2 on aiv after [0, 1]
    }
  }
}

// CHECK: {{.*}}invalid.mlir:{{[0-9]+}}:7: error: @m/@k: notify 2 depends on id 1, which is not a sub-task

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.cell @lock
  sk.kernel @k mix_aiv_1_0 blocks 8 queue slots 3 {
    aic {
    }
    aiv {
      sk.subtask id 0 @a blocks 8 offset 1 from @s seq 0
      "sk.reset_lock"() <{id = #builtin.int<1>, cell = @lock, slot = #builtin.int<2>, core = #sk<core aiv>, deps = [#builtin.int<0>]}> : () -> ()
    }
  }
}

// CHECK: {{.*}}invalid.mlir:{{[0-9]+}}:7: error: sk.reset_lock 1 names sub-tasks; only a notify (after) and a lock wait (before) take them
