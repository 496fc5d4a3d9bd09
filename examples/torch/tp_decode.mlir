builtin.module {
  aclgraph.model @tp_decode cores(aic = 24, aiv = 48) {
    aclgraph.kernel @rms_norm aiv_only params(in, in, out)
    aclgraph.kernel @linear aic_only params(in, in, out)
    aclgraph.kernel @index_copy aiv_only params(inout, in, in)
    aclgraph.kernel @scaled_dot_product_attention mix_aic_1_2 params(in, in, in, out)
    aclgraph.kernel @all_reduce aiv_only params(in, out)
    aclgraph.kernel @add aiv_only params(in, in, out)
    aclgraph.kernel @silu aiv_only params(in, out)
    aclgraph.kernel @mul aiv_only params(in, in, out)
    aclgraph.buffer @param_attn_norm bytes 8192
    aclgraph.buffer @param_mlp_norm bytes 8192
    aclgraph.buffer @param_qkv_weight bytes 50331648
    aclgraph.buffer @param_o_proj_weight bytes 16777216
    aclgraph.buffer @param_gate_up_weight bytes 90177536
    aclgraph.buffer @param_down_weight bytes 45088768
    aclgraph.buffer @param_k_cache bytes 67108864
    aclgraph.buffer @param_v_cache bytes 67108864
    aclgraph.buffer @input_x bytes 131072
    aclgraph.buffer @input_pos bytes 8
    aclgraph.buffer @rms_norm_out bytes 131072
    aclgraph.buffer @linear_out bytes 196608
    aclgraph.buffer @scaled_dot_product_attention_out bytes 65536
    aclgraph.buffer @linear_1_out bytes 131072
    aclgraph.buffer @all_reduce_out bytes 131072
    aclgraph.buffer @add_out bytes 131072
    aclgraph.buffer @rms_norm_1_out bytes 131072
    aclgraph.buffer @linear_2_out bytes 352256
    aclgraph.buffer @silu_out bytes 176128
    aclgraph.buffer @mul_out bytes 176128
    aclgraph.buffer @linear_3_out bytes 131072
    aclgraph.buffer @all_reduce_1_out bytes 131072
    aclgraph.buffer @add_1_out bytes 131072
    aclgraph.stream @s0 slots 21 {
      aclgraph.scope_begin seq 0 "layer0"
      aclgraph.placeholder seq 1
      aclgraph.placeholder seq 2
      aclgraph.launch seq 3 @rms_norm blocks 48 args(@input_x, @param_attn_norm, @rms_norm_out) duration 1.17
      aclgraph.launch seq 4 @linear blocks 24 args(@rms_norm_out, @param_qkv_weight, @linear_out) duration 32.66
      aclgraph.launch seq 5 @index_copy blocks 32 args(@param_k_cache, @input_pos, @linear_out) duration 1.08
      aclgraph.launch seq 6 @index_copy blocks 32 args(@param_v_cache, @input_pos, @linear_out) duration 1.08
      aclgraph.launch seq 7 @scaled_dot_product_attention blocks 24 args(@linear_out, @param_k_cache, @param_v_cache, @scaled_dot_product_attention_out) duration 84.97
      aclgraph.launch seq 8 @linear blocks 24 args(@scaled_dot_product_attention_out, @param_o_proj_weight, @linear_1_out) duration 11.61
      aclgraph.launch seq 9 @all_reduce blocks 48 args(@linear_1_out, @all_reduce_out) duration 1.16 comm group pg0 op all_reduce bytes 131072
      aclgraph.launch seq 10 @add blocks 48 args(@input_x, @all_reduce_out, @add_out) duration 1.25
      aclgraph.launch seq 11 @rms_norm blocks 48 args(@add_out, @param_mlp_norm, @rms_norm_1_out) duration 1.17
      aclgraph.launch seq 12 @linear blocks 24 args(@rms_norm_1_out, @param_gate_up_weight, @linear_2_out) duration 57.66
      aclgraph.launch seq 13 @silu blocks 48 args(@linear_2_out, @silu_out) duration 1.22
      aclgraph.launch seq 14 @mul blocks 48 args(@silu_out, @linear_2_out, @mul_out) duration 1.33
      aclgraph.launch seq 15 @linear blocks 24 args(@mul_out, @param_down_weight, @linear_3_out) duration 29.37
      aclgraph.launch seq 16 @all_reduce blocks 48 args(@linear_3_out, @all_reduce_1_out) duration 1.16 comm group pg0 op all_reduce bytes 131072
      aclgraph.launch seq 17 @add blocks 48 args(@add_out, @all_reduce_1_out, @add_1_out) duration 1.25
      aclgraph.placeholder seq 18
      aclgraph.placeholder seq 19
      aclgraph.scope_end seq 20 "layer0"
    }
  }
}
