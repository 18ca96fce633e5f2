// IREE's iree_linalg_ext.attention on [B, H, N, 128] bf16 with GQA-free
// maps over (batch, heads, m, k1, k2, n) and a constant scale.
#mq = affine_map<(b, h, m, k1, k2, n) -> (b, h, m, k1)>
#mk = affine_map<(b, h, m, k1, k2, n) -> (b, h, k2, k1)>
#mv = affine_map<(b, h, m, k1, k2, n) -> (b, h, k2, n)>
#ms = affine_map<(b, h, m, k1, k2, n) -> ()>
#mo = affine_map<(b, h, m, k1, k2, n) -> (b, h, m, n)>
func.func @iree_attention(%q: tensor<?x?x?x128xbf16>, %k: tensor<?x?x?x128xbf16>,
    %v: tensor<?x?x?x128xbf16>, %out: tensor<?x?x?x128xbf16>) -> tensor<?x?x?x128xbf16> {
  %scale = arith.constant 0.08838834764831845 : bf16
  %0 = "iree_linalg_ext.attention"(%q, %k, %v, %scale, %out) ({
  ^bb0(%s: f32):
    "iree_linalg_ext.yield"(%s) : (f32) -> ()
  }) {indexing_maps = [#mq, #mk, #mv, #ms, #mo]}
    : (tensor<?x?x?x128xbf16>, tensor<?x?x?x128xbf16>, tensor<?x?x?x128xbf16>, bf16, tensor<?x?x?x128xbf16>) -> tensor<?x?x?x128xbf16>
  return %0 : tensor<?x?x?x128xbf16>
}
