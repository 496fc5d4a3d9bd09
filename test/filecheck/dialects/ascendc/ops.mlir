// RUN: SKIR_ROUNDTRIP
// RUN: SKIR_GENERIC_ROUNDTRIP

ascendc.source @m_sk0 mix_aic_1_2 {
  ascendc.lock_helpers
  ascendc.declare "a_middle" copies 4
  ascendc.declare "s_middle" copies 2 system_args
  ascendc.core_function "auto_gen_m_sk0_kernel_aiv" aiv {
    ascendc.cross_core_wait flag 15
    ascendc.if_block logical 8 {
      ascendc.call "a_middle" offset 1 copies 4
    }
    ascendc.if_block logical 48 from 40 {
      ascendc.call_system_args "s_middle" offset 2 copies 2 logical from 40 count 8
    }
  }
  ascendc.entry "auto_gen_m_sk0_kernel" align 512 {
    ascendc.ffts_base
    ascendc.if_core aiv {
      ascendc.invoke "auto_gen_m_sk0_kernel_aiv"
    }
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
    ascendc.feed_workspace slot 9
    ascendc.if_core aiv {
      ascendc.zero_workspace bytes 16384
      ascendc.preload_all 8
      ascendc.if_block logical 8 {
        ascendc.preload "a_middle" units 3 copies 4
      }
      ascendc.set_next_task_start
      ascendc.early_start_config 5
      ascendc.if_idle logical 8 {
        ascendc.wait_pre_task_end 5
      }
      ascendc.feed_begin index 0 offset 64
      ascendc.if_block logical 4 {
        ascendc.call "a_middle" offset 3 copies 4
        ascendc.feed_end
      }
      ascendc.if_idle logical 4 {
        ascendc.feed_complement
      }
      ascendc.feed_off
      ascendc.pipe_barrier
      ascendc.dcci_all
      ascendc.notify_lock slot 5
      ascendc.wait_lock slot 6
      ascendc.reset_lock slot 6
      ascendc.guarded_call "a_middle" offset 7 copies 4 logical 48
      ascendc.flag_barrier mte3 mode 0 flag 14
    }
    ascendc.guarded_call "a_middle" offset 8 copies 1 on aic block 24 note "begin func call of sub operator a (seq 3)"
    ascendc.flag_barrier fix mode 2 flag 11 on aic note "a \22quoted\22 note" attributes {tag = 1 : i64}
  }
}

// CHECK:      ascendc.source @m_sk0 mix_aic_1_2 {
// CHECK-NEXT:   ascendc.lock_helpers
// CHECK-NEXT:   ascendc.declare "a_middle" copies 4
// CHECK-NEXT:   ascendc.declare "s_middle" copies 2 system_args
// CHECK-NEXT:   ascendc.core_function "auto_gen_m_sk0_kernel_aiv" aiv {
// CHECK-NEXT:     ascendc.cross_core_wait flag 15
// CHECK-NEXT:     ascendc.if_block logical 8 {
// CHECK-NEXT:       ascendc.call "a_middle" offset 1 copies 4
// CHECK-NEXT:     }
// CHECK-NEXT:     ascendc.if_block logical 48 from 40 {
// CHECK-NEXT:       ascendc.call_system_args "s_middle" offset 2 copies 2 logical from 40 count 8
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   ascendc.entry "auto_gen_m_sk0_kernel" align 512 {
// CHECK-NEXT:     ascendc.ffts_base
// CHECK-NEXT:     ascendc.if_core aiv {
// CHECK-NEXT:       ascendc.invoke "auto_gen_m_sk0_kernel_aiv"
// CHECK-NEXT:     }
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
// CHECK-NEXT:     ascendc.feed_workspace slot 9
// CHECK-NEXT:     ascendc.if_core aiv {
// CHECK-NEXT:       ascendc.zero_workspace bytes 16384
// CHECK-NEXT:       ascendc.preload_all 8
// CHECK-NEXT:       ascendc.if_block logical 8 {
// CHECK-NEXT:         ascendc.preload "a_middle" units 3 copies 4
// CHECK-NEXT:       }
// CHECK-NEXT:       ascendc.set_next_task_start
// CHECK-NEXT:       ascendc.early_start_config 5
// CHECK-NEXT:       ascendc.if_idle logical 8 {
// CHECK-NEXT:         ascendc.wait_pre_task_end 5
// CHECK-NEXT:       }
// CHECK-NEXT:       ascendc.feed_begin index 0 offset 64
// CHECK-NEXT:       ascendc.if_block logical 4 {
// CHECK-NEXT:         ascendc.call "a_middle" offset 3 copies 4
// CHECK-NEXT:         ascendc.feed_end
// CHECK-NEXT:       }
// CHECK-NEXT:       ascendc.if_idle logical 4 {
// CHECK-NEXT:         ascendc.feed_complement
// CHECK-NEXT:       }
// CHECK-NEXT:       ascendc.feed_off
// CHECK-NEXT:       ascendc.pipe_barrier
// CHECK-NEXT:       ascendc.dcci_all
// CHECK-NEXT:       ascendc.notify_lock slot 5
// CHECK-NEXT:       ascendc.wait_lock slot 6
// CHECK-NEXT:       ascendc.reset_lock slot 6
// CHECK-NEXT:       ascendc.guarded_call "a_middle" offset 7 copies 4 logical 48{{$}}
// CHECK-NEXT:       ascendc.flag_barrier mte3 mode 0 flag 14{{$}}
// CHECK-NEXT:     }
// CHECK-NEXT:     ascendc.guarded_call "a_middle" offset 8 copies 1 on aic block 24 note "begin func call of sub operator a (seq 3)"
// CHECK-NEXT:     ascendc.flag_barrier fix mode 2 flag 11 on aic note "a \22quoted\22 note" attributes {tag = 1 : i64}
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// debug-progress=1 and debug-wait-timeout-cycles (docs/design.md §6)
ascendc.source @p_sk0 mix_aiv_1_0 {
  ascendc.lock_helpers
  ascendc.progress_helpers aiv_lines 48
  ascendc.entry "auto_gen_p_sk0_kernel" align 512 {
    ascendc.if_core aiv {
      ascendc.progress slot 9 word 0x5c0000ffff080000
      ascendc.wait_lock_bounded slot 4 progress 9 word 0x5c00000003070000 cycles 100000
    }
  }
}

// CHECK:      ascendc.source @p_sk0 mix_aiv_1_0 {
// CHECK-NEXT:   ascendc.lock_helpers
// CHECK-NEXT:   ascendc.progress_helpers aiv_lines 48
// CHECK-NEXT:   ascendc.entry "auto_gen_p_sk0_kernel" align 512 {
// CHECK-NEXT:     ascendc.if_core aiv {
// CHECK-NEXT:       ascendc.progress slot 9 word 0x5c0000ffff080000
// CHECK-NEXT:       ascendc.wait_lock_bounded slot 4 progress 9 word 0x5c00000003070000 cycles 100000
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }
