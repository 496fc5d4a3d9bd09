// A single-stream chain of small kernels: norm -> matmul -> bias add -> activation,
// then a host copy and two more vector kernels. `sk-compile examples/chain.mlir -o out`
// fuses each run of consecutive kernels into one SuperKernel.
aclgraph.model @chain cores(aic = 24, aiv = 48) soc "Ascend910B3" {
  aclgraph.kernel @rms_norm aiv_only params(in, in, out) code_bytes 6144
  aclgraph.kernel @matmul mix_aic_1_2 params(in, in, out) batch code_bytes 16384
  aclgraph.kernel @bias_add aiv_only params(inout, in) code_bytes 2048
  aclgraph.kernel @gelu aiv_only params(in, out) code_bytes 4096
  aclgraph.kernel @scale aiv_only params(inout) code_bytes 2048
  aclgraph.buffer @x bytes 65536
  aclgraph.buffer @gamma bytes 8192
  aclgraph.buffer @xn bytes 65536
  aclgraph.buffer @w bytes 8388608
  aclgraph.buffer @b bytes 16384
  aclgraph.buffer @h bytes 262144
  aclgraph.buffer @y bytes 262144
  aclgraph.stream @s0 slots 7 {
    aclgraph.launch seq 0 @rms_norm blocks 48 args(@x, @gamma, @xn) duration 3.2
    aclgraph.launch seq 1 @matmul blocks 24 args(@xn, @w, @h) duration 11.8
    aclgraph.launch seq 2 @bias_add blocks 40 args(@h, @b) duration 1.9
    aclgraph.launch seq 3 @gelu blocks 40 args(@h, @y) duration 2.4
    aclgraph.opaque seq 4 memcpy
    aclgraph.launch seq 5 @scale blocks 8 args(@y) duration 1.1
    aclgraph.launch seq 6 @scale blocks 8 args(@y) duration 1.1
  }
}
