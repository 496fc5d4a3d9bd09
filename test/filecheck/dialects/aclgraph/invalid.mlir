// RUN: SKIR_DIAGNOSTICS

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params(in)
  aclgraph.stream @s {
    aclgraph.launch seq 0 @a blocks 0
  }
}

// CHECK: {{.*}}invalid.mlir:6:37: error: blocks must be in [1, 65535], got 0

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params(in)
  aclgraph.stream @s {
    aclgraph.launch seq 0 @a blocks 70000
  }
}

// CHECK: {{.*}}invalid.mlir:17:37: error: blocks must be in [1, 65535], got 70000

// -----

aclgraph.model @m cores(aic = 0, aiv = 48) {
}

// CHECK: {{.*}}invalid.mlir:25:31: error: aic cores must be in [1, 65535], got 0

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a vector_only params(in)
}

// CHECK: {{.*}}invalid.mlir:33:22: error: Expected `aiv_only`, `aic_only`, `mix_aiv_1_0`, `mix_aic_1_0`, `mix_aic_1_1`, or `mix_aic_1_2`.

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params(input)
}

// CHECK: {{.*}}invalid.mlir:41:38: error: Expected `in`, `out`, `inout`, `workspace`, or `tiling`.

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params(in) batch batch
}

// CHECK: {{.*}}invalid.mlir:49:48: error: clause 'batch' given twice

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params(in) early_start(start)
}

// CHECK: {{.*}}invalid.mlir:57:42: error: 'early_start' takes set, wait; got 'start'

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params(in) sync_flags [16]
}

// CHECK: {{.*}}invalid.mlir:65:54: error: sync flag id must be in [0, 15], got 16

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params(in) split_copies 65
}

// CHECK: {{.*}}invalid.mlir:73:55: error: split_copies must be in [1, 64], got 65

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @"a-b" aiv_only params(in)
}

// CHECK: {{.*}}invalid.mlir:81:3: error: @m/@a-b: sub-kernel symbol 'a-b_middle' is not a C identifier; rename the kernel or give sk_symbol

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.cell @c
  aclgraph.stream @s {
    aclgraph.value_wait seq 0 @c lt 1
  }
}

// CHECK: {{.*}}invalid.mlir:91:34: error: Expected `geq`, `eq`, `and`, or `nor`.

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.stream @s {
    aclgraph.scope_begin seq 0 layer0
  }
}

// CHECK: {{.*}}invalid.mlir:101:32: error: expected a scope name ("name") or none

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.stream @s {
    aclgraph.disabled seq 0 was launch_sk @x
  }
}

// CHECK: {{.*}}invalid.mlir:111:33: error: unknown task kind 'launch_sk' (one of launch, record, wait, reset, value_write, value_wait, opaque, scope_begin, scope_end, placeholder)

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.stream @s {
    aclgraph.opaque seq 0 memcpy "n0"
  }
}

// CHECK: {{.*}}invalid.mlir:121:5: error: @m/@s/seq 0: only notify_record / notify_wait tasks name a notify, not memcpy; drop the name

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.stream @s {
    aclgraph.launch seq 0 @nowhere blocks 1
  }
}

// CHECK: {{.*}}invalid.mlir:131:5: error: @m/@s/seq 0: unknown kernel @nowhere; declare it in the model

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.event @e
  aclgraph.stream @s {
    aclgraph.launch seq 0 @e blocks 1
  }
}

// CHECK: {{.*}}invalid.mlir:142:5: error: @m/@s/seq 0: @e is declared by 'aclgraph.event', not by 'aclgraph.kernel'; name a kernel

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params(in, out)
  aclgraph.buffer @x
  aclgraph.stream @s {
    aclgraph.launch seq 0 @a blocks 1 args(@x)
  }
}

// CHECK: {{.*}}invalid.mlir:154:5: error: @m/@s/seq 0: 1 args for kernel @a, which has 2 params; pass one buffer per param

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params(in)
  aclgraph.stream @s {
    aclgraph.launch seq 0 @a blocks 1 args(@y)
  }
}

// CHECK: {{.*}}invalid.mlir:165:5: error: @m/@s/seq 0: unknown buffer @y; declare it in the model

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.stream @s {
    aclgraph.launch_sk seq 0 @s
  }
}

// CHECK: {{.*}}invalid.mlir:175:5: error: @m/@s/seq 0: @s is declared by 'aclgraph.stream', not by 'sk.kernel'; name a SuperKernel

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.stream @s0 {
    aclgraph.placeholder seq 3
  }
  aclgraph.stream @s1 {
    aclgraph.placeholder seq 3
  }
}

