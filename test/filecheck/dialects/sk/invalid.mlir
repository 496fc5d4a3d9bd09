// RUN: SKIR_DIAGNOSTICS

// A dependency names an earlier op: the order of the program is the order of the region.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 chain slots 3 {
    %1 = sk.subtask @b blocks 8 offset 2 from @s seq 1 on aiv after %0
    %0 = sk.subtask @a blocks 8 offset 1 from @s seq 0 on aiv
  }
}

// CHECK: {{.*}}invalid.mlir:6:5: error: @m/@k: sk.subtask 0 depends on sk.subtask 1, which is not an earlier sub-task or lock wait of its program

// -----

// Only a sub-task and a lock wait yield a token.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 chain slots 3 {
    %0 = sk.barrier all_aiv
  }
}

// CHECK: {{.*}}invalid.mlir:18:5: error: Operation has 0 results, but was given 1 to bind.

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 chain slots 3 {
    %0 = sk.subtask @a blocks 8 offset 1 from @s seq 0 on aiv
    sk.barrier all_aic
  }
}

// CHECK: {{.*}}invalid.mlir:29:5: error: @m/@k: sk.barrier 1 runs on aic, which the mix_aiv_1_0 SuperKernel does not launch

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_0 blocks 8 chain slots 3 {
    %0 = sk.subtask @a blocks 8 offset 1 from @s seq 0 on mix
  }
}

// CHECK: {{.*}}invalid.mlir:39:5: error: @m/@k: sk.subtask 0 runs on aiv, which the mix_aic_1_0 SuperKernel does not launch

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 chain slots 3 {
    %0 = sk.subtask @a blocks 8 offset 1 from @s seq 0 after %1
  }
}

// CHECK: {{.*}}invalid.mlir:49:56: error: Expected 'on'

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 chain slots 3 {
    %0 = sk.subtask @a blocks 8 offset 1 from @s seq 0 on aiv after %3
  }
}

// CHECK: {{.*}}invalid.mlir:65:1: error: values used but not defined: [%3]

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.cell @lock
  sk.kernel @k mix_aiv_1_0 blocks 8 queue slots 3 {
    %0 = sk.subtask @a blocks 8 offset 1 from @s seq 0 on aiv
    %1 = sk.wait_lock @lock slot 2 on aiv
    sk.notify @lock slot 2 on aiv after %1
  }
}

// CHECK: {{.*}}invalid.mlir:72:5: error: @m/@k: sk.notify 2 depends on sk.wait_lock 1, which is not an earlier sub-task of its program

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.cell @lock
  sk.kernel @k mix_aiv_1_0 blocks 8 queue slots 3 {
    %0 = sk.subtask @a blocks 8 offset 1 from @s seq 0 on aiv
    sk.barrier all_aiv
    sk.notify @lock slot 2 on aiv after %0, %7
  }
}

// CHECK: {{.*}}invalid.mlir:91:1: error: values used but not defined: [%7]

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 chain slots 3 {
    %0 = sk.subtask @a blocks 0 offset 1 from @s seq 0 on aiv
  }
}

// CHECK: {{.*}}invalid.mlir:95:31: error: blocks must be in [1, 65535], got 0

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 ring slots 3 {
  }
}

// CHECK: {{.*}}invalid.mlir:104:37: error: Expected `chain`, or `queue`.

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

// CHECK: {{.*}}invalid.mlir:124:5: error: @m/@k: 'builtin.module' cannot appear in a SuperKernel program

// -----

sk.kernel @k mix_aiv_1_0 blocks 8 chain slots 3 {
}

// CHECK: error: 'sk.kernel' expects parent op 'aclgraph.model'

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.stream @s {
    sk.barrier all_aiv
  }
}

// CHECK: error: 'sk.barrier' expects parent op to be one of 'sk.kernel', 'ascendc.entry', 'ascendc.core_function'

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 chain slots 3 {
    "sk.barrier"() <{kind = #sk<barrier_kind pipe_all>}> : () -> ()
  }
}

// CHECK: {{.*}}invalid.mlir:152:5: error: barrier: a pipe_all barrier, and only it, names its core types (on aic|aiv|mix)

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 chain slots 3 {
    "sk.barrier"() <{kind = #sk<barrier_kind sync_all>, cores = #sk<class mix>}> : () -> ()
  }
}

// CHECK: {{.*}}invalid.mlir:162:5: error: barrier: a pipe_all barrier, and only it, names its core types (on aic|aiv|mix)

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 queue slots 3 {
    sk.wait_flag flag 12 on aic
  }
}

// CHECK: {{.*}}invalid.mlir:172:5: error: sk.wait_flag: flag ids 11-14 are reserved for SyncAll, barriers and early-start; use another

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 queue slots 3 {
    sk.set_flag mode 1 flag 3 pipe fix on aic
  }
}

// CHECK: {{.*}}invalid.mlir:182:5: error: set_flag: mode 1 synchronises the AIVs of a block; run it on aiv

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 queue slots 3 {
    sk.early_start_wait cfg 3 on aiv
  }
}

