

#e4m3 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = registers, acc = f32, scales = none>
func.func @negative_buffer(%r: vector<6xf32>, %a: vector<2xf32>) {
  %o1 = sage.accumulate %r into %r rescale %a {scheme = #sage.accum<f32>, frsage.matrix_de} : vector<6xf32>, vector<2xf32> -> vector<6xf32>
  return
}

