// RUN: sk-opt %s -p 'sk-form-scopes,sk-outline' | filecheck %s --check-prefix=NATURAL
// RUN: sk-opt %s -p 'sk-form-scopes{options="debug-aic-num=20:debug-aiv-num=40"},sk-outline{options="debug-aic-num=20:debug-aiv-num=40"}' | filecheck %s --check-prefix=FITS
// RUN: sk-opt %s -p 'sk-form-scopes{options="debug-aic-num=24:debug-aiv-num=48"}' | filecheck %s --check-prefix=MISMATCH
// RUN: sk-opt %s -p 'superkernel-pipeline{options="debug-aic-num=20:debug-aiv-num=40"},sk-check' > /dev/null

// The launch-shape rule is re-checked after debug-aic-num / debug-aiv-num (docs/design.md §3): the
// forced shape must still give the batch kernel @vb exactly its 40 vector cores.
aclgraph.model @forced cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.kernel @vb aiv_only params 0 batch
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @vb blocks 40
    aclgraph.launch seq 1 @v blocks 8
  }
}

// NATURAL:  sk.kernel @forced_sk0 mix_aiv_1_0 blocks 40 chain
// A 1:2 SuperKernel of 20 blocks has 40 vector cores: valid.
// FITS:     sk.kernel @forced_sk0 mix_aic_1_2 blocks 20 chain
// 24:48 gives 48 vector cores: no shape, nothing fuses.
// MISMATCH: aclgraph.launch seq 0 @vb blocks 40 attributes {sk.fail = "syncall_block_mismatch", sk.fail_detail = "exact aiv 40, candidate mix_aic_1_2 blocks 24 gives 48 (debug-aic-num / debug-aiv-num)"}
// MISMATCH: aclgraph.launch seq 1 @v blocks 8 attributes {sk.fail = "single_task"}
