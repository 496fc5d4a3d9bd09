// RUN: sk-opt %s -p sk-to-ascendc | filecheck %s

// A lane's round (docs/design.md §3 "Lanes"): a flag op guarded to AIVs [8, 24) runs under a
// block guard of the AIV index; an AIC one under the block index; an unguarded one runs bare.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @k aiv_only params(in) sk_system_args
  aclgraph.kernel @c aic_only params(in)
  sk.kernel @m_sk0 mix_aic_1_2 blocks 24 queue slots 3 {
    sk.set_flag mode 0 flag 10 pipe mte3 on aiv blocks 8 at 0
    %1 = sk.subtask @k blocks 16 at 8 offset 1 from @s0 seq 0 on aiv
    sk.set_flag mode 0 flag 10 pipe mte3 on aiv blocks 40 at 8
    sk.wait_flag flag 10 on aiv
    sk.set_flag mode 0 flag 9 pipe fix on aic blocks 4 at 20
    sk.set_flag mode 0 flag 9 pipe fix on aic blocks 20 at 0
    sk.wait_flag flag 9 on aic blocks 24 at 0
    %7 = sk.subtask @c blocks 24 offset 2 from @s1 seq 1 on aic
  }
}

// The AIC's function comes first, then the AIV's.
// CHECK:      ascendc.if_block block 24 from 20 {
// CHECK-NEXT:   ascendc.cross_core_set fix mode 0 flag 9
// CHECK:      ascendc.if_block block 20 {
// CHECK-NEXT:   ascendc.cross_core_set fix mode 0 flag 9
// CHECK:      ascendc.if_block block 24 {
// CHECK-NEXT:   ascendc.cross_core_wait flag 9
// CHECK:      ascendc.if_block logical 8 {
// CHECK-NEXT:   ascendc.cross_core_set mte3 mode 0 flag 10
// CHECK:      ascendc.if_block logical 48 from 8 {
// CHECK-NEXT:   ascendc.cross_core_set mte3 mode 0 flag 10
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.cross_core_wait flag 10
