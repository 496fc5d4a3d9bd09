builtin.module {
  aclgraph.model @attention_moe cores(aic = 24, aiv = 48) {
    aclgraph.kernel @rms_norm aiv_only params(in, in, out)
    aclgraph.kernel @linear aic_only params(in, in, out)
    aclgraph.kernel @softmax aiv_only params(in, out)
    aclgraph.kernel @topk aiv_only params(in, out, out)
    aclgraph.kernel @zeros_like aiv_only params(in, out)
    aclgraph.kernel @scatter aiv_only params(in, in, in, out)
    aclgraph.kernel @scaled_dot_product_attention mix_aic_1_2 params(in, in, in, out)
    aclgraph.kernel @add aiv_only params(in, in, out)
    aclgraph.kernel @bmm aic_only params(in, in, out)
    aclgraph.kernel @silu aiv_only params(in, out)
    aclgraph.kernel @mul aiv_only params(in, in, out)
    aclgraph.kernel @sum aiv_only params(in, out)
    aclgraph.buffer @param_norm bytes 2048
    aclgraph.buffer @param_w_up bytes 11534336
    aclgraph.buffer @param_w_down bytes 11534336
    aclgraph.buffer @param_qkv_weight bytes 6291456
    aclgraph.buffer @param_o_proj_weight bytes 2097152
    aclgraph.buffer @param_router_weight bytes 8192
    aclgraph.buffer @param_k_cache bytes 8388608
    aclgraph.buffer @param_v_cache bytes 8388608
    aclgraph.buffer @input_x bytes 16384
    aclgraph.buffer @rms_norm_out bytes 16384
    aclgraph.buffer @linear_out bytes 64
    aclgraph.buffer @softmax_out bytes 64
    aclgraph.buffer @topk_out_0 bytes 32
    aclgraph.buffer @topk_out_1 bytes 128
    aclgraph.buffer @zeros_like_out bytes 64
    aclgraph.buffer @scatter_out bytes 64
    aclgraph.buffer @linear_1_out bytes 49152
    aclgraph.buffer @scaled_dot_product_attention_out bytes 16384
    aclgraph.buffer @linear_2_out bytes 16384
    aclgraph.buffer @add_out bytes 16384
    aclgraph.buffer @bmm_out bytes 90112
    aclgraph.buffer @silu_out bytes 90112
    aclgraph.buffer @bmm_1_out bytes 65536
    aclgraph.buffer @mul_out bytes 65536
    aclgraph.buffer @sum_1_out bytes 16384
    aclgraph.buffer @add_1_out bytes 16384
    aclgraph.event @e0
    aclgraph.event @e1
    aclgraph.event @e2
    aclgraph.stream @s0 slots 23 {
      aclgraph.scope_begin seq 0 "attn_moe"
      aclgraph.placeholder seq 1
      aclgraph.placeholder seq 2
      aclgraph.launch seq 3 @rms_norm blocks 8 args(@input_x, @param_norm, @rms_norm_out) duration 1.02
      aclgraph.record seq 4 @e0
      aclgraph.launch seq 11 @linear blocks 24 args(@rms_norm_out, @param_qkv_weight, @linear_1_out) duration 4.97
      aclgraph.launch seq 12 @scaled_dot_product_attention blocks 24 args(@linear_1_out, @param_k_cache, @param_v_cache, @scaled_dot_product_attention_out) duration 11.51
      aclgraph.launch seq 13 @linear blocks 8 args(@scaled_dot_product_attention_out, @param_o_proj_weight, @linear_2_out) duration 2.33
      aclgraph.launch seq 14 @add blocks 8 args(@input_x, @linear_2_out, @add_out) duration 1.03
      aclgraph.launch seq 15 @bmm blocks 11 args(@add_out, @param_w_up, @bmm_out) duration 8.31
      aclgraph.launch seq 16 @silu blocks 44 args(@bmm_out, @silu_out) duration 1.11
      aclgraph.launch seq 17 @bmm blocks 8 args(@silu_out, @param_w_down, @bmm_1_out) duration 8.31
      aclgraph.wait seq 19 @e1
      aclgraph.launch seq 20 @mul blocks 32 args(@bmm_1_out, @scatter_out, @mul_out) duration 1.08
      aclgraph.launch seq 21 @sum blocks 32 args(@mul_out, @sum_1_out) duration 1.05
      aclgraph.launch seq 22 @add blocks 8 args(@add_out, @sum_1_out, @add_1_out) duration 1.03
      aclgraph.placeholder seq 23
      aclgraph.placeholder seq 24
      aclgraph.scope_end seq 25 "attn_moe"
      aclgraph.wait seq 27 @e2
      aclgraph.reset seq 28 @e0
      aclgraph.reset seq 29 @e1
      aclgraph.reset seq 30 @e2
    }
    aclgraph.stream @gate slots 8 {
      aclgraph.wait seq 5 @e0
      aclgraph.launch seq 6 @linear blocks 1 args(@rms_norm_out, @param_router_weight, @linear_out) duration 1.02
      aclgraph.launch seq 7 @softmax blocks 1 args(@linear_out, @softmax_out) duration 1.0
      aclgraph.launch seq 8 @topk blocks 1 args(@softmax_out, @topk_out_0, @topk_out_1) duration 1.0
      aclgraph.launch seq 9 @zeros_like blocks 1 args(@softmax_out, @zeros_like_out) duration 1.0
      aclgraph.launch seq 10 @scatter blocks 1 args(@zeros_like_out, @topk_out_1, @topk_out_0, @scatter_out) duration 1.0
      aclgraph.record seq 18 @e1
      aclgraph.record seq 26 @e2
    }
  }
}
