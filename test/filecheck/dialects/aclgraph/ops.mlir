// RUN: SKIR_ROUNDTRIP
// RUN: SKIR_GENERIC_ROUNDTRIP
// RUN: sk-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// Every declaration clause and every task kind, in custom syntax.
aclgraph.model @all cores(aic = 24, aiv = 48) soc "Ascend910_9391" {
  aclgraph.kernel @norm aiv_only params(in, in, out, workspace) code_bytes 6144
  aclgraph.kernel @qkv mix_aic_1_2 params(in, inout, out, tiling) batch
  aclgraph.kernel @flags aic_only params 2 not_sk_capable early_start(set, wait) dcci(before, after, disable) sk_symbol "flags_sk" split_copies 4 sync_flags [3, 7]
  aclgraph.kernel @v10 mix_aiv_1_0 params()
  aclgraph.kernel @c10 mix_aic_1_0 params(out)
  aclgraph.kernel @c11 mix_aic_1_1 params(in) sk_system_args
  aclgraph.buffer @x bytes 65536
  aclgraph.buffer @w
  aclgraph.buffer @y
  aclgraph.buffer @ws
  aclgraph.event @e0
  aclgraph.event @ext
  aclgraph.cell @c0
  aclgraph.stream @s0 slots 9 {
    aclgraph.scope_begin seq 0 "layer0" options "early-start=0:split-mode=2"
    aclgraph.placeholder seq 1
    aclgraph.launch seq 2 @norm blocks 48 args(@x, @w, @y, @ws) duration 3.5
    aclgraph.record seq 3 @e0
    aclgraph.value_write seq 6 @c0 value 18446744073709551615
    aclgraph.opaque seq 7 notify_record "n0"
    aclgraph.scope_end seq 9 "layer0"
    aclgraph.scope_begin seq 10 none
    aclgraph.scope_end seq 11 none
  }
  aclgraph.stream @s1 slots 9 {
    aclgraph.wait seq 4 @e0
    aclgraph.launch seq 5 @qkv blocks 24 args(@y, @w, @x, @ws) task_group 7 update launch attributes {sk.fail = "dynamic_task"}
    aclgraph.value_wait seq 8 @c0 geq 1
    aclgraph.opaque seq 12 notify_wait "n0"
    aclgraph.opaque seq 13 memcpy
    aclgraph.wait seq 14 @ext external
    aclgraph.launch seq 15 @flags blocks 2
    aclgraph.reset seq 16 @e0
    aclgraph.launch seq 17 @v10 blocks 1
  }
}

// CHECK-LABEL: aclgraph.model @all cores(aic = 24, aiv = 48) soc "Ascend910_9391" {
// CHECK-NEXT:    aclgraph.kernel @norm aiv_only params(in, in, out, workspace) code_bytes 6144
// CHECK-NEXT:    aclgraph.kernel @qkv mix_aic_1_2 params(in, inout, out, tiling) batch
// CHECK-NEXT:    aclgraph.kernel @flags aic_only params 2 not_sk_capable early_start(set, wait) dcci(before, after, disable) sk_symbol "flags_sk" split_copies 4 sync_flags [3, 7]
// CHECK-NEXT:    aclgraph.kernel @v10 mix_aiv_1_0 params()
// CHECK-NEXT:    aclgraph.kernel @c10 mix_aic_1_0 params(out)
// CHECK-NEXT:    aclgraph.kernel @c11 mix_aic_1_1 params(in) sk_system_args
// CHECK-NEXT:    aclgraph.buffer @x bytes 65536
// CHECK-NEXT:    aclgraph.buffer @w
// CHECK-NEXT:    aclgraph.buffer @y
// CHECK-NEXT:    aclgraph.buffer @ws
// CHECK-NEXT:    aclgraph.event @e0
// CHECK-NEXT:    aclgraph.event @ext
// CHECK-NEXT:    aclgraph.cell @c0
// CHECK-NEXT:    aclgraph.stream @s0 slots 9 {
// CHECK-NEXT:      aclgraph.scope_begin seq 0 "layer0" options "early-start=0:split-mode=2"
// CHECK-NEXT:      aclgraph.placeholder seq 1
// CHECK-NEXT:      aclgraph.launch seq 2 @norm blocks 48 args(@x, @w, @y, @ws) duration 3.5
// CHECK-NEXT:      aclgraph.record seq 3 @e0
// CHECK-NEXT:      aclgraph.value_write seq 6 @c0 value 18446744073709551615
// CHECK-NEXT:      aclgraph.opaque seq 7 notify_record "n0"
// CHECK-NEXT:      aclgraph.scope_end seq 9 "layer0"
// CHECK-NEXT:      aclgraph.scope_begin seq 10 none
// CHECK-NEXT:      aclgraph.scope_end seq 11 none
// CHECK-NEXT:    }
// CHECK-NEXT:    aclgraph.stream @s1 slots 9 {
// CHECK-NEXT:      aclgraph.wait seq 4 @e0
// CHECK-NEXT:      aclgraph.launch seq 5 @qkv blocks 24 args(@y, @w, @x, @ws) task_group 7 update launch attributes {sk.fail = "dynamic_task"}
// CHECK-NEXT:      aclgraph.value_wait seq 8 @c0 geq 1
// CHECK-NEXT:      aclgraph.opaque seq 12 notify_wait "n0"
// CHECK-NEXT:      aclgraph.opaque seq 13 memcpy
// CHECK-NEXT:      aclgraph.wait seq 14 @ext external
// CHECK-NEXT:      aclgraph.launch seq 15 @flags blocks 2
// CHECK-NEXT:      aclgraph.reset seq 16 @e0
// CHECK-NEXT:      aclgraph.launch seq 17 @v10 blocks 1
// CHECK-NEXT:    }
// CHECK-NEXT:  }

