// RUN: sage-opt %s --convert-sage-to-nvvm | FileCheck %s

// convert-sage-to-nvvm (L5): sage.tcgen05_mma becomes the one NVVM op of its
// row, cta_group::1, with the row's instruction descriptor as a constant
// (tcgen05-mma-ptx.mlir derives the values) and the i32 tensor-memory
// addresses as !llvm.ptr<6>.

// CHECK-LABEL: func @tcgen05
//  CHECK-SAME: (%[[D:.*]]: i32, %[[TA:.*]]: i32, %[[SA:.*]]: i32, %[[SB:.*]]: i32, %[[A:.*]]: i64, %[[B:.*]]: i64, %[[ACC:.*]]: i1)
//   CHECK-DAG:   %[[NVFP4:.*]] = llvm.mlir.constant(135267456 : i32) : i32
//   CHECK-DAG:   %[[I8:.*]] = llvm.mlir.constant(135267488 : i32) : i32
//       CHECK:   %[[DPTR:.*]] = llvm.inttoptr %[[D]] : i32 to !llvm.ptr<6>
//  CHECK-NEXT:   %[[TAPTR:.*]] = llvm.inttoptr %[[TA]] : i32 to !llvm.ptr<6>
//  CHECK-NEXT:   nvvm.tcgen05.mma %[[DPTR]], %[[TAPTR]], %[[B]], %[[I8]], %[[ACC]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<i8>}
//       CHECK:   %[[SAPTR:.*]] = llvm.inttoptr %[[SA]] : i32 to !llvm.ptr<6>
//  CHECK-NEXT:   %[[SBPTR:.*]] = llvm.inttoptr %[[SB]] : i32 to !llvm.ptr<6>
//  CHECK-NEXT:   nvvm.tcgen05.mma.block_scale %{{.*}}, %[[A]], %[[B]], %[[NVFP4]], %[[ACC]], %[[SAPTR]], %[[SBPTR]] {blockScale = #nvvm.tcgen05_mma_block_scale<block16>, ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.block_scale_kind<mxf4nvf4>}
//   CHECK-NOT:   sage.tcgen05_mma
func.func @tcgen05(%d: i32, %ta: i32, %sa: i32, %sb: i32, %a: i64, %b: i64, %acc: i1) {
  sage.tcgen05_mma %d, %ta, %b, %acc {mma = #sage.mma<scope = tcgen05, m = 128, n = 64, k = 32, a = i8, a_source = tensor_memory, b = i8, b_source = shared, acc = i32, scales = none>} : i32
  sage.tcgen05_mma %d, %a, %b, %acc scales(%sa, %sb) {mma = #sage.mma<scope = tcgen05, m = 128, n = 64, k = 64, a = f4E2M1FN, a_source = shared, b = f4E2M1FN, b_source = shared, acc = f32, scales = ue4m3_block16>} : i64
  return
}

// f8f6f4, N = 256: D f32, E4M3 A and B, N / 8 = 32 at bit 17, M / 16 = 8 at
// bit 24: 0x08400010.
// CHECK-LABEL: func @f8f6f4_n256
//       CHECK:   %[[DESC:.*]] = llvm.mlir.constant(138412048 : i32) : i32
//       CHECK:   nvvm.tcgen05.mma %{{.*}}, %{{.*}}, %{{.*}}, %[[DESC]], %{{.*}} {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f8f6f4>}
func.func @f8f6f4_n256(%d: i32, %a: i64, %b: i64, %acc: i1) {
  sage.tcgen05_mma %d, %a, %b, %acc {mma = #sage.mma<scope = tcgen05, m = 128, n = 256, k = 32, a = f8E4M3FN, a_source = shared, b = f8E4M3FN, b_source = shared, acc = f32, scales = none>} : i64
  return
}
