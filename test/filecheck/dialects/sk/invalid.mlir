// RUN: SKIR_DIAGNOSTICS

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 chain slots 3 {
    sk.subtask id 1 @b blocks 8 offset 2 from @s seq 1 on aiv
    sk.subtask id 0 @a blocks 8 offset 1 from @s seq 0 on aiv
  }
}

// CHECK: {{.*}}invalid.mlir:6:5: error: @m/@k: ids must increase along the program (id 0 after 1)

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 queue slots 3 {
    sk.subtask id 1 @b blocks 8 offset 2 from @s seq 1 on aiv
    sk.subtask id 0 @a blocks 8 offset 1 from @s seq 0 on aic
  }
}

// CHECK: {{.*}}invalid.mlir:17:5: error: @m/@k: ids must increase along the program (id 0 after 1)

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 chain slots 3 {
    sk.subtask id 0 @a blocks 8 offset 1 from @s seq 0 on aiv
    sk.barrier id 1 all_aic
  }
}

// CHECK: {{.*}}invalid.mlir:28:5: error: @m/@k: sk.barrier 1 runs on aic, which the mix_aiv_1_0 SuperKernel does not launch

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_0 blocks 8 chain slots 3 {
    sk.subtask id 0 @a blocks 8 offset 1 from @s seq 0 on mix
  }
}

// CHECK: {{.*}}invalid.mlir:38:5: error: @m/@k: sk.subtask 0 runs on aiv, which the mix_aic_1_0 SuperKernel does not launch

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 chain slots 3 {
    sk.subtask id 0 @a blocks 8 offset 1 from @s seq 0 after [1]
  }
}

// CHECK: {{.*}}invalid.mlir:48:56: error: Expected 'on'

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 chain slots 3 {
    sk.subtask id 0 @a blocks 8 offset 1 from @s seq 0 on aiv after [3]
  }
}

// CHECK: {{.*}}invalid.mlir:58:5: error: @m/@k: sub-task 0 depends on id 3, which is not an earlier sub-task

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.cell @lock
  sk.kernel @k mix_aiv_1_0 blocks 8 queue slots 3 {
    sk.subtask id 0 @a blocks 8 offset 1 from @s seq 0 on aiv
    sk.wait_lock id 1 @lock slot 2 on aiv before [0]
  }
}

// CHECK: {{.*}}invalid.mlir:70:5: error: @m/@k: lock wait 1 precedes id 0, which is not a later sub-task

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.cell @lock
  sk.kernel @k mix_aiv_1_0 blocks 8 queue slots 3 {
    sk.subtask id 0 @a blocks 8 offset 1 from @s seq 0 on aiv
    sk.barrier id 1 all_aiv
    sk.notify id 2 @lock slot 2 on aiv after [0, 1]
  }
}

// CHECK: {{.*}}invalid.mlir:83:5: error: @m/@k: notify 2 depends on id 1, which is not an earlier sub-task

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 chain slots 3 {
    sk.subtask id 0 @a blocks 0 offset 1 from @s seq 0 on aiv
  }
}

// CHECK: {{.*}}invalid.mlir:93:31: error: blocks must be in [1, 65535], got 0

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 ring slots 3 {
  }
}

// CHECK: {{.*}}invalid.mlir:102:37: error: Expected `chain`, or `queue`.

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 chain slots 3 {
    aclgraph.placeholder seq 0
  }
}

// CHECK: error: 'aclgraph.placeholder' expects parent op 'aclgraph.stream'

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 chain slots 3 {
    builtin.module {
    }
  }
}

// CHECK: {{.*}}invalid.mlir:122:5: error: @m/@k: 'builtin.module' cannot appear in a SuperKernel program

// -----

sk.kernel @k mix_aiv_1_0 blocks 8 chain slots 3 {
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
  sk.kernel @k mix_aiv_1_0 blocks 8 chain slots 3 {
    "sk.barrier"() <{id = #builtin.int<0>, kind = #sk<barrier_kind pipe_all>}> : () -> ()
  }
}

// CHECK: {{.*}}invalid.mlir:150:5: error: barrier 0: a pipe_all barrier, and only it, names its core types (on aic|aiv|mix)

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 chain slots 3 {
    "sk.barrier"() <{id = #builtin.int<0>, kind = #sk<barrier_kind sync_all>, cores = #sk<class mix>}> : () -> ()
  }
}

// CHECK: {{.*}}invalid.mlir:160:5: error: barrier 0: a pipe_all barrier, and only it, names its core types (on aic|aiv|mix)

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 queue slots 3 {
    sk.wait_flag id 0 flag 12 on aic
  }
}

// CHECK: {{.*}}invalid.mlir:170:5: error: sk.wait_flag 0: flag ids 11-14 are reserved for SyncAll, barriers and early-start; use another

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 queue slots 3 {
    sk.set_flag id 0 mode 1 flag 3 pipe fix on aic
  }
}

// CHECK: {{.*}}invalid.mlir:180:5: error: set_flag 0: mode 1 synchronises the AIVs of a block; run it on aiv

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 queue slots 3 {
    sk.early_start_wait id 0 cfg 3 on aiv
  }
}

