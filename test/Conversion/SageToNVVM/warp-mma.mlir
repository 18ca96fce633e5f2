// RUN: sage-opt %s --convert-sage-to-nvvm | FileCheck %s

// convert-sage-to-nvvm (L5): each sage.warp_mma becomes the one instruction
// its #sage.mma row names; the fragments become its registers.

#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
#s4 = #sage.mma<scope = warp, m = 16, n = 8, k = 64, a = i4, a_source = registers, b = i4, b_source = registers, acc = i32, scales = none>
#e4m3 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = registers, acc = f32, scales = none>
#e4m3h = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = registers, acc = f16, scales = none>
#f16 = #sage.mma<scope = warp, m = 16, n = 8, k = 16, a = f16, a_source = registers, b = f16, b_source = registers, acc = f32, scales = none>
#f16h = #sage.mma<scope = warp, m = 16, n = 8, k = 16, a = f16, a_source = registers, b = f16, b_source = registers, acc = f16, scales = none>

// s8: four words of A, two of B, four i32 accumulators; the integer sum wraps.
// CHECK-LABEL: func @s8
//  CHECK-SAME: (%[[A:.*]]: vector<16xi8>, %[[B:.*]]: vector<8xi8>, %[[C:.*]]: vector<4xi32>)
//   CHECK-DAG:   %[[AW:.*]] = vector.bitcast %[[A]] : vector<16xi8> to vector<4xi32>
//   CHECK-DAG:   %[[A0:.*]] = vector.extract %[[AW]][0] : i32 from vector<4xi32>
//   CHECK-DAG:   %[[A3:.*]] = vector.extract %[[AW]][3] : i32 from vector<4xi32>
//   CHECK-DAG:   %[[BW:.*]] = vector.bitcast %[[B]] : vector<8xi8> to vector<2xi32>
//   CHECK-DAG:   %[[B1:.*]] = vector.extract %[[BW]][1] : i32 from vector<2xi32>
//   CHECK-DAG:   %[[C0:.*]] = vector.extract %[[C]][0] : i32 from vector<4xi32>
//       CHECK:   %[[D:.*]] = nvvm.mma.sync A[%[[A0]], {{.*}}, %[[A3]]] B[{{.*}}, %[[B1]]] C[%[[C0]], {{.*}}] {intOverflowBehavior = #nvvm.mma_int_overflow<wrapped>, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<s8>, multiplicandBPtxType = #nvvm.mma_type<s8>, shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
//       CHECK:   %[[D0:.*]] = llvm.extractvalue %[[D]][0]
//       CHECK:   %[[D3:.*]] = llvm.extractvalue %[[D]][3]
//       CHECK:   %[[R:.*]] = vector.from_elements %[[D0]], %{{.*}}, %{{.*}}, %[[D3]] : vector<4xi32>
//       CHECK:   return %[[R]]
//   CHECK-NOT: sage.warp_mma
func.func @s8(%a: vector<16xi8>, %b: vector<8xi8>, %c: vector<4xi32>) -> vector<4xi32> {
  %0 = sage.warp_mma %a, %b, %c {mma = #s8} : vector<16xi8>, vector<8xi8> -> vector<4xi32>
  return %0 : vector<4xi32>
}

// s4: 32 nibbles of A in four words; the table's s4 row is .satfinite.
// CHECK-LABEL: func @s4
//       CHECK:   vector.bitcast %{{.*}} : vector<32xi4> to vector<4xi32>
//       CHECK:   vector.bitcast %{{.*}} : vector<16xi4> to vector<2xi32>
//       CHECK:   nvvm.mma.sync {{.*}} {intOverflowBehavior = #nvvm.mma_int_overflow<satfinite>, {{.*}}multiplicandAPtxType = #nvvm.mma_type<s4>, multiplicandBPtxType = #nvvm.mma_type<s4>, shape = #nvvm.shape<m = 16, n = 8, k = 64>}
func.func @s4(%a: vector<32xi4>, %b: vector<16xi4>, %c: vector<4xi32>) -> vector<4xi32> {
  %0 = sage.warp_mma %a, %b, %c {mma = #s4} : vector<32xi4>, vector<16xi4> -> vector<4xi32>
  return %0 : vector<4xi32>
}

// e4m3 with an f32 accumulator: the LLVM intrinsic, as nvvm.mma.sync
// rejects e4m3.
// CHECK-LABEL: func @e4m3_f32
//       CHECK:   %[[AW:.*]] = vector.bitcast %{{.*}} : vector<16xf8E4M3FN> to vector<4xi32>
//       CHECK:   %[[D:.*]] = llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e4m3.f32"({{.*}}) : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
//       CHECK:   vector.from_elements {{.*}} : vector<4xf32>
func.func @e4m3_f32(%a: vector<16xf8E4M3FN>, %b: vector<8xf8E4M3FN>, %c: vector<4xf32>) -> vector<4xf32> {
  %0 = sage.warp_mma %a, %b, %c {mma = #e4m3} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
  return %0 : vector<4xf32>
}

// e4m3 with an f16 accumulator: two registers of two halves each.
// CHECK-LABEL: func @e4m3_f16
//  CHECK-SAME: %[[C:[^:]*]]: vector<4xf16>
//   CHECK-DAG:   %[[C0:.*]] = vector.shuffle %[[C]], %[[C]] [0, 1] : vector<4xf16>, vector<4xf16>
//   CHECK-DAG:   %[[C1:.*]] = vector.shuffle %[[C]], %[[C]] [2, 3] : vector<4xf16>, vector<4xf16>
//       CHECK:   %[[D:.*]] = llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.f16.e4m3.e4m3.f16"({{.*}}, %[[C0]], %[[C1]]) : (i32, i32, i32, i32, i32, i32, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
//       CHECK:   %[[D0:.*]] = llvm.extractvalue %[[D]][0]
//       CHECK:   %[[D1:.*]] = llvm.extractvalue %[[D]][1]
//       CHECK:   vector.shuffle %[[D0]], %[[D1]] [0, 1, 2, 3] : vector<2xf16>, vector<2xf16>
func.func @e4m3_f16(%a: vector<16xf8E4M3FN>, %b: vector<8xf8E4M3FN>, %c: vector<4xf16>) -> vector<4xf16> {
  %0 = sage.warp_mma %a, %b, %c {mma = #e4m3h} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf16>
  return %0 : vector<4xf16>
}

// f16 operands are pairs of halves, as NVVM types them.
// CHECK-LABEL: func @f16_f32
//       CHECK:   vector.shuffle %{{.*}}, %{{.*}} [6, 7] : vector<8xf16>, vector<8xf16>
//       CHECK:   nvvm.mma.sync {{.*}} {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
func.func @f16_f32(%a: vector<8xf16>, %b: vector<4xf16>, %c: vector<4xf32>) -> vector<4xf32> {
  %0 = sage.warp_mma %a, %b, %c {mma = #f16} : vector<8xf16>, vector<4xf16> -> vector<4xf32>
  return %0 : vector<4xf32>
}

// CHECK-LABEL: func @f16_f16
//       CHECK:   nvvm.mma.sync {{.*}} : (vector<2xf16>, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
func.func @f16_f16(%a: vector<8xf16>, %b: vector<4xf16>, %c: vector<4xf16>) -> vector<4xf16> {
  %0 = sage.warp_mma %a, %b, %c {mma = #f16h} : vector<8xf16>, vector<4xf16> -> vector<4xf16>
  return %0 : vector<4xf16>
}

// NVFP4 (sm_120a): nvvm.mma.block_scale with the lane's scale registers and
// the op's selectors as i16 constants.
// CHECK-LABEL: func @nvfp4
//  CHECK-SAME: %[[SA:[^:]*]]: i32, %[[SB:[^:]*]]: i32)
//   CHECK-DAG:   %[[ZERO:.*]] = llvm.mlir.constant(0 : i16) : i16
//   CHECK-DAG:   %[[ONE:.*]] = llvm.mlir.constant(1 : i16) : i16
//   CHECK-DAG:   vector.bitcast %{{.*}} : vector<32xf4E2M1FN> to vector<4xi32>
//   CHECK-DAG:   vector.bitcast %{{.*}} : vector<16xf4E2M1FN> to vector<2xi32>
//       CHECK:   nvvm.mma.block_scale A[{{.*}}] B[{{.*}}] C[{{.*}}] scaleA[%[[SA]], %[[ZERO]], %[[ONE]]] scaleB[%[[SB]], %[[ZERO]], %[[ZERO]]] {blockScaleFormat = #nvvm.block_scale_format<ue4m3>, kind = #nvvm.block_scale_kind<mxf4nvf4>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, scaleVecSize = #nvvm.scale_vec_size<x4>, shape = #nvvm.shape<m = 16, n = 8, k = 64>}
func.func @nvfp4(%a: vector<32xf4E2M1FN>, %b: vector<16xf4E2M1FN>, %c: vector<4xf32>, %sa: i32, %sb: i32) -> vector<4xf32> {
  %0 = sage.warp_mma %a, %b, %c scales(%sa, %sb) {mma = #sage.mma<scope = warp, m = 16, n = 8, k = 64, a = f4E2M1FN, a_source = registers, b = f4E2M1FN, b_source = registers, acc = f32, scales = ue4m3_block16>, scale_selectors = array<i32: 0, 1, 0, 0>} : vector<32xf4E2M1FN>, vector<16xf4E2M1FN> -> vector<4xf32>
  return %0 : vector<4xf32>
}

// Fragments built from registers fold back to them: no casts remain.
// CHECK-LABEL: func @from_registers
//  CHECK-SAME: (%[[W0:.*]]: i32, %[[W1:.*]]: i32, %[[W2:.*]]: i32, %[[W3:.*]]: i32, %[[V0:.*]]: i32, %[[V1:.*]]: i32, %[[Z:.*]]: f32)
//   CHECK-NOT:   vector.
//       CHECK:   llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e4m3.f32"(%[[W0]], %[[W1]], %[[W2]], %[[W3]], %[[V0]], %[[V1]], %[[Z]], %[[Z]], %[[Z]], %[[Z]])
//       CHECK:   %[[D2:.*]] = llvm.extractvalue %{{.*}}[2]
//       CHECK:   return %[[D2]]
func.func @from_registers(%w0: i32, %w1: i32, %w2: i32, %w3: i32, %v0: i32, %v1: i32, %z: f32) -> f32 {
  %aw = vector.from_elements %w0, %w1, %w2, %w3 : vector<4xi32>
  %a = vector.bitcast %aw : vector<4xi32> to vector<16xf8E4M3FN>
  %bw = vector.from_elements %v0, %v1 : vector<2xi32>
  %b = vector.bitcast %bw : vector<2xi32> to vector<8xf8E4M3FN>
  %c = vector.from_elements %z, %z, %z, %z : vector<4xf32>
  %d = sage.warp_mma %a, %b, %c {mma = #e4m3} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
  %d2 = vector.extract %d[2] : f32 from vector<4xf32>
  return %d2 : f32
}
