// IREE attention on [B, T, H, 64] (BTNH, as JAX programs lay it out): the
// kernels read and write that layout directly, no transpose kernels.
#mq = affine_map<(b, m, h, k1, k2, n) -> (b, m, h, k1)>
#mk = affine_map<(b, m, h, k1, k2, n) -> (b, k2, h, k1)>
#mv = affine_map<(b, m, h, k1, k2, n) -> (b, k2, h, n)>
#ms = affine_map<(b, m, h, k1, k2, n) -> ()>
#mo = affine_map<(b, m, h, k1, k2, n) -> (b, m, h, n)>
func.func @iree_attention_btnh(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>,
    %v: tensor<?x?x?x64xf16>, %out: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %scale = arith.constant 0.125 : f16
  %0 = "iree_linalg_ext.attention"(%q, %k, %v, %scale, %out) ({
  ^bb0(%s: f32):
    "iree_linalg_ext.yield"(%s) : (f32) -> ()
  }) {indexing_maps = [#mq, #mk, #mv, #ms, #mo]}
    : (tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, f16, tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16>
  return %0 : tensor<?x?x?x64xf16>
}
