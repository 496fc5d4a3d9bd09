builtin.module {
  aclgraph.model @serving_decode cores(aic = 24, aiv = 48) {
    aclgraph.kernel @npu_add_rms_norm aiv_only params(in, in, in, out, out, out)
    aclgraph.kernel @linear aic_only params(in, in, out)
    aclgraph.kernel @npu_rotary_mul aiv_only params(in, in, in, out)
    aclgraph.kernel @npu_reshape_and_cache aiv_only params(in, in, inout, inout, in)
    aclgraph.kernel @npu_paged_attention mix_aic_1_2 params(in, in, in, in, in, inout)
    aclgraph.kernel @npu_swiglu aiv_only params(in, out)
    aclgraph.buffer @param_attn_norm bytes 8192
    aclgraph.buffer @param_mlp_norm bytes 8192
    aclgraph.buffer @param_qkv_weight bytes 50331648
    aclgraph.buffer @param_o_proj_weight bytes 33554432
    aclgraph.buffer @param_gate_up_weight bytes 180355072
    aclgraph.buffer @param_down_weight bytes 90177536
    aclgraph.buffer @param_key_cache bytes 67108864
    aclgraph.buffer @param_value_cache bytes 67108864
    aclgraph.buffer @input_x bytes 131072
    aclgraph.buffer @input_residual bytes 131072
    aclgraph.buffer @input_cos bytes 4096
    aclgraph.buffer @input_sin bytes 4096
    aclgraph.buffer @input_slot_mapping bytes 64
    aclgraph.buffer @input_block_table bytes 2048
    aclgraph.buffer @input_context_lens bytes 64
    aclgraph.buffer @npu_add_rms_norm_out_0 bytes 131072
    aclgraph.buffer @npu_add_rms_norm_out_1 bytes 64
    aclgraph.buffer @npu_add_rms_norm_out_2 bytes 131072
    aclgraph.buffer @linear_out bytes 196608
    aclgraph.buffer @npu_rotary_mul_out bytes 131072
    aclgraph.buffer @npu_rotary_mul_1_out bytes 32768
    aclgraph.buffer @empty_out bytes 131072
    aclgraph.buffer @linear_1_out bytes 131072
    aclgraph.buffer @npu_add_rms_norm_1_out_0 bytes 131072
    aclgraph.buffer @npu_add_rms_norm_1_out_1 bytes 64
    aclgraph.buffer @npu_add_rms_norm_1_out_2 bytes 131072
    aclgraph.buffer @linear_2_out bytes 704512
    aclgraph.buffer @npu_swiglu_out bytes 352256
    aclgraph.buffer @linear_3_out bytes 131072
    aclgraph.stream @s0 slots 17 {
      aclgraph.scope_begin seq 0 "layer0"
      aclgraph.placeholder seq 1
      aclgraph.placeholder seq 2
      aclgraph.launch seq 3 @npu_add_rms_norm blocks 48 args(@input_x, @input_residual, @param_attn_norm, @npu_add_rms_norm_out_0, @npu_add_rms_norm_out_1, @npu_add_rms_norm_out_2) duration 1.33
      aclgraph.launch seq 4 @linear blocks 24 args(@npu_add_rms_norm_out_0, @param_qkv_weight, @linear_out) duration 32.66
      aclgraph.launch seq 5 @npu_rotary_mul blocks 48 args(@linear_out, @input_cos, @input_sin, @npu_rotary_mul_out) duration 1.17
      aclgraph.launch seq 6 @npu_rotary_mul blocks 16 args(@linear_out, @input_cos, @input_sin, @npu_rotary_mul_1_out) duration 1.05
      aclgraph.launch seq 7 @npu_reshape_and_cache blocks 48 args(@npu_rotary_mul_1_out, @linear_out, @param_key_cache, @param_value_cache, @input_slot_mapping) duration 84.93
      aclgraph.launch seq 8 @npu_paged_attention blocks 4 args(@npu_rotary_mul_out, @param_key_cache, @param_value_cache, @input_block_table, @input_context_lens, @empty_out) duration 85.05
      aclgraph.launch seq 9 @linear blocks 24 args(@empty_out, @param_o_proj_weight, @linear_1_out) duration 22.14
      aclgraph.launch seq 10 @npu_add_rms_norm blocks 48 args(@linear_1_out, @npu_add_rms_norm_out_2, @param_mlp_norm, @npu_add_rms_norm_1_out_0, @npu_add_rms_norm_1_out_1, @npu_add_rms_norm_1_out_2) duration 1.33
      aclgraph.launch seq 11 @linear blocks 24 args(@npu_add_rms_norm_1_out_0, @param_gate_up_weight, @linear_2_out) duration 114.24
      aclgraph.launch seq 12 @npu_swiglu blocks 48 args(@linear_2_out, @npu_swiglu_out) duration 1.66
      aclgraph.launch seq 13 @linear blocks 24 args(@npu_swiglu_out, @param_down_weight, @linear_3_out) duration 57.66
      aclgraph.placeholder seq 14
      aclgraph.placeholder seq 15
      aclgraph.scope_end seq 16 "layer0"
    }
  }
}