// CHECK: {{.*}}invalid.mlir:192:5: error: early_start_wait: cfg 3 is not 4 x class(prev) + class(cur)

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 queue slots 3 {
    sk.preload @a units 12 blocks 8 on aiv
  }
}

// CHECK: {{.*}}invalid.mlir:202:5: error: preload: 12 units do not fit the aiv instruction cache (8 units of 2 KiB)

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 queue slots 3 {
    sk.set_flag mode 2 flag 3 pipe all on aiv
  }
}

// CHECK: {{.*}}invalid.mlir:212:36: error: Expected `v`, `m`, `mte1`, `mte2`, `mte3`, or `fix`.

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 queue slots 3 {
    sk.depend_flag_signal flag 12 on aiv
  }
}

// CHECK: {{.*}}invalid.mlir:222:5: error: sk.depend_flag_signal: flag ids 11-14 are reserved for SyncAll, barriers and early-start; use another

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 queue slots 3 {
    sk.depend_flag_await flag 3 on mix
  }
}

// CHECK: {{.*}}invalid.mlir:232:5: error: sk.depend_flag_await: one core type's half of a flag pair; put it on aic or aiv

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 chain slots 3 {
    sk.depend_barrier aiv -> aiv on mix
  }
}

// CHECK: {{.*}}invalid.mlir:242:5: error: sk.depend_barrier: the barrier of aiv -> aiv runs on aiv; it says on mix

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 chain slots 3 {
    sk.depend_early_start aic -> aiv on aiv
  }
}

// CHECK: {{.*}}invalid.mlir:252:5: error: sk.depend_early_start: the aic sub-task before sets, so the handshake runs on aic too; it says on aiv

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 chain slots 3 {
    "sk.depend_early_start"() <{src = #sk<class aiv>, dst = #sk<class aiv>, set_idle = #builtin.int<8>, cores = #sk<class aiv>}> : () -> ()
  }
}

// CHECK: {{.*}}invalid.mlir:262:5: error: sk.depend_early_start: set_idle needs the class of the setter (of ...)

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.cell @lock
  sk.kernel @k mix_aiv_1_0 blocks 8 queue slots 3 {
    %0 = sk.subtask @a blocks 8 offset 1 from @s seq 0 on aiv
    "sk.reset_lock"(%0) <{cell = @lock, slot = #builtin.int<2>, core = #sk<core aiv>}> : (!sk.token) -> ()
  }
}

// CHECK: {{.*}}invalid.mlir:274:5: error: Expected 0 operands, but got 1

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 chain slots 3 options "split-mode=0" {
    %0 = sk.subtask @a blocks 8 offset 1 from @s seq 0 on aiv
  }
}

// CHECK: {{.*}}invalid.mlir:283:59: error: options: option 'split-mode': expected an integer in 1..64, got '0'

// -----

"builtin.module"() ({
  "aclgraph.model"() <{sym_name = "m", aic = 24 : i64, aiv = 48 : i64}> ({
    "sk.kernel"() <{sym_name = "k", kernel_type = #aclgraph<kernel_type mix_aiv_1_0>, blocks = #builtin.int<8>, form = #sk<form chain>, arg_slots = #builtin.int<3>, options = #sk.options<"early-strat=1">}> ({
    }) : () -> ()
  }) : () -> ()
}) : () -> ()

// CHECK: {{.*}}invalid.mlir:294:188: error: options: unknown option 'early-strat' (did you mean 'early-start'?)

// -----

// A placed sub-task must stay within the SuperKernel's cores of its index (AIVs for aiv).
aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 queue slots 3 {
    %0 = sk.subtask @a blocks 4 at 6 offset 1 from @s seq 0 on aiv
  }
}

// CHECK: {{.*}}invalid.mlir:306:5: error: @m/@k: sub-task 0 at 6 runs on AIVs [6, 10), beyond the 8 AIVs of the SuperKernel; lower its 'at'

// -----

// A guarded flag op must stay within the SuperKernel's cores of its type.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aiv_1_0 blocks 8 queue slots 3 {
    sk.set_flag mode 0 flag 10 pipe mte3 on aiv blocks 4 at 6
  }
}

// CHECK: {{.*}}invalid.mlir:317:5: error: @m/@k: sk.set_flag 0 is guarded to cores [6, 10), beyond the 8 AIVs of the SuperKernel; lower its 'at' or 'blocks'

// -----

// Only a mode-0 set may be guarded: a mode-2 set pairs the AIC and the AIVs of each block.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  sk.kernel @k mix_aic_1_2 blocks 8 queue slots 3 {
    sk.set_flag mode 2 flag 10 pipe mte3 on aiv blocks 4 at 0
  }
}

// CHECK: {{.*}}invalid.mlir:328:5: error: set_flag: only a mode-0 set may be guarded to a core range (a mode-2 set pairs the AIC and the AIVs of every block); drop 'blocks n at F' or use mode 0
