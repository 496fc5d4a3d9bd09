// skir's dialects and passes are visible to plain xdsl-opt through the xdsl.universe entry point.
// RUN: xdsl-opt %s -p superkernel-pipeline | filecheck %s
// RUN: xdsl-opt %s -p superkernel-pipeline -t ascendc | filecheck %s --check-prefix=CXX
// The universe also gives xdsl-opt skir's reader of .json models (capture JSON, the vendor's dumps).
// RUN: xdsl-opt %S/../../../examples/decode_layer.json -p superkernel-pipeline -t sk-meta | filecheck %s --check-prefix=JSON
// JSON: "format": "skir.sk_meta"
// JSON: "model": "decode_layer"

aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params 0
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @a blocks 8
    aclgraph.launch seq 1 @a blocks 8
  }
}

// CHECK: aclgraph.launch_sk seq 0 @m_sk0
// CHECK: sk.kernel @m_sk0 mix_aiv_1_0 blocks 8 chain slots 1 {
// CXX: void auto_gen_m_sk0_kernel(void)