// CHECK: {{.*}}invalid.mlir:188:5: error: @m/@s1/seq 3: seq 3 is also used by @m/@s0/seq 3; seq must be unique

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.stream @s {
    aclgraph.placeholder seq 3
    aclgraph.placeholder seq 2
  }
}

// CHECK: {{.*}}invalid.mlir:199:5: error: @m/@s/seq 2: seq must increase along a stream (the previous task has seq 3)

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.stream @s slots 3 {
    aclgraph.placeholder seq 0
  }
}

// CHECK: {{.*}}invalid.mlir:208:3: error: @m/@s: the stream records 3 slots but holds 1; a rewrite must keep each stream's slot count

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.event @x
  aclgraph.cell @x
}

// CHECK: {{.*}}invalid.mlir:219:3: error: @m/@x: symbol @x is defined twice; rename one of them (kernels, buffers, events, cells, streams and SuperKernels share one namespace)

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.stream @s {
    aclgraph.event @e
  }
}

// CHECK: error: 'aclgraph.event' expects parent op 'aclgraph.model'

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.placeholder seq 0
}

// CHECK: error: 'aclgraph.placeholder' expects parent op 'aclgraph.stream'

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.stream @s {
    aclgraph.scope_end seq 0 "a"
  }
}

// CHECK: {{.*}}invalid.mlir:246:5: error: @m/@s/seq 0: scope_end "a" closes no open scope; add its scope_begin first

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.stream @s {
    aclgraph.scope_begin seq 0 "a"
    aclgraph.scope_begin seq 1 "b"
    aclgraph.scope_end seq 2 "a"
  }
}

// CHECK: {{.*}}invalid.mlir:257:5: error: @m/@s/seq 1: scope_begin "b" is never closed; add a scope_end "b"

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.stream @s {
    aclgraph.scope_begin seq 0 none
  }
}

// CHECK: {{.*}}invalid.mlir:268:5: error: @m/@s/seq 0: scope_begin none is never closed; add a scope_end none

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.event @e
  aclgraph.stream @s0 {
    aclgraph.record seq 0 @e
    aclgraph.reset seq 1 @e
  }
  aclgraph.stream @s1 {
    aclgraph.wait seq 2 @e
  }
}

// CHECK: {{.*}}invalid.mlir:283:5: error: @m/@s1/seq 2: wait on @e has no record in its epoch; record @e before it (after the last reset) or mark the wait external

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.event @e
  aclgraph.stream @s0 {
    aclgraph.record seq 0 @e
    aclgraph.reset seq 2 @e
  }
  aclgraph.stream @s1 {
    aclgraph.wait seq 1 @e
  }
}

// CHECK: {{.*}}invalid.mlir:295:5: error: @m/@s0/seq 2: reset of @e is not ordered after @m/@s1/seq 1 of the epoch it closes; make the reset wait for it

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.cell @c
  aclgraph.stream @s0 {
    aclgraph.value_write seq 0 @c value 1
    aclgraph.value_wait seq 1 @c eq 1
  }
  aclgraph.stream @s1 {
    aclgraph.value_wait seq 2 @c geq 1
  }
}

// CHECK: {{.*}}invalid.mlir:313:5: error: @m/@s1/seq 2: waits on @c disagree: this one waits geq 1, @m/@s0/seq 1 waits eq 1; use one (rule, value) per cell

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.cell @c
  aclgraph.stream @s0 {
    aclgraph.value_write seq 0 @c value 1
    aclgraph.value_write seq 1 @c value 2
  }
  aclgraph.stream @s1 {
    aclgraph.value_wait seq 2 @c geq 1
  }
}

// CHECK: {{.*}}invalid.mlir:325:5: error: @m/@s0/seq 1: a second write to @c satisfies its waits (the first is @m/@s0/seq 0); give each synchronisation its own cell

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.cell @c
  aclgraph.stream @s0 {
    aclgraph.value_write seq 0 @c value 0
  }
  aclgraph.stream @s1 {
    aclgraph.value_write seq 1 @c value 1
  }
}

// CHECK: {{.*}}invalid.mlir:342:5: error: @m/@s1/seq 1: writes to @c are not ordered (@m/@s0/seq 0 and this one may run in either order); order them with an event or use two cells

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.event @e0
  aclgraph.event @e1
  aclgraph.stream @s0 {
    aclgraph.wait seq 0 @e1
    aclgraph.record seq 1 @e0
  }
  aclgraph.stream @s1 {
    aclgraph.wait seq 2 @e0
    aclgraph.record seq 3 @e1
  }
}

