// RUN: sage-opt %s --allow-unregistered-dialect --sage-raise-attention="explain=true" -split-input-file -verify-diagnostics

// The refusals of tm_tensor.attention and iree_linalg_ext.(online_)attention
// that raise-attention-ops.mlir leaves out, one case per diagnostic
// (scripts/check-diagnostics.py).

func.func @negative_tm_tensor_two_outputs(%q: tensor<8x64x64xf32>, %out: tensor<8x64x64xf32>) -> tensor<8x64x64xf32> {
  // expected-remark@+1 {{not raised to sage.attention: expected one output operand}}
  %0 = "tm_tensor.attention"(%q, %q, %q, %out, %out) {operandSegmentSizes = array<i32: 3, 2>}
    : (tensor<8x64x64xf32>, tensor<8x64x64xf32>, tensor<8x64x64xf32>, tensor<8x64x64xf32>, tensor<8x64x64xf32>) -> tensor<8x64x64xf32>
  return %0 : tensor<8x64x64xf32>
}

// -----

func.func @negative_tm_tensor_no_value(%q: tensor<8x64x64xf32>, %out: tensor<8x64x64xf32>) -> tensor<8x64x64xf32> {
  // expected-remark@+1 {{not raised to sage.attention: expected query, key, value and an optional mask, and one result}}
  %0 = "tm_tensor.attention"(%q, %q, %out) {operandSegmentSizes = array<i32: 2, 1>}
    : (tensor<8x64x64xf32>, tensor<8x64x64xf32>, tensor<8x64x64xf32>) -> tensor<8x64x64xf32>
  return %0 : tensor<8x64x64xf32>
}

// -----

func.func @negative_tm_tensor_unranked(%q: tensor<*xf32>, %k: tensor<8x64x64xf32>, %out: tensor<8x64x64xf32>) -> tensor<8x64x64xf32> {
  // expected-remark@+1 {{not raised to sage.attention: expected ranked tensors}}
  %0 = "tm_tensor.attention"(%q, %k, %k, %out) {operandSegmentSizes = array<i32: 3, 1>}
    : (tensor<*xf32>, tensor<8x64x64xf32>, tensor<8x64x64xf32>, tensor<8x64x64xf32>) -> tensor<8x64x64xf32>
  return %0 : tensor<8x64x64xf32>
}

// -----