// CHECK: {{.*}}invalid.mlir:190:5: error: early_start_wait 0: cfg 3 is not 4 x class(prev) + class(cur)

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 queue slots 3 {
    sk.preload id 0 @a units 12 blocks 8 on aiv
  }
}

// CHECK: {{.*}}invalid.mlir:200:5: error: preload 0: 12 units do not fit the aiv instruction cache (8 units of 2 KiB)

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 queue slots 3 {
    sk.set_flag id 0 mode 2 flag 3 pipe all on aiv
  }
}

// CHECK: {{.*}}invalid.mlir:210:41: error: Expected `v`, `m`, `mte1`, `mte2`, `mte3`, or `fix`.

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 queue slots 3 {
    sk.depend_flag_signal id 0 flag 12 on aiv
  }
}

// CHECK: {{.*}}invalid.mlir:220:5: error: sk.depend_flag_signal 0: flag ids 11-14 are reserved for SyncAll, barriers and early-start; use another

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 queue slots 3 {
    sk.depend_flag_await id 0 flag 3 on mix
  }
}

// CHECK: {{.*}}invalid.mlir:230:5: error: sk.depend_flag_await 0: one core type's half of a flag pair; put it on aic or aiv

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 chain slots 3 {
    sk.depend_barrier id 0 aiv -> aiv on mix
  }
}

// CHECK: {{.*}}invalid.mlir:240:5: error: sk.depend_barrier 0: the barrier of aiv -> aiv runs on aiv; it says on mix

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 chain slots 3 {
    sk.depend_early_start id 0 aic -> aiv on aiv
  }
}

// CHECK: {{.*}}invalid.mlir:250:5: error: sk.depend_early_start 0: the aic sub-task before sets, so the handshake runs on aic too; it says on aiv

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 chain slots 3 {
    "sk.depend_early_start"() <{id = #builtin.int<0>, src = #sk<class aiv>, dst = #sk<class aiv>, set_idle = #builtin.int<8>, cores = #sk<class aiv>}> : () -> ()
  }
}

// CHECK: {{.*}}invalid.mlir:260:5: error: sk.depend_early_start 0: set_idle needs the class of the setter (of ...)

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.cell @lock
  sk.kernel @k mix_aiv_1_0 blocks 8 queue slots 3 {
    sk.subtask id 0 @a blocks 8 offset 1 from @s seq 0 on aiv
    "sk.reset_lock"() <{id = #builtin.int<1>, cell = @lock, slot = #builtin.int<2>, core = #sk<core aiv>, deps = [#builtin.int<0>]}> : () -> ()
  }
}

// CHECK: {{.*}}invalid.mlir:272:5: error: sk.reset_lock 1 names sub-tasks; only a notify (after) and a lock wait (before) take them

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 chain slots 3 options "split-mode=0" {
    sk.subtask id 0 @a blocks 8 offset 1 from @s seq 0 on aiv
  }
}

// CHECK: {{.*}}invalid.mlir:281:59: error: options: option 'split-mode': expected an integer in 1..64, got '0'

// -----

"builtin.module"() ({
  "aclgraph.model"() <{sym_name = "m", aic = 24 : i64, aiv = 48 : i64}> ({
    "sk.kernel"() <{sym_name = "k", kernel_type = #aclgraph<kernel_type mix_aiv_1_0>, blocks = #builtin.int<8>, form = #sk<form chain>, arg_slots = #builtin.int<3>, options = #sk.options<"early-strat=1">}> ({
    }) : () -> ()
  }) : () -> ()
}) : () -> ()

// CHECK: {{.*}}invalid.mlir:292:188: error: options: unknown option 'early-strat' (did you mean 'early-start'?)

// -----

// A placed sub-task must stay within the SuperKernel's cores of its index (AIVs for aiv).
aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 queue slots 3 {
    sk.subtask id 0 @a blocks 4 at 6 offset 1 from @s seq 0 on aiv
  }
}

// CHECK: {{.*}}invalid.mlir:304:5: error: @m/@k: sub-task 0 at 6 runs on AIVs [6, 10), beyond the 8 AIVs of the SuperKernel; lower its 'at'

// -----

// A guarded flag op must stay within the SuperKernel's cores of its type.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 queue slots 3 {
    sk.set_flag id 0 mode 0 flag 10 pipe mte3 on aiv blocks 4 at 6
  }
}

// CHECK: {{.*}}invalid.mlir:315:5: error: @m/@k: sk.set_flag 0 is guarded to cores [6, 10), beyond the 8 AIVs of the SuperKernel; lower its 'at' or 'blocks'

// -----

// Only a mode-0 set may be guarded: a mode-2 set pairs the AIC and the AIVs of each block.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 queue slots 3 {
    sk.set_flag id 0 mode 2 flag 10 pipe mte3 on aiv blocks 4 at 0
  }
}

// CHECK: {{.*}}invalid.mlir:326:5: error: set_flag 0: only a mode-0 set may be guarded to a core range (a mode-2 set pairs the AIC and the AIVs of every block); drop 'blocks n at F' or use mode 0
