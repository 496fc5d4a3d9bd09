builtin.module {
  aclgraph.model @decoder_layer cores(aic = 24, aiv = 48) {
    aclgraph.kernel @rms_norm aiv_only params(in, in, out)
    aclgraph.kernel @linear aic_only params(in, in, out)
    aclgraph.kernel @mul aiv_only params(in, in, out)
    aclgraph.kernel @neg aiv_only params(in, out)
    aclgraph.kernel @cat aiv_only params(in, in, out)
    aclgraph.kernel @add aiv_only params(in, in, out)
    aclgraph.kernel @index_copy aiv_only params(inout, in, in)
    aclgraph.kernel @scaled_dot_product_attention mix_aic_1_2 params(in, in, in, out)
    aclgraph.kernel @silu aiv_only params(in, out)
    aclgraph.buffer @param_attn_norm bytes 4096
    aclgraph.buffer @param_mlp_norm bytes 4096
    aclgraph.buffer @param_qkv_weight bytes 25165824
    aclgraph.buffer @param_o_proj_weight bytes 8388608
    aclgraph.buffer @param_gate_up_weight bytes 46137344
    aclgraph.buffer @param_down_weight bytes 23068672
    aclgraph.buffer @param_k_cache bytes 33554432
    aclgraph.buffer @param_v_cache bytes 33554432
    aclgraph.buffer @input_x bytes 32768
    aclgraph.buffer @input_cos bytes 2048
    aclgraph.buffer @input_sin bytes 2048
    aclgraph.buffer @input_pos bytes 8
    aclgraph.buffer @rms_norm_out bytes 32768
    aclgraph.buffer @linear_out bytes 98304
    aclgraph.buffer @mul_out bytes 32768
    aclgraph.buffer @neg_out bytes 16384
    aclgraph.buffer @cat_out bytes 32768
    aclgraph.buffer @mul_1_out bytes 32768
    aclgraph.buffer @add_out bytes 32768
    aclgraph.buffer @mul_2_out bytes 32768
    aclgraph.buffer @neg_1_out bytes 16384
    aclgraph.buffer @cat_1_out bytes 32768
    aclgraph.buffer @mul_3_out bytes 32768
    aclgraph.buffer @add_1_out bytes 32768
    aclgraph.buffer @scaled_dot_product_attention_out bytes 32768
    aclgraph.buffer @linear_1_out bytes 32768
    aclgraph.buffer @add_2_out bytes 32768
    aclgraph.buffer @rms_norm_1_out bytes 32768
    aclgraph.buffer @linear_2_out bytes 180224
    aclgraph.buffer @silu_out bytes 90112
    aclgraph.buffer @mul_4_out bytes 90112
    aclgraph.buffer @linear_3_out bytes 32768
    aclgraph.buffer @add_3_out bytes 32768
    aclgraph.stream @s0 slots 29 {
      aclgraph.scope_begin seq 0 "layer0"
      aclgraph.placeholder seq 1
      aclgraph.placeholder seq 2
      aclgraph.launch seq 3 @rms_norm blocks 16 args(@input_x, @param_attn_norm, @rms_norm_out) duration 1.04
      aclgraph.launch seq 4 @linear blocks 24 args(@rms_norm_out, @param_qkv_weight, @linear_out) duration 16.81
      aclgraph.launch seq 5 @mul blocks 16 args(@linear_out, @input_cos, @mul_out) duration 1.04
      aclgraph.launch seq 6 @neg blocks 8 args(@linear_out, @neg_out) duration 1.02
      aclgraph.launch seq 7 @cat blocks 16 args(@neg_out, @linear_out, @cat_out) duration 1.04
      aclgraph.launch seq 8 @mul blocks 16 args(@cat_out, @input_sin, @mul_1_out) duration 1.04
      aclgraph.launch seq 9 @add blocks 16 args(@mul_out, @mul_1_out, @add_out) duration 1.06
      aclgraph.launch seq 10 @mul blocks 16 args(@linear_out, @input_cos, @mul_2_out) duration 1.04
      aclgraph.launch seq 11 @neg blocks 8 args(@linear_out, @neg_1_out) duration 1.02
      aclgraph.launch seq 12 @cat blocks 16 args(@neg_1_out, @linear_out, @cat_1_out) duration 1.04
      aclgraph.launch seq 13 @mul blocks 16 args(@cat_1_out, @input_sin, @mul_3_out) duration 1.04
      aclgraph.launch seq 14 @add blocks 16 args(@mul_2_out, @mul_3_out, @add_1_out) duration 1.06
      aclgraph.launch seq 15 @index_copy blocks 16 args(@param_k_cache, @input_pos, @add_1_out) duration 1.04
      aclgraph.launch seq 16 @index_copy blocks 16 args(@param_v_cache, @input_pos, @linear_out) duration 1.04
      aclgraph.launch seq 17 @scaled_dot_product_attention blocks 24 args(@add_out, @param_k_cache, @param_v_cache, @scaled_dot_product_attention_out) duration 42.98
      aclgraph.launch seq 18 @linear blocks 16 args(@scaled_dot_product_attention_out, @param_o_proj_weight, @linear_1_out) duration 6.28
      aclgraph.launch seq 19 @add blocks 16 args(@input_x, @linear_1_out, @add_2_out) duration 1.06
      aclgraph.launch seq 20 @rms_norm blocks 16 args(@add_2_out, @param_mlp_norm, @rms_norm_1_out) duration 1.04
      aclgraph.launch seq 21 @linear blocks 24 args(@rms_norm_1_out, @param_gate_up_weight, @linear_2_out) duration 29.97
      aclgraph.launch seq 22 @silu blocks 44 args(@linear_2_out, @silu_out) duration 1.11
      aclgraph.launch seq 23 @mul blocks 44 args(@silu_out, @linear_2_out, @mul_4_out) duration 1.17
      aclgraph.launch seq 24 @linear blocks 16 args(@mul_4_out, @param_down_weight, @linear_3_out) duration 15.49
      aclgraph.launch seq 25 @add blocks 16 args(@add_2_out, @linear_3_out, @add_3_out) duration 1.06
      aclgraph.placeholder seq 26
      aclgraph.placeholder seq 27
      aclgraph.scope_end seq 28 "layer0"
    }
  }
}