func.func @negative_tm_tensor_rank2(%q: tensor<64x64xf32>, %out: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-remark@+1 {{not raised to sage.attention: expected operands of rank 3 or more ([batch..., tokens, features])}}
  %0 = "tm_tensor.attention"(%q, %q, %q, %out) {operandSegmentSizes = array<i32: 3, 1>}
    : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

func.func @negative_tm_tensor_zero_scale(%q: tensor<8x64x64xf32>, %out: tensor<8x64x64xf32>) -> tensor<8x64x64xf32> {
  // expected-remark@+1 {{not raised to sage.attention: the scale is not finite and non-zero}}
  %0 = "tm_tensor.attention"(%q, %q, %q, %out) {operandSegmentSizes = array<i32: 3, 1>, scale = 0.0 : f64}
    : (tensor<8x64x64xf32>, tensor<8x64x64xf32>, tensor<8x64x64xf32>, tensor<8x64x64xf32>) -> tensor<8x64x64xf32>
  return %0 : tensor<8x64x64xf32>
}

// -----

#mq = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#mk = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#mv = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#ms = affine_map<(b, m, k1, k2, n) -> ()>

// One indexing map per operand (the scale's may be left out): here the
// output's is missing too.
func.func @negative_iree_missing_map(%q: tensor<4x64x64xf16>, %out: tensor<4x64x64xf16>) -> tensor<4x64x64xf16> {
  %scale = arith.constant 0.125 : f16
  // expected-remark@+1 {{not raised to sage.attention: expected Q, K, V, scale, an optional mask and 1 outputs, with one indexing map each (the scale's may be left out)}}
  %0 = "iree_linalg_ext.attention"(%q, %q, %q, %scale, %out) ({
  ^bb0(%s: f32):
    "iree_linalg_ext.yield"(%s) : (f32) -> ()
  }) {indexing_maps = [#mq, #mk, #mv]}
    : (tensor<4x64x64xf16>, tensor<4x64x64xf16>, tensor<4x64x64xf16>, f16, tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  return %0 : tensor<4x64x64xf16>
}

// -----

#mq = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#mk = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#mv = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#ms = affine_map<(b, m, k1, k2, n) -> ()>
#mo = affine_map<(b, m, k1, k2, n) -> (b, m, n)>

func.func @negative_iree_two_regions(%q: tensor<4x64x64xf16>, %out: tensor<4x64x64xf16>) -> tensor<4x64x64xf16> {
  %scale = arith.constant 0.125 : f16
  // expected-remark@+1 {{not raised to sage.attention: expected at most one score region}}
  %0 = "iree_linalg_ext.attention"(%q, %q, %q, %scale, %out) ({
  ^bb0(%s: f32):
    "iree_linalg_ext.yield"(%s) : (f32) -> ()
  }, {
  ^bb0(%s: f32):
    "iree_linalg_ext.yield"(%s) : (f32) -> ()
  }) {indexing_maps = [#mq, #mk, #mv, #ms, #mo]}
    : (tensor<4x64x64xf16>, tensor<4x64x64xf16>, tensor<4x64x64xf16>, f16, tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  return %0 : tensor<4x64x64xf16>
}

// -----

#mq = affine_map<(b, m, k1, k2, n) -> (b, m + k1, k1)>
#mk = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#mv = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#ms = affine_map<(b, m, k1, k2, n) -> ()>
#mo = affine_map<(b, m, k1, k2, n) -> (b, m, n)>

func.func @negative_iree_map_not_permutation(%q: tensor<4x64x64xf16>, %out: tensor<4x64x64xf16>) -> tensor<4x64x64xf16> {
  %scale = arith.constant 0.125 : f16
  // expected-remark@+1 {{not raised to sage.attention: indexing maps must be projected permutations}}
  %0 = "iree_linalg_ext.attention"(%q, %q, %q, %scale, %out) ({
  ^bb0(%s: f32):
    "iree_linalg_ext.yield"(%s) : (f32) -> ()
  }) {indexing_maps = [#mq, #mk, #mv, #ms, #mo]}
    : (tensor<4x64x64xf16>, tensor<4x64x64xf16>, tensor<4x64x64xf16>, f16, tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  return %0 : tensor<4x64x64xf16>
}

// -----

#mq = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#mk = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#mv = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#ms = affine_map<(b, m, k1, k2, n) -> ()>
#mo = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>

// The output indexed by the head dim instead of the value dim: no n.
func.func @negative_iree_no_value_dim(%q: tensor<4x64x64xf16>, %out: tensor<4x64x64xf16>) -> tensor<4x64x64xf16> {
  %scale = arith.constant 0.125 : f16
  // expected-remark@+1 {{not raised to sage.attention: the indexing maps do not describe one query, key, head and value dimension over shared batch dims}}
  %0 = "iree_linalg_ext.attention"(%q, %q, %q, %scale, %out) ({
  ^bb0(%s: f32):
    "iree_linalg_ext.yield"(%s) : (f32) -> ()
  }) {indexing_maps = [#mq, #mk, #mv, #ms, #mo]}
    : (tensor<4x64x64xf16>, tensor<4x64x64xf16>, tensor<4x64x64xf16>, f16, tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  return %0 : tensor<4x64x64xf16>
}

// -----

#mq = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#mk = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#mv = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#ms = affine_map<(b, m, k1, k2, n) -> ()>
#mo = affine_map<(b, m, k1, k2, n) -> (b, m, n)>

func.func @negative_iree_operand_rank(%q: tensor<4x64x64xf16>, %v: tensor<4x64x64x1xf16>, %out: tensor<4x64x64xf16>) -> tensor<4x64x64xf16> {
  %scale = arith.constant 0.125 : f16
  // expected-remark@+1 {{not raised to sage.attention: operand #2 is not a ranked tensor of its map's rank}}
  %0 = "iree_linalg_ext.attention"(%q, %q, %v, %scale, %out) ({
  ^bb0(%s: f32):
    "iree_linalg_ext.yield"(%s) : (f32) -> ()
  }) {indexing_maps = [#mq, #mk, #mv, #ms, #mo]}
    : (tensor<4x64x64xf16>, tensor<4x64x64xf16>, tensor<4x64x64x1xf16>, f16, tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  return %0 : tensor<4x64x64xf16>
}

// -----

#mq = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#mk = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#mv = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#ms = affine_map<(b, m, k1, k2, n) -> ()>
#mo = affine_map<(b, m, k1, k2, n) -> (b, m, n)>

func.func @negative_iree_zero_scale(%q: tensor<4x64x64xf16>, %out: tensor<4x64x64xf16>) -> tensor<4x64x64xf16> {
  %scale = arith.constant 0.0 : f16
  // expected-remark@+1 {{not raised to sage.attention: the scale is not finite and non-zero}}
  %0 = "iree_linalg_ext.attention"(%q, %q, %q, %scale, %out) ({
  ^bb0(%s: f32):
    "iree_linalg_ext.yield"(%s) : (f32) -> ()
  }) {indexing_maps = [#mq, #mk, #mv, #ms, #mo]}
    : (tensor<4x64x64xf16>, tensor<4x64x64xf16>, tensor<4x64x64xf16>, f16, tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  return %0 : tensor<4x64x64xf16>
}

// -----

#mq = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#mk = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#mv = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#ms = affine_map<(b, m, k1, k2, n) -> ()>
#mm = affine_map<(b, m, k1, k2, n) -> (b, m, n)>
#mo = affine_map<(b, m, k1, k2, n) -> (b, m, n)>

// The mask indexed by the value dim, not the keys.
func.func @negative_iree_mask_map(%q: tensor<4x64x64xf16>, %mask: tensor<4x64x64xf16>, %out: tensor<4x64x64xf16>) -> tensor<4x64x64xf16> {
  %scale = arith.constant 0.125 : f16
  // expected-remark@+1 {{not raised to sage.attention: the mask map is not [batch..., queries, keys]}}
  %0 = "iree_linalg_ext.attention"(%q, %q, %q, %scale, %mask, %out) ({
  ^bb0(%s: f32):
    "iree_linalg_ext.yield"(%s) : (f32) -> ()
  }) {indexing_maps = [#mq, #mk, #mv, #ms, #mm, #mo]}
    : (tensor<4x64x64xf16>, tensor<4x64x64xf16>, tensor<4x64x64xf16>, f16, tensor<4x64x64xf16>, tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  return %0 : tensor<4x64x64xf16>
}

// -----

#mq = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#mk = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#mv = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#ms = affine_map<(b, m, k1, k2, n) -> ()>
#mo = affine_map<(b, m, k1, k2, n) -> (b, m, n)>
#mr = affine_map<(b, m, k1, k2, n) -> (b, m)>

// online_attention whose unnormalized output is returned as it is.
func.func @negative_online_attention_unnormalized(%q: tensor<4x64x64xf16>) -> tensor<4x64x64xf32> {
  %scale = arith.constant 0.125 : f16
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %oe = tensor.empty() : tensor<4x64x64xf32>
  %re = tensor.empty() : tensor<4x64xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%re : tensor<4x64xf32>) -> tensor<4x64xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%re : tensor<4x64xf32>) -> tensor<4x64xf32>
  // expected-remark@+1 {{not raised to sage.attention: online_attention is not followed by its normalization O / sum alone}}
  %r:3 = "iree_linalg_ext.online_attention"(%q, %q, %q, %scale, %o0, %m0, %s0) ({
  ^bb0(%s: f32):
    "iree_linalg_ext.yield"(%s) : (f32) -> ()
  }) {indexing_maps = [#mq, #mk, #mv, #ms, #mo, #mr, #mr]}
    : (tensor<4x64x64xf16>, tensor<4x64x64xf16>, tensor<4x64x64xf16>, f16, tensor<4x64x64xf32>, tensor<4x64xf32>, tensor<4x64xf32>)
      -> (tensor<4x64x64xf32>, tensor<4x64xf32>, tensor<4x64xf32>)
  return %r#0 : tensor<4x64x64xf32>
}

// -----

#mq = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#mk = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#mv = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#ms = affine_map<(b, m, k1, k2, n) -> ()>
#mo = affine_map<(b, m, k1, k2, n) -> (b, m, n)>
#mr = affine_map<(b, m, k1, k2, n) -> (b, m)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>

// The row max is returned too: raising would drop it.
func.func @negative_online_attention_max_used(%q: tensor<4x64x64xf16>) -> (tensor<4x64x64xf32>, tensor<4x64xf32>) {
  %scale = arith.constant 0.125 : f16
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %oe = tensor.empty() : tensor<4x64x64xf32>
  %re = tensor.empty() : tensor<4x64xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%re : tensor<4x64xf32>) -> tensor<4x64xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%re : tensor<4x64xf32>) -> tensor<4x64xf32>
  // expected-remark@+1 {{not raised to sage.attention: the row max of online_attention has users}}
  %r:3 = "iree_linalg_ext.online_attention"(%q, %q, %q, %scale, %o0, %m0, %s0) ({
  ^bb0(%s: f32):
    "iree_linalg_ext.yield"(%s) : (f32) -> ()
  }) {indexing_maps = [#mq, #mk, #mv, #ms, #mo, #mr, #mr]}
    : (tensor<4x64x64xf16>, tensor<4x64x64xf16>, tensor<4x64x64xf16>, f16, tensor<4x64x64xf32>, tensor<4x64xf32>, tensor<4x64xf32>)
      -> (tensor<4x64x64xf32>, tensor<4x64xf32>, tensor<4x64xf32>)
  %o = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r#0, %r#2 : tensor<4x64x64xf32>, tensor<4x64xf32>) outs(%oe : tensor<4x64x64xf32>) {
  ^bb0(%acc: f32, %sum: f32, %out: f32):
    %d = arith.divf %acc, %sum : f32
    linalg.yield %d : f32
  } -> tensor<4x64x64xf32>
  return %o, %r#1 : tensor<4x64x64xf32>, tensor<4x64xf32>
}