// GENERIC:      "aclgraph.model"() <{sym_name = "all", aic_cores = #builtin.int<24>, aiv_cores = #builtin.int<48>, soc = "Ascend910_9391"}> ({
// GENERIC-NEXT:   "aclgraph.kernel"() <{sym_name = "norm", kernel_type = #aclgraph<kernel_type aiv_only>, params = [#aclgraph<param_role in>, #aclgraph<param_role in>, #aclgraph<param_role out>, #aclgraph<param_role workspace>], code_bytes = #builtin.int<6144>}> : () -> ()
// GENERIC:        "aclgraph.launch"() <{kernel = @norm, blocks = #builtin.int<48>, args = [@x, @w, @y, @ws], duration = #builtin.float_data<3.5>, seq = #builtin.int<2>}> : () -> ()
// GENERIC:        "aclgraph.value_wait"() <{cell = @c0, rule = #aclgraph<wait_rule geq>, value = #builtin.int<1>, seq = #builtin.int<8>}> : () -> ()

// -----

// Rewritten slots: a SuperKernel launch and disabled tasks keeping the original.
aclgraph.model @rewritten cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params(in)
  aclgraph.buffer @x
  aclgraph.event @e
  aclgraph.cell @c
  aclgraph.stream @s0 slots 6 {
    aclgraph.launch_sk seq 0 @rewritten_sk0 was launch @a blocks 48 args(@x)
    aclgraph.disabled seq 1 was launch @a blocks 8 args(@x) duration 1.0 task_group 4 update args
    aclgraph.disabled seq 2 was record @e external
    aclgraph.disabled seq 3 was opaque memset
    aclgraph.value_write seq 4 @c value 1 was record @e
    aclgraph.value_wait seq 5 @c eq 1 was wait @e external task_group
  }
  sk.kernel @rewritten_sk0 mix_aiv_1_0 blocks 48 chain slots 2 {
    %0 = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
  }
}

// CHECK-LABEL: aclgraph.model @rewritten cores(aic = 24, aiv = 48) {
// CHECK:         aclgraph.stream @s0 slots 6 {
// CHECK-NEXT:      aclgraph.launch_sk seq 0 @rewritten_sk0 was launch @a blocks 48 args(@x)
// CHECK-NEXT:      aclgraph.disabled seq 1 was launch @a blocks 8 args(@x) duration 1.0 task_group 4 update args
// CHECK-NEXT:      aclgraph.disabled seq 2 was record @e external
// CHECK-NEXT:      aclgraph.disabled seq 3 was opaque memset
// CHECK-NEXT:      aclgraph.value_write seq 4 @c value 1 was record @e
// CHECK-NEXT:      aclgraph.value_wait seq 5 @c eq 1 was wait @e external task_group
// CHECK-NEXT:    }
// CHECK-NEXT:    sk.kernel @rewritten_sk0 mix_aiv_1_0 blocks 48 chain slots 2 {

