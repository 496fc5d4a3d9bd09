// RUN: sk-opt %s -p 'sk-form-scopes,sk-outline,sk-place-sync,sk-lower-sync,sk-to-ascendc{options="split-mode=2:func-align=256"}' | filecheck %s

// Each chain SuperKernel becomes one ascendc.source: lock helpers, one declaration per
// sub-kernel symbol, then the entry in program order: a guarded call per core type
// (aiv class: logical AIV index; aic and mix: AI-core index), the comment on the first,
// and barriers (a flag barrier under its core type's guard, SyncAll unguarded).
// The sk.kernel stays for sk-check.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.kernel @mm mix_aic_1_2 params(in, in, out) sk_symbol "mm_sk"
  aclgraph.kernel @proj aic_only params(in, out)
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @norm blocks 48
    aclgraph.launch seq 1 @norm blocks 8
    aclgraph.launch seq 2 @mm blocks 20
    aclgraph.launch seq 3 @proj blocks 24
    aclgraph.launch seq 4 @proj blocks 2
  }
}

// CHECK:      sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 12 {
// CHECK:      ascendc.source @m_sk0 mix_aic_1_2 {
// CHECK-NEXT:   ascendc.lock_helpers
// CHECK-NEXT:   ascendc.declare "norm_middle" copies 2
// CHECK-NEXT:   ascendc.declare "mm_sk" copies 2
// CHECK-NEXT:   ascendc.declare "proj_middle" copies 2
// CHECK-NEXT:   ascendc.entry "auto_gen_m_sk0_kernel" align 256 {
// CHECK-NEXT:     ascendc.ffts_base
// CHECK-NEXT:     ascendc.guarded_call "norm_middle" offset 1 copies 2 on aiv logical 48 note "begin func call of sub operator norm (seq 0)"
// CHECK-NEXT:     ascendc.flag_barrier mte3 mode 0 flag 14 on aiv note "begin inter ops barrier"
// CHECK-NEXT:     ascendc.guarded_call "norm_middle" offset 3 copies 2 on aiv logical 8 note "begin func call of sub operator norm (seq 1)"
// CHECK-NEXT:     ascendc.comment "begin inter ops barrier"
// CHECK-NEXT:     ascendc.sync_all
// CHECK-NEXT:     ascendc.guarded_call "mm_sk" offset 5 copies 2 on aic block 20 note "begin func call of sub operator mm (seq 2)"
// CHECK-NEXT:     ascendc.guarded_call "mm_sk" offset 5 copies 2 on aiv block 20{{$}}
// CHECK-NEXT:     ascendc.comment "begin inter ops barrier"
// CHECK-NEXT:     ascendc.sync_all
// CHECK-NEXT:     ascendc.guarded_call "proj_middle" offset 8 copies 2 on aic block 24 note "begin func call of sub operator proj (seq 3)"
// CHECK-NEXT:     ascendc.flag_barrier fix mode 0 flag 11 on aic note "begin inter ops barrier"
// CHECK-NEXT:     ascendc.guarded_call "proj_middle" offset 10 copies 2 on aic block 2 note "begin func call of sub operator proj (seq 4)"
// CHECK:        }
// CHECK-NEXT: }
