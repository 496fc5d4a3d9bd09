// RUN: sk-opt %s -p 'sk-form-scopes,sk-outline,sk-lower-sync,sk-to-ascendc{options="split-mode=2:func-align=256"}' | filecheck %s

// Each chain SuperKernel becomes one ascendc.source: lock helpers, one declaration per
// sub-kernel symbol, then the entry in program order: guarded calls per core type
// (aiv class: logical AIV index; aic and mix: AI-core index) and barrier intrinsics.
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
// CHECK-NEXT:     ascendc.comment "begin func call of sub operator norm (seq 0)"
// CHECK-NEXT:     ascendc.if_core aiv {
// CHECK-NEXT:       ascendc.if_block logical 48 {
// CHECK-NEXT:         ascendc.call "norm_middle" offset 1 copies 2
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     ascendc.comment "begin inter ops barrier"
// CHECK-NEXT:     ascendc.if_core aiv {
// CHECK-NEXT:       ascendc.cross_core_set mte3 mode 0 flag 14
// CHECK-NEXT:       ascendc.cross_core_wait flag 14
// CHECK-NEXT:     }
// CHECK-NEXT:     ascendc.comment "begin func call of sub operator norm (seq 1)"
// CHECK-NEXT:     ascendc.if_core aiv {
// CHECK-NEXT:       ascendc.if_block logical 8 {
// CHECK-NEXT:         ascendc.call "norm_middle" offset 3 copies 2
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     ascendc.comment "begin inter ops barrier"
// CHECK-NEXT:     ascendc.sync_all
// CHECK-NEXT:     ascendc.comment "begin func call of sub operator mm (seq 2)"
// CHECK-NEXT:     ascendc.if_core aic {
// CHECK-NEXT:       ascendc.if_block block 20 {
// CHECK-NEXT:         ascendc.call "mm_sk" offset 5 copies 2
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     ascendc.if_core aiv {
// CHECK-NEXT:       ascendc.if_block block 20 {
// CHECK-NEXT:         ascendc.call "mm_sk" offset 5 copies 2
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     ascendc.comment "begin inter ops barrier"
// CHECK-NEXT:     ascendc.sync_all
// CHECK-NEXT:     ascendc.comment "begin func call of sub operator proj (seq 3)"
// CHECK-NEXT:     ascendc.if_core aic {
// CHECK-NEXT:       ascendc.if_block block 24 {
// CHECK-NEXT:         ascendc.call "proj_middle" offset 8 copies 2
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     ascendc.comment "begin inter ops barrier"
// CHECK-NEXT:     ascendc.if_core aic {
// CHECK-NEXT:       ascendc.cross_core_set fix mode 0 flag 11
// CHECK-NEXT:       ascendc.cross_core_wait flag 11
// CHECK-NEXT:     }
// CHECK-NEXT:     ascendc.comment "begin func call of sub operator proj (seq 4)"
// CHECK:        }
// CHECK-NEXT: }
