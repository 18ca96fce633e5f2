// REQUIRES: mlir-runner
// RUN: sage-opt %s --sage-pack-int4 --canonicalize \
// RUN:   --one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   --convert-linalg-to-loops --convert-vector-to-scf --lower-affine \
// RUN:   --convert-scf-to-cf --expand-strided-metadata --convert-math-to-llvm \
// RUN:   --convert-vector-to-llvm --finalize-memref-to-llvm \
// RUN:   --convert-arith-to-llvm --convert-cf-to-llvm --convert-func-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils | FileCheck %s

// The bytes sage-pack-int4's quantizer writes, computed on the CPU: an
// INT4 quantizer's generic (as sage-lower-quantizers builds it: x / scale
// rounded half to even, clamped to [-7, 7]) packed two values a byte, the
// lower column in the low nibble (docs/Layouts.md, "4-bit operands"), then
// read back as bytes.
//
// Row 0 (scale 1): 1 -2 3 -4 5 -6 7 9 -> 1 -2 3 -4 5 -6 7 7, so the bytes
// are 0xE1 0xC3 0xA5 0x77 = -31 -61 -91 119.
// CHECK: ( -31, -61, -91, 119 )
// Row 1 (scale 0.5): x / 0.5 = 0.5 1.5 -0.5 -1.5 2.5 5 -7 0 -> 0 2 0 -2 2 5
// -7 0 (halves to even), so 0x20 0xE0 0x52 0x09 = 32 -32 82 9.
// CHECK: ( 32, -32, 82, 9 )
func.func @main() {
  %x = arith.constant dense<[[1.0, -2.0, 3.0, -4.0, 5.0, -6.0, 7.0, 9.0],
                             [0.25, 0.75, -0.25, -0.75, 1.25, 2.5, -3.5, 0.0]]> : tensor<2x8xf32>
  %s = arith.constant dense<[[1.0], [0.5]]> : tensor<2x1xf32>
  %lo = arith.constant -7.0 : f32
  %hi = arith.constant 7.0 : f32
  %init = tensor.empty() : tensor<2x8xi4>
  %v = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>,
                       affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<2x8xf32>, tensor<2x1xf32>) outs(%init : tensor<2x8xi4>) {
  ^bb0(%in: f32, %scale: f32, %out: i4):
    %q = arith.divf %in, %scale : f32
    %r = math.roundeven %q : f32
    %below = arith.cmpf olt, %r, %lo : f32
    %raised = arith.select %below, %lo, %r : f32
    %above = arith.cmpf ogt, %raised, %hi : f32
    %clamped = arith.select %above, %hi, %raised : f32
    %i = arith.fptosi %clamped : f32 to i4
    linalg.yield %i : i4
  } -> tensor<2x8xi4>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i4
  // Each row's eight values as the lanes read them (whole bytes), printed
  // as the bytes they are stored in.
  %r0 = vector.transfer_read %v[%c0, %c0], %zero {in_bounds = [true]} : tensor<2x8xi4>, vector<8xi4>
  %r1 = vector.transfer_read %v[%c1, %c0], %zero {in_bounds = [true]} : tensor<2x8xi4>, vector<8xi4>
  %b0 = vector.bitcast %r0 : vector<8xi4> to vector<4xi8>
  %b1 = vector.bitcast %r1 : vector<8xi4> to vector<4xi8>
  vector.print %b0 : vector<4xi8>
  vector.print %b1 : vector<4xi8>
  return
}
