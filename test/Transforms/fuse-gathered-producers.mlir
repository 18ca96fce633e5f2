// RUN: sage-opt %s --sage-fuse-gathered-producers --split-input-file | FileCheck %s

// A quantizer (elementwise: x / scale of its row) whose result only a
// copy gathers (here in reversed column order, past the end zero): the
// copy computes each element from x and the scales at the gathered
// indices, and the quantizer and its tensor are gone.
// CHECK-LABEL: func.func @quantize_gathered
//  CHECK-SAME:     (%[[X:.+]]: tensor<?x16xf16>, %[[SCALES:.+]]: tensor<?xf32>)
//   CHECK-NOT:   arith.divf
//       CHECK:   linalg.generic
//  CHECK-SAME:       outs(%{{.+}} : tensor<?x16xi8>)
//       CHECK:     %[[ROW:.+]] = linalg.index 0
//       CHECK:     %[[COLUMN:.+]] = linalg.index 1
//   CHECK-DAG:     %[[SAFE_ROW:.+]] = arith.select %{{.+}}, %[[ROW]], %{{.+}} : index
//   CHECK-DAG:     %[[REVERSED:.+]] = affine.apply #{{.+}}()[%[[COLUMN]]]
//       CHECK:     %[[ELEMENT:.+]] = tensor.extract %[[X]][%[[SAFE_ROW]], %[[REVERSED]]] : tensor<?x16xf16>
//       CHECK:     %[[SCALE:.+]] = tensor.extract %[[SCALES]][%[[SAFE_ROW]]] : tensor<?xf32>
//       CHECK:     %[[WIDE:.+]] = arith.extf %[[ELEMENT]]
//       CHECK:     %[[SCALED:.+]] = arith.divf %[[WIDE]], %[[SCALE]]
//       CHECK:     %[[Q:.+]] = arith.fptosi %[[SCALED]]
//       CHECK:     %[[KEPT:.+]] = arith.select %{{.+}}, %[[Q]], %{{.+}} : i8
//       CHECK:     linalg.yield %[[KEPT]]
//   CHECK-NOT:   linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @quantize_gathered(%x: tensor<?x16xf16>, %scales: tensor<?xf32>)
    -> tensor<?x16xi8> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i8
  %n = tensor.dim %x, %c0 : tensor<?x16xf16>
  %e = tensor.empty(%n) : tensor<?x16xi8>
  %q = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %scales : tensor<?x16xf16>, tensor<?xf32>) outs(%e : tensor<?x16xi8>) {
  ^bb0(%in: f16, %scale: f32, %out: i8):
    %w = arith.extf %in : f16 to f32
    %s = arith.divf %w, %scale : f32
    %i = arith.fptosi %s : f32 to i8
    linalg.yield %i : i8
  } -> tensor<?x16xi8>
  %rows = tensor.dim %q, %c0 : tensor<?x16xi8>
  %padded = arith.addi %rows, %c0 : index
  %e2 = tensor.empty(%padded) : tensor<?x16xi8>
  %copy = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e2 : tensor<?x16xi8>) {
  ^bb0(%out: i8):
    %r = linalg.index 0 : index
    %c = linalg.index 1 : index
    %reversed = affine.apply affine_map<()[s0] -> (15 - s0)>()[%c]
    %inside = arith.cmpi ult, %r, %rows : index
    %safe = arith.select %inside, %r, %c0 : index
    %v = tensor.extract %q[%safe, %reversed] : tensor<?x16xi8>
    %kept = arith.select %inside, %v, %zero : i8
    linalg.yield %kept : i8
  } -> tensor<?x16xi8>
  return %copy : tensor<?x16xi8>
}

// -----

// The quantized tensor is also an input of another op: storing it once
// stays cheaper than computing it twice, so nothing changes.
// CHECK-LABEL: func.func @negative_also_read_whole
//       CHECK:   %[[Q:.+]] = linalg.generic
//       CHECK:   tensor.extract %[[Q]]
//       CHECK:   return
#map = affine_map<(d0) -> (d0)>
func.func @negative_also_read_whole(%x: tensor<16xf32>) -> (tensor<16xi8>, tensor<16xi8>) {
  %e = tensor.empty() : tensor<16xi8>
  %q = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e : tensor<16xi8>) {
  ^bb0(%in: f32, %out: i8):
    %i = arith.fptosi %in : f32 to i8
    linalg.yield %i : i8
  } -> tensor<16xi8>
  %copy = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]}
      outs(%e : tensor<16xi8>) {
  ^bb0(%out: i8):
    %i = linalg.index 0 : index
    %v = tensor.extract %q[%i] : tensor<16xi8>
    linalg.yield %v : i8
  } -> tensor<16xi8>
  return %q, %copy : tensor<16xi8>, tensor<16xi8>
}

// -----

// A reduction is no elementwise producer; nor is an op that reads its
// output element (an accumulation into it).
// CHECK-LABEL: func.func @negative_not_elementwise
//       CHECK:   %[[SUM:.+]] = linalg.generic
//       CHECK:   %[[ACC:.+]] = linalg.generic
//       CHECK:   tensor.extract %[[SUM]]
//       CHECK:   tensor.extract %[[ACC]]
func.func @negative_not_elementwise(%x: tensor<4x16xf32>, %init: tensor<4xf32>, %i: index) -> (f32, f32) {
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x16xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %acc = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%init : tensor<4xf32>) {
  ^bb0(%out: f32):
    %d = arith.addf %out, %out : f32
    linalg.yield %d : f32
  } -> tensor<4xf32>
  %a = tensor.extract %sum[%i] : tensor<4xf32>
  %b = tensor.extract %acc[%i] : tensor<4xf32>
  return %a, %b : f32, f32
}

// -----

// A gather inside the attention's grid (scf.forall) is the kernel's read
// of an operand: the operand stays computed once, before the grid.
// CHECK-LABEL: func.func @negative_in_grid
//       CHECK:   %[[Q:.+]] = linalg.generic
//       CHECK:   scf.forall
//       CHECK:     tensor.extract %[[Q]]
func.func @negative_in_grid(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.addf %in, %in : f32
    linalg.yield %d : f32
  } -> tensor<16xf32>
  %r = scf.forall (%i) in (16) shared_outs(%o = %e) -> (tensor<16xf32>) {
    %v = tensor.extract %q[%i] : tensor<16xf32>
    %t = tensor.from_elements %v : tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %o[%i] [1] [1] : tensor<1xf32> into tensor<16xf32>
    }
  }
  return %r : tensor<16xf32>
}
