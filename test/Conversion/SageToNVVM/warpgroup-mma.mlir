// RUN: sage-opt %s --convert-sage-to-nvvm -split-input-file | FileCheck %s

// A from shared memory: upstream's nvvm.wgmma.mma_async on both
// descriptors, the accumulators as its in/out struct (s8: no satfinite,
// the row wraps; layouts row / col, K-major).
// CHECK-LABEL: func @shared_a
//  CHECK-SAME: (%[[DA:.*]]: i64, %[[DB:.*]]: i64
//       CHECK: %[[IN:.*]] = llvm.insertvalue %{{.*}}[63] : !llvm.struct<(i32, {{.*}})>
//       CHECK: %[[OUT:.*]] = nvvm.wgmma.mma_async %[[DA]], %[[DB]], %[[IN]], <m = 64, n = 128, k = 32>, D[<s32>, <one>], A[<s8>, <one>, <row>], B[<s8>, <one>, <col>]
//       CHECK: llvm.extractvalue %[[OUT]][0]
//   CHECK-NOT: sage.warpgroup_mma
#s8 = #sage.mma<scope = warpgroup, m = 64, n = 128, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>
func.func @shared_a(%da: i64, %db: i64, %c: vector<64xi32>) -> vector<64xi32> {
  %0 = sage.warpgroup_mma %da, %db, %c {mma = #s8} : i64 -> vector<64xi32>
  return %0 : vector<64xi32>
}

// -----

// A from registers: the one instruction in inline asm, accumulators tied
// ("=f" outputs, "0".."31" inputs), four A registers, B's descriptor and
// the scale-d predicate (true), then the immediate scales of the FP8 row.
// CHECK-LABEL: func @register_a
//  CHECK-SAME: (%[[A:.*]]: vector<16xf8E4M3FN>, %[[DB:.*]]: i64
//   CHECK-DAG: %[[TRUE:.*]] = llvm.mlir.constant(true) : i1
//   CHECK-DAG: vector.bitcast %[[A]] : vector<16xf8E4M3FN> to vector<4xi32>
//       CHECK: %[[OUT:.*]] = llvm.inline_asm has_side_effects "wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 {$0, {{.*}}, $31}, {$64, $65, $66, $67}, $68, $69, 1, 1;", "{{(=f,)+}}0,1,{{.*}},31,r,r,r,r,l,b" {{.*}}, %[[DB]], %[[TRUE]] : {{.*}} -> !llvm.struct<(f32, {{.*}})>
//       CHECK: llvm.extractvalue %[[OUT]][31]
#e4r = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = shared, acc = f32, scales = none>
func.func @register_a(%a: vector<16xf8E4M3FN>, %db: i64, %c: vector<32xf32>) -> vector<32xf32> {
  %0 = sage.warpgroup_mma %a, %db, %c {mma = #e4r} : vector<16xf8E4M3FN> -> vector<32xf32>
  return %0 : vector<32xf32>
}

// -----

// f16 accumulators travel two to an i32 register and come back as pairs.
// CHECK-LABEL: func @f16_accumulator
//       CHECK: llvm.bitcast %{{.*}} : vector<2xf16> to i32
//       CHECK: nvvm.wgmma.mma_async {{.*}} D[<f16>, <one>], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>] : !llvm.struct<(i32, {{.*}})>
//       CHECK: llvm.bitcast %{{.*}} : i32 to vector<2xf16>
#e4h = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = f8E4M3FN, a_source = shared, b = f8E4M3FN, b_source = shared, acc = f16, scales = none>
func.func @f16_accumulator(%da: i64, %db: i64, %c: vector<32xf16>) -> vector<32xf16> {
  %0 = sage.warpgroup_mma %da, %db, %c {mma = #e4h} : i64 -> vector<32xf16>
  return %0 : vector<32xf16>
}

// -----

// Without an accumulator (a chain's first wgmma, D = A * B): scale-d zero
// on an undefined in/out struct from shared memory; from registers, the
// accumulators are outputs only and the predicate is false, so no
// instruction writes them before the wgmma.
// CHECK-LABEL: func @shared_a_first
//       CHECK: %[[UNDEF:.*]] = llvm.mlir.undef : !llvm.struct<(i32, {{.*}})>
//  CHECK-NEXT: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[UNDEF]], <m = 64, n = 128, k = 32>, D[<s32>, <zero>]
// CHECK-LABEL: func @register_a_first
//       CHECK: %[[FALSE:.*]] = llvm.mlir.constant(false) : i1
//       CHECK: llvm.inline_asm has_side_effects "wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 {$0, {{.*}}, $31}, {$32, $33, $34, $35}, $36, $37, 1, 1;", "{{(=f,)+}}r,r,r,r,l,b" %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[FALSE]] : (i32, i32, i32, i32, i64, i1)
#s8 = #sage.mma<scope = warpgroup, m = 64, n = 128, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>
#e4r = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = shared, acc = f32, scales = none>
func.func @shared_a_first(%da: i64, %db: i64) -> vector<64xi32> {
  %0 = sage.warpgroup_mma %da, %db {mma = #s8} : i64 -> vector<64xi32>
  return %0 : vector<64xi32>
}
func.func @register_a_first(%a: vector<16xf8E4M3FN>, %db: i64) -> vector<32xf32> {
  %0 = sage.warpgroup_mma %a, %db {mma = #e4r} : vector<16xf8E4M3FN> -> vector<32xf32>
  return %0 : vector<32xf32>
}

// -----

// The fence pins its fragments' registers (4-byte words; f16 pairs as i32)
// in an empty side-effecting asm before wgmma.fence; the wait pins them
// after wgmma.wait_group.
// CHECK-LABEL: func @fence_wait
//  CHECK-SAME: (%[[A:.*]]: vector<16xf8E4M3FN>, %[[H:.*]]: vector<4xf16>, %[[S:.*]]: vector<2xf32>)
//       CHECK: vector.bitcast %[[A]] : vector<16xf8E4M3FN> to vector<4xi32>
//       CHECK: llvm.inline_asm has_side_effects "", "=r,=r,=r,=r,0,1,2,3,~{memory}" {{.*}} : (i32, i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
//       CHECK: %[[WORDS:.*]] = vector.from_elements {{.*}} : vector<4xi32>
//       CHECK: %[[PA:.*]] = vector.bitcast %[[WORDS]] : vector<4xi32> to vector<16xf8E4M3FN>
//       CHECK: llvm.inline_asm has_side_effects "", "=r,=r,0,1,~{memory}" {{.*}} : (i32, i32) -> !llvm.struct<(i32, i32)>
//       CHECK: %[[PH:.*]] = vector.shuffle {{.*}} [0, 1, 2, 3] : vector<2xf16>, vector<2xf16>
//  CHECK-NEXT: nvvm.wgmma.fence.aligned
//  CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
//  CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
//  CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
//       CHECK: llvm.inline_asm has_side_effects "", "=f,=f,0,1,~{memory}" {{.*}} : (f32, f32) -> !llvm.struct<(f32, f32)>
//       CHECK: %[[PS:.*]] = vector.from_elements {{.*}} : vector<2xf32>
//       CHECK: return %[[PA]], %[[PH]], %[[PS]]
func.func @fence_wait(%a: vector<16xf8E4M3FN>, %h: vector<4xf16>, %s: vector<2xf32>) -> (vector<16xf8E4M3FN>, vector<4xf16>, vector<2xf32>) {
  %p:2 = sage.warpgroup_fence(%a, %h : vector<16xf8E4M3FN>, vector<4xf16>)
  %g = sage.warpgroup_commit
  %g1 = sage.warpgroup_commit
  %w = sage.warpgroup_wait 1 on %g, %s : vector<2xf32>
  return %p#0, %p#1, %w : vector<16xf8E4M3FN>, vector<4xf16>, vector<2xf32>
}