// GENERIC-LABEL: "aclgraph.model"() <{sym_name = "rewritten"
// GENERIC:       "aclgraph.disabled"() <{was_kind = "launch", was = {kernel = @a, blocks = #builtin.int<8>, args = [@x], duration = #builtin.float_data<1.0>, task_group = #builtin.int<4>, update = "args"}, seq = #builtin.int<1>}> : () -> ()

// -----

// Communication kernels: `comm group G op OP [bytes N]`, kept in a disabled slot's `was`.
aclgraph.model @comm cores(aic = 24, aiv = 48) {
  aclgraph.kernel @ar aiv_only params(inout)
  aclgraph.buffer @x
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @ar blocks 16 args(@x) comm group tp0 op all_reduce bytes 8192
    aclgraph.launch seq 1 @ar blocks 16 args(@x) duration 2.0 comm group ep op dispatch
    aclgraph.disabled seq 2 was launch @ar blocks 16 args(@x) comm group tp0 op reduce_scatter
  }
}

// CHECK-LABEL: aclgraph.model @comm cores(aic = 24, aiv = 48) {
// CHECK:         aclgraph.launch seq 0 @ar blocks 16 args(@x) comm group tp0 op all_reduce bytes 8192
// CHECK-NEXT:    aclgraph.launch seq 1 @ar blocks 16 args(@x) duration 2.0 comm group ep op dispatch
// CHECK-NEXT:    aclgraph.disabled seq 2 was launch @ar blocks 16 args(@x) comm group tp0 op reduce_scatter

// GENERIC-LABEL: "aclgraph.model"() <{sym_name = "comm"
// GENERIC:       "aclgraph.launch"() <{kernel = @ar, blocks = #builtin.int<16>, args = [@x], comm_group = "tp0", comm_op = #aclgraph<comm_op all_reduce>, comm_bytes = #builtin.int<8192>, seq = #builtin.int<0>}> : () -> ()

// -----

// Cascade capture streams: `stream_active` activates the stream the capture continues on.
aclgraph.model @cascade cores(aic = 24, aiv = 48) {
  aclgraph.kernel @k aiv_only params(inout)
  aclgraph.buffer @x
  aclgraph.stream @s0 slots 2 {
    aclgraph.launch seq 0 @k blocks 8 args(@x)
    aclgraph.stream_active seq 1 @s1 task_group
  }
  aclgraph.stream @s1 slots 1 {
    aclgraph.launch seq 2 @k blocks 8 args(@x)
  }
}

// CHECK-LABEL: aclgraph.model @cascade cores(aic = 24, aiv = 48) {
// CHECK:         aclgraph.stream_active seq 1 @s1 task_group
// CHECK-NEXT:  }

// GENERIC-LABEL: "aclgraph.model"() <{sym_name = "cascade"
// GENERIC:       "aclgraph.stream_active"() <{stream = @s1, seq = #builtin.int<1>, task_group = #builtin.int<0>}> : () -> ()

// -----

// A condition task runs the sub-model its cell picks: one region per branch, each holding the
// sub-model, which declares what it uses as the parent does.
aclgraph.model @cond cores(aic = 24, aiv = 48) {
  aclgraph.kernel @k aiv_only params(inout)
  aclgraph.buffer @x
  aclgraph.cell @flag
  aclgraph.stream @s0 slots 2 {
    aclgraph.launch seq 0 @k blocks 8 args(@x)
    aclgraph.cond seq 1 switch @flag {
      aclgraph.model @case0 cores(aic = 24, aiv = 48) {
        aclgraph.kernel @k aiv_only params(inout)
        aclgraph.buffer @x
        aclgraph.stream @s1 slots 1 {
          aclgraph.launch seq 2 @k blocks 8 args(@x)
        }
      }
    } {
      aclgraph.model @case1 cores(aic = 24, aiv = 48) {
        aclgraph.stream @s2 slots 0 {
        }
      }
    }
  }
}

// CHECK-LABEL: aclgraph.model @cond cores(aic = 24, aiv = 48) {
// CHECK:         aclgraph.cond seq 1 switch @flag {
// CHECK-NEXT:      aclgraph.model @case0 cores(aic = 24, aiv = 48) {
// CHECK:           aclgraph.launch seq 2 @k blocks 8 args(@x)
// CHECK:         } {
// CHECK-NEXT:      aclgraph.model @case1 cores(aic = 24, aiv = 48) {

// GENERIC-LABEL: "aclgraph.model"() <{sym_name = "cond"
// GENERIC:       "aclgraph.cond"() <{kind = "switch", cell = @flag, seq = #builtin.int<1>}> ({
