builtin.module {
  aclgraph.model @mlp_block cores(aic = 24, aiv = 48) {
    aclgraph.kernel @layer_norm aiv_only params(in, in, in, out)
    aclgraph.kernel @linear mix_aic_1_2 params(in, in, in, out)
    aclgraph.kernel @gelu aiv_only params(in, out)
    aclgraph.kernel @add aiv_only params(in, in, out)
    aclgraph.buffer @param_norm_weight bytes 2048
    aclgraph.buffer @param_norm_bias bytes 2048
    aclgraph.buffer @param_up_weight bytes 8388608
    aclgraph.buffer @param_up_bias bytes 8192
    aclgraph.buffer @param_down_weight bytes 8388608
    aclgraph.buffer @param_down_bias bytes 2048
    aclgraph.buffer @input_x bytes 65536
    aclgraph.buffer @layer_norm_out bytes 65536
    aclgraph.buffer @linear_out bytes 262144
    aclgraph.buffer @gelu_out bytes 262144
    aclgraph.buffer @linear_1_out bytes 65536
    aclgraph.buffer @add_out bytes 65536
    aclgraph.stream @s0 slots 11 {
      aclgraph.scope_begin seq 0 "mlp"
      aclgraph.placeholder seq 1
      aclgraph.placeholder seq 2
      aclgraph.launch seq 3 @layer_norm blocks 32 args(@input_x, @param_norm_weight, @param_norm_bias, @layer_norm_out) duration 1.08
      aclgraph.launch seq 4 @linear blocks 24 args(@layer_norm_out, @param_up_weight, @param_up_bias, @linear_out) duration 6.45
      aclgraph.launch seq 5 @gelu blocks 48 args(@linear_out, @gelu_out) duration 1.33
      aclgraph.launch seq 6 @linear blocks 8 args(@gelu_out, @param_down_weight, @param_down_bias, @linear_1_out) duration 6.45
      aclgraph.launch seq 7 @add blocks 32 args(@input_x, @linear_1_out, @add_out) duration 1.12
      aclgraph.placeholder seq 8
      aclgraph.placeholder seq 9
      aclgraph.scope_end seq 10 "mlp"
    }
  }
}
