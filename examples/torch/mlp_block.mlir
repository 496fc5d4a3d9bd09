builtin.module {
  aclgraph.model @mlp_block cores(aic = 24, aiv = 48) {
    aclgraph.kernel @layer_norm aiv_only params(in, in, in, out)
    aclgraph.kernel @linear mix_aic_1_2 params(in, in, in, out)
    aclgraph.kernel @gelu aiv_only params(in, out)
    aclgraph.kernel @add aiv_only params(in, in, out)
    aclgraph.buffer @input.x bytes 65536
    aclgraph.buffer @param.norm.weight bytes 2048
    aclgraph.buffer @param.norm.bias bytes 2048
    aclgraph.buffer @layer_norm.out bytes 65536
    aclgraph.buffer @param.up.weight bytes 8388608
    aclgraph.buffer @param.up.bias bytes 8192
    aclgraph.buffer @linear.out bytes 262144
    aclgraph.buffer @gelu.out bytes 262144
    aclgraph.buffer @param.down.weight bytes 8388608
    aclgraph.buffer @param.down.bias bytes 2048
    aclgraph.buffer @linear_1.out bytes 65536
    aclgraph.buffer @add.out bytes 65536
    aclgraph.stream @s0 slots 11 {
      aclgraph.scope_begin seq 0 "mlp"
      aclgraph.placeholder seq 1
      aclgraph.placeholder seq 2
      aclgraph.launch seq 3 @layer_norm blocks 32 args(@input.x, @param.norm.weight, @param.norm.bias, @layer_norm.out) duration 1.08
      aclgraph.launch seq 4 @linear blocks 24 args(@layer_norm.out, @param.up.weight, @param.up.bias, @linear.out) duration 6.45
      aclgraph.launch seq 5 @gelu blocks 48 args(@linear.out, @gelu.out) duration 1.33
      aclgraph.launch seq 6 @linear blocks 8 args(@gelu.out, @param.down.weight, @param.down.bias, @linear_1.out) duration 6.45
      aclgraph.launch seq 7 @add blocks 32 args(@input.x, @linear_1.out, @add.out) duration 1.12
      aclgraph.placeholder seq 8
      aclgraph.placeholder seq 9
      aclgraph.scope_end seq 10 "mlp"
    }
  }
}
