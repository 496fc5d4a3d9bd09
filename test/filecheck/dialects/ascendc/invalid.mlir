// RUN: SKIR_DIAGNOSTICS

ascendc.source @s mix_aiv_1_0 {
  ascendc.lock_helpers
}

// CHECK: {{.*}}invalid.mlir:3:1: error: ascendc.source @s has no ascendc.entry

// -----

ascendc.source @s mix_aiv_1_0 {
  ascendc.entry "e" align 512 {
    ascendc.call "f" offset 1 copies 65
  }
}

// CHECK: {{.*}}invalid.mlir:13:5: error: call of f: copies must be in [1, 64]

// -----

ascendc.source @s mix_aiv_1_0 {
  ascendc.entry "e" align 512 {
    ascendc.cross_core_set mte3 mode 3 flag 1
  }
}

// CHECK: {{.*}}invalid.mlir:23:5: error: cross-core set mode must be 0, 1 or 2, got 3

// -----

ascendc.source @s mix_aiv_1_0 {
  ascendc.entry "e" align 512 {
    ascendc.cross_core_wait flag 16
  }
}

// CHECK: {{.*}}invalid.mlir:33:5: error: cross-core flag id must be in [0, 15], got 16

// -----

ascendc.source @s mix_aiv_1_0 {
  ascendc.entry "e" align 512 {
    ascendc.cross_core_set all mode 0 flag 1
  }
}

// CHECK: {{.*}}invalid.mlir:43:28: error: Expected `v`, `m`, `mte1`, `mte2`, `mte3`, or `fix`.

// -----

ascendc.source @s mix_aiv_1_0 {
  ascendc.call "f" offset 1 copies 1
}

// CHECK: error: 'ascendc.call' expects parent op to be one of 'ascendc.entry', 'ascendc.core_function', 'ascendc.if_core', 'ascendc.if_block', 'ascendc.if_idle'

// -----

ascendc.entry "e" align 512 {
  ascendc.sync_all
}

// CHECK: error: 'ascendc.entry' expects parent op 'ascendc.source'

// -----

ascendc.source @s mix_aiv_1_0 {
  ascendc.entry "e" align 512 {
    ascendc.preload "f" units 17 copies 4
  }
}

// CHECK: {{.*}}invalid.mlir:69:5: error: preload of f: units must be in [1, 16]

// -----

ascendc.source @s mix_aiv_1_0 {
  ascendc.lock_helpers
  ascendc.feed_end
  ascendc.entry "e" align 512 {
  }
}

// CHECK: error: 'ascendc.feed_end' expects parent op to be one of 'ascendc.entry', 'ascendc.core_function', 'ascendc.if_core', 'ascendc.if_block', 'ascendc.if_idle'

// -----

ascendc.source @s mix_aiv_1_0 {
  ascendc.entry "e" align 512 {
    ascendc.guarded_call "a b" offset 1 copies 1 on aiv logical 8
  }
}

// CHECK: {{.*}}invalid.mlir:90:5: error: ascendc.guarded_call 'a b': 'a b' is not a C identifier ([A-Za-z_][A-Za-z0-9_]*)

// -----

ascendc.source @s mix_aiv_1_0 {
  ascendc.entry "e" align 512 {
    ascendc.guarded_call "f" offset 1 copies 65 logical 8
  }
}

// CHECK: {{.*}}invalid.mlir:100:46: error: copies must be in [1, 64], got 65

// -----

ascendc.source @s mix_aiv_1_0 {
  ascendc.entry "e" align 512 {
    ascendc.guarded_call "f" offset 1 copies 1 on aiv logical 8 note "two\0Alines"
  }
}

// CHECK: {{.*}}invalid.mlir:110:5: error: ascendc.guarded_call note 'two\x0alines': a comment is one printable line

// -----

ascendc.source @s mix_aiv_1_0 {
  ascendc.entry "e" align 512 {
    ascendc.flag_barrier fix mode 0 flag 16 on aic
  }
}

// CHECK: {{.*}}invalid.mlir:120:42: error: the cross-core flag id must be in [0, 15], got 16

// -----

ascendc.source @s mix_aiv_1_0 {
  ascendc.entry "e" align 512 {
    ascendc.flag_barrier fix mode 0 flag 1 on vector
  }
}

// CHECK: {{.*}}invalid.mlir:130:47: error: Expected `aic`, or `aiv`.

// -----

ascendc.source @s mix_aiv_1_0 {
  ascendc.flag_barrier fix mode 0 flag 1
  ascendc.entry "e" align 512 {
  }
}

// CHECK: error: 'ascendc.flag_barrier' expects parent op to be one of 'ascendc.entry', 'ascendc.core_function', 'ascendc.if_core', 'ascendc.if_block', 'ascendc.if_idle'

// -----

ascendc.source @s mix_aiv_1_0 {
  ascendc.entry "e" align 512 {
    ascendc.progress slot 9 word 0x5c00000000010003
  }
}

// CHECK: {{.*}}invalid.mlir:150:5: error: ascendc.progress: word 0x5c00000000010003 is not a progress word (magic 0x5c in the top byte, the low 16 bits free for the line index)

// -----

ascendc.source @s mix_aiv_1_0 {
  ascendc.entry "e" align 512 {
    ascendc.wait_lock_bounded slot 4 progress 9 word 0x5c00000003070000 cycles 0
  }
}

// CHECK: {{.*}}invalid.mlir:160:5: error: ascendc.wait_lock_bounded: cycles must be 1 or more