// CHECK: {{.*}}invalid.mlir:354:5: error: happens-before cycle: @m/@s0/seq 0 -> @m/@s0/seq 1 -> @m/@s1/seq 2 -> @m/@s1/seq 3 -> @m/@s0/seq 0; an event or value wait depends on a task that comes after it

// -----

"aclgraph.model"() <{sym_name = "m", aic_cores = #builtin.int<24>, aiv_cores = #builtin.int<48>}> ({
  "aclgraph.kernel"() <{sym_name = "k", kernel_type = #aclgraph<kernel_type aiv_only>, params = [], param_count = #builtin.int<1>}> : () -> ()
}) : () -> ()

// CHECK: {{.*}}invalid.mlir:368:3: error: @m/@k: give exactly one of 'params' (roles) and 'param_count'

// -----

// Two waits of a twice-recorded event, each before the other stream's record: no wait ever
// returns. hb has no edge for an or-wait, so the verifier runs the model on sk-check's machine.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @k aiv_only params 0
  aclgraph.event @e
  aclgraph.stream @s0 {
    aclgraph.wait seq 0 @e
    aclgraph.launch seq 1 @k blocks 4
    aclgraph.record seq 2 @e
  }
  aclgraph.stream @s1 {
    aclgraph.wait seq 3 @e
    aclgraph.launch seq 4 @k blocks 4
    aclgraph.record seq 5 @e
  }
}

// CHECK: {{.*}}invalid.mlir:381:5: error: @m/@s0/seq 0: the model deadlocks by itself: this task waits for ever on wait @e (not recorded in its epoch), as do @m/@s1/seq 3 on wait @e (not recorded in its epoch); order a record or write before the waits that need it

// -----

// The initial 0 passes `eq 0`, so the wait gives no edge; a write of 1 could hold it back
// until the later write of 0, an order the model does not state.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.cell @c
  aclgraph.stream @s0 {
    aclgraph.value_write seq 0 @c value 1
    aclgraph.value_write seq 1 @c value 0
  }
  aclgraph.stream @s1 {
    aclgraph.value_wait seq 2 @c eq 0
  }
}

// CHECK: {{.*}}invalid.mlir:401:5: error: @m/@s0/seq 0: value_write 1 to @c fails the rule of its waits (eq 0), which the initial 0 passes: a wait could then block until some later write, an order the model does not state; give the waits a rule that 0 fails, or use two cells

// -----

// The write of 0 after the satisfying write is not ordered after the other stream's wait,
// which could then miss the 1 and block for ever.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.cell @c
  aclgraph.stream @s0 {
    aclgraph.value_write seq 0 @c value 1
    aclgraph.value_write seq 1 @c value 0
  }
  aclgraph.stream @s1 {
    aclgraph.value_wait seq 2 @c eq 1
  }
}

// CHECK: {{.*}}invalid.mlir:419:5: error: @m/@s0/seq 1: value_write to @c after the write its waits need (@m/@s0/seq 0) is not ordered after @m/@s1/seq 2, which could then miss the value and block for ever; make the write wait for it

// -----

// A communication kernel's group is a C identifier, and its op one of the collectives.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @ar aiv_only params(inout)
  aclgraph.buffer @x
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @ar blocks 16 args(@x) comm group tp0 op broadcast
  }
}

// CHECK: {{.*}}invalid.mlir:{{[0-9]+}}:68: error: Expected `all_reduce`, `all_gather`, `reduce_scatter`, `all_to_all`, `dispatch`, `combine`, or `other`.

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @ar aiv_only params(inout)
  aclgraph.buffer @x
  aclgraph.stream @s0 {
    "aclgraph.launch"() <{kernel = @ar, blocks = #builtin.int<16>, args = [@x], comm_group = "tp 0", comm_op = #aclgraph<comm_op all_reduce>, seq = #builtin.int<0>}> : () -> ()
  }
}

// CHECK: {{.*}}invalid.mlir:{{[0-9]+}}:5: error: @m/@s0/seq 0: comm group: 'tp 0' is not a C identifier ([A-Za-z_][A-Za-z0-9_]*)

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @ar aiv_only params(inout)
  aclgraph.buffer @x
  aclgraph.stream @s0 {
    "aclgraph.launch"() <{kernel = @ar, blocks = #builtin.int<16>, args = [@x], comm_group = "tp0", seq = #builtin.int<0>}> : () -> ()
  }
}

// CHECK: {{.*}}invalid.mlir:{{[0-9]+}}:5: error: @m/@s0/seq 0: a communication kernel names its group and its op (comm group G op OP [bytes N])

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.stream @s0 {
    aclgraph.stream_active seq 0 @s0
  }
}

// CHECK: {{.*}}invalid.mlir:{{[0-9]+}}:5: error: @m/@s0/seq 0: stream_active activates its own stream @s0; name the stream the capture continues on

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.event @e
  aclgraph.stream @s0 {
    aclgraph.stream_active seq 0 @e
  }
}

// CHECK: {{.*}}invalid.mlir:{{[0-9]+}}:5: error: @m/@s0/seq 0: @e is declared by 'aclgraph.event', not by 'aclgraph.stream'; name a stream

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.stream @s0 {
    aclgraph.stream_active seq 0 @s2
  }
  aclgraph.stream @s1 {
    aclgraph.stream_active seq 1 @s2
  }
  aclgraph.stream @s2 {
  }
}

// CHECK: {{.*}}invalid.mlir:{{[0-9]+}}:5: error: @m/@s1/seq 1: stream @s2 is already activated by @m/@s0/seq 0; a stream is activated once

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.stream @s0 {
    aclgraph.stream_active seq 0 @s1
  }
  aclgraph.stream @s1 {
    aclgraph.stream_active seq 1 @s0
  }
}

// CHECK: {{.*}}invalid.mlir:{{[0-9]+}}:5: error: @m/@s0/seq 0: stream_active closes a happens-before cycle: @m/@s0/seq 0 -> @m/@s1/seq 1 -> @m/@s0/seq 0; the stream it activates must not lead back to it

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.stream @s0 {
    aclgraph.stream_active seq 0
  }
}

// CHECK: {{.*}}invalid.mlir:{{[0-9]+}}:{{[0-9]+}}: error: {{.*}}symbol
// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params(in)
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @a blocks 8 task_group 0
  }
}

// CHECK: {{.*}}invalid.mlir:{{[0-9]+}}:50: error: task_group id must be in [1, 4294967295] (a bare task_group is the anonymous group)

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params(in)
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @a blocks 8 task_group 2 update tiling
  }
}

// CHECK: {{.*}}invalid.mlir:{{[0-9]+}}:59: error: update must be one of args, launch, got 'tiling'

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params(in)
  aclgraph.stream @s0 {
    "aclgraph.launch"() <{kernel = @a, blocks = #builtin.int<8>, update = "args", seq = #builtin.int<0>}> : () -> ()
  }
}

// CHECK: {{.*}}invalid.mlir:{{[0-9]+}}:5: error: @m/@s0/seq 0: 'update args' needs a task group (task_group N update ...)

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.cell @flag
  aclgraph.stream @s0 {
    aclgraph.cond seq 0 while @flag {
      aclgraph.model @a cores(aic = 24, aiv = 48) {
      }
    } {
      aclgraph.model @b cores(aic = 24, aiv = 48) {
      }
    }
  }
}

// CHECK: {{.*}}invalid.mlir:{{[0-9]+}}:5: error: @m/@s0/seq 0: a 'while' condition has exactly one sub-model (its body), got 2

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.cell @flag
  aclgraph.stream @s0 {
    aclgraph.cond seq 0 maybe @flag {
    }
  }
}

// CHECK: {{.*}}invalid.mlir:{{[0-9]+}}:25: error: a condition kind is one of if, while, switch, got 'maybe'

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @k aiv_only params(inout)
  aclgraph.cell @flag
  aclgraph.stream @s0 {
    aclgraph.cond seq 0 if @flag {
      aclgraph.model @a cores(aic = 24, aiv = 48) {
        aclgraph.kernel @k aic_only params(inout)
      }
    }
  }
}

// CHECK: {{.*}}invalid.mlir:{{[0-9]+}}:5: error: @m/@s0/seq 0: sub-model @a: aclgraph.kernel @k is not declared so in @m; a sub-model declares what it uses as its parent does

// -----

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.cell @flag
  aclgraph.stream @s0 {
    aclgraph.cond seq 0 if @flag {
      aclgraph.model @a cores(aic = 20, aiv = 40) {
      }
    }
  }
}

// CHECK: {{.*}}invalid.mlir:{{[0-9]+}}:5: error: @m/@s0/seq 0: sub-model @a has cores(aic = 20, aiv = 40); a sub-model runs on its parent's device
