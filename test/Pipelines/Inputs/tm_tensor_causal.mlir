// torch-mlir's tm_tensor.attention with the causal mask it materializes:
// SDPA(is_causal=True) on [B*H, L, 64] f16 after TorchToTMTensor.
func.func @tm_tensor_causal(%q: tensor<?x1024x64xf16>, %k: tensor<?x1024x64xf16>,
    %v: tensor<?x1024x64xf16>, %out: tensor<?x1024x64xf16>) -> tensor<?x1024x64xf16> {
  %c0 = arith.constant 0 : index
  %bh = tensor.dim %q, %c0 : tensor<?x1024x64xf16>
  %e = tensor.empty(%bh) : tensor<?x1024x1024xf16>
  %mask = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<?x1024x1024xf16>) {
  ^bb0(%o: f16):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %visible = arith.cmpi ule, %j, %i : index
    %zero = arith.constant 0.0 : f16
    %ninf = arith.constant 0xFC00 : f16
    %m = arith.select %visible, %zero, %ninf : f16
    linalg.yield %m : f16
  } -> tensor<?x1024x1024xf16>
  %0 = "tm_tensor.attention"(%q, %k, %v, %mask, %out) {operandSegmentSizes = array<i32: 4, 1>}
    : (tensor<?x1024x64xf16>, tensor<?x1024x64xf16>, tensor<?x1024x64xf16>, tensor<?x1024x1024xf16>, tensor<?x1024x64xf16>) -> tensor<?x1024x64xf16>
  return %0 : tensor<?x1024x64xf16>
}
