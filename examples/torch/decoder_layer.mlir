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
    aclgraph.buffer @input.x bytes 32768
    aclgraph.buffer @input.cos bytes 2048
    aclgraph.buffer @input.sin bytes 2048
    aclgraph.buffer @input.pos bytes 8
    aclgraph.buffer @param.attn_norm bytes 4096
    aclgraph.buffer @rms_norm.out bytes 32768
    aclgraph.buffer @param.qkv.weight bytes 25165824
    aclgraph.buffer @linear.out bytes 98304
    aclgraph.buffer @mul.out bytes 32768
    aclgraph.buffer @neg.out bytes 16384
    aclgraph.buffer @cat.out bytes 32768
    aclgraph.buffer @mul_1.out bytes 32768
    aclgraph.buffer @add.out bytes 32768
    aclgraph.buffer @mul_2.out bytes 32768
    aclgraph.buffer @neg_1.out bytes 16384
    aclgraph.buffer @cat_1.out bytes 32768
    aclgraph.buffer @mul_3.out bytes 32768
    aclgraph.buffer @add_1.out bytes 32768
    aclgraph.buffer @param.k_cache bytes 33554432
    aclgraph.buffer @param.v_cache bytes 33554432
    aclgraph.buffer @scaled_dot_product_attention.out bytes 32768
    aclgraph.buffer @param.o_proj.weight bytes 8388608
    aclgraph.buffer @linear_1.out bytes 32768
    aclgraph.buffer @add_2.out bytes 32768
    aclgraph.buffer @param.mlp_norm bytes 4096
    aclgraph.buffer @rms_norm_1.out bytes 32768
    aclgraph.buffer @param.gate_up.weight bytes 46137344
    aclgraph.buffer @linear_2.out bytes 180224
    aclgraph.buffer @silu.out bytes 90112
    aclgraph.buffer @mul_4.out bytes 90112
    aclgraph.buffer @param.down.weight bytes 23068672
    aclgraph.buffer @linear_3.out bytes 32768
    aclgraph.buffer @add_3.out bytes 32768
    aclgraph.stream @s0 slots 29 {
      aclgraph.scope_begin seq 0 "layer0"
      aclgraph.placeholder seq 1
      aclgraph.placeholder seq 2
      aclgraph.launch seq 3 @rms_norm blocks 16 args(@input.x, @param.attn_norm, @rms_norm.out) duration 1.04
      aclgraph.launch seq 4 @linear blocks 24 args(@rms_norm.out, @param.qkv.weight, @linear.out) duration 16.81
      aclgraph.launch seq 5 @mul blocks 16 args(@linear.out, @input.cos, @mul.out) duration 1.04
      aclgraph.launch seq 6 @neg blocks 8 args(@linear.out, @neg.out) duration 1.02
      aclgraph.launch seq 7 @cat blocks 16 args(@neg.out, @linear.out, @cat.out) duration 1.04
      aclgraph.launch seq 8 @mul blocks 16 args(@cat.out, @input.sin, @mul_1.out) duration 1.04
      aclgraph.launch seq 9 @add blocks 16 args(@mul.out, @mul_1.out, @add.out) duration 1.06
      aclgraph.launch seq 10 @mul blocks 16 args(@linear.out, @input.cos, @mul_2.out) duration 1.04
      aclgraph.launch seq 11 @neg blocks 8 args(@linear.out, @neg_1.out) duration 1.02
      aclgraph.launch seq 12 @cat blocks 16 args(@neg_1.out, @linear.out, @cat_1.out) duration 1.04
      aclgraph.launch seq 13 @mul blocks 16 args(@cat_1.out, @input.sin, @mul_3.out) duration 1.04
      aclgraph.launch seq 14 @add blocks 16 args(@mul_2.out, @mul_3.out, @add_1.out) duration 1.06
      aclgraph.launch seq 15 @index_copy blocks 16 args(@param.k_cache, @input.pos, @add_1.out) duration 1.04
      aclgraph.launch seq 16 @index_copy blocks 16 args(@param.v_cache, @input.pos, @linear.out) duration 1.04
      aclgraph.launch seq 17 @scaled_dot_product_attention blocks 24 args(@add.out, @param.k_cache, @param.v_cache, @scaled_dot_product_attention.out) duration 42.98
      aclgraph.launch seq 18 @linear blocks 16 args(@scaled_dot_product_attention.out, @param.o_proj.weight, @linear_1.out) duration 6.28
      aclgraph.launch seq 19 @add blocks 16 args(@input.x, @linear_1.out, @add_2.out) duration 1.06
      aclgraph.launch seq 20 @rms_norm blocks 16 args(@add_2.out, @param.mlp_norm, @rms_norm_1.out) duration 1.04
      aclgraph.launch seq 21 @linear blocks 24 args(@rms_norm_1.out, @param.gate_up.weight, @linear_2.out) duration 29.97
      aclgraph.launch seq 22 @silu blocks 44 args(@linear_2.out, @silu.out) duration 1.11
      aclgraph.launch seq 23 @mul blocks 44 args(@silu.out, @linear_2.out, @mul_4.out) duration 1.17
      aclgraph.launch seq 24 @linear blocks 16 args(@mul_4.out, @param.down.weight, @linear_3.out) duration 15.49
      aclgraph.launch seq 25 @add blocks 16 args(@add_2.out, @linear_3.out, @add_3.out) duration 1.06
      aclgraph.placeholder seq 26
      aclgraph.placeholder seq 27
      aclgraph.scope_end seq 28 "layer0"
    }
  }
}
