// RUN: SKIR_ROUNDTRIP
// RUN: SKIR_GENERIC_ROUNDTRIP

ascendc.source @m_sk0 mix_aic_1_2 {
  ascendc.lock_helpers
  ascendc.declare "a_middle" copies 4
  ascendc.entry "auto_gen_m_sk0_kernel" align 512 {
    ascendc.ffts_base
    ascendc.comment "begin func call of sub operator a (seq 0)"
    ascendc.if_core aiv {
      ascendc.if_block logical 48 {
        ascendc.call "a_middle" offset 1 copies 4
      }
    }
    ascendc.if_core aic {
      ascendc.if_block block 24 {
        ascendc.call "a_middle" offset 1 copies 1
      }
      ascendc.cross_core_set fix mode 0 flag 11
      ascendc.cross_core_wait flag 11
    }
    ascendc.sync_all
  }
}

// CHECK:      ascendc.source @m_sk0 mix_aic_1_2 {
// CHECK-NEXT:   ascendc.lock_helpers
// CHECK-NEXT:   ascendc.declare "a_middle" copies 4
// CHECK-NEXT:   ascendc.entry "auto_gen_m_sk0_kernel" align 512 {
// CHECK-NEXT:     ascendc.ffts_base
// CHECK-NEXT:     ascendc.comment "begin func call of sub operator a (seq 0)"
// CHECK-NEXT:     ascendc.if_core aiv {
// CHECK-NEXT:       ascendc.if_block logical 48 {
// CHECK-NEXT:         ascendc.call "a_middle" offset 1 copies 4
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     ascendc.if_core aic {
// CHECK-NEXT:       ascendc.if_block block 24 {
// CHECK-NEXT:         ascendc.call "a_middle" offset 1 copies 1
// CHECK-NEXT:       }
// CHECK-NEXT:       ascendc.cross_core_set fix mode 0 flag 11
// CHECK-NEXT:       ascendc.cross_core_wait flag 11
// CHECK-NEXT:     }
// CHECK-NEXT:     ascendc.sync_all
// CHECK-NEXT:   }
// CHECK-NEXT: }
