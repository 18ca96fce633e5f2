// The tcgen05 rows (sm_100a), lowered to PTX: each instruction string of
// the table with its instruction descriptor, assembled by ptxas where it is
// installed (PTX ISA 8.8: LLVM cannot select the block-scaled kinds
// below it, docs/Mma.md). No sm_100 GPU is at hand, so only the assembly
// is checked.
// RUN: sage-opt %s --pass-pipeline="builtin.module(gpu.module(convert-sage-to-nvvm,convert-gpu-to-nvvm,reconcile-unrealized-casts),nvvm-attach-target{chip=sm_100a features=+ptx88},gpu-module-to-binary{format=isa})" | sage-translate --sage-export-ptx --sage-kernel-module=tcgen05 -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_100a %t.ptx -o %t.cubin %}

// Descriptors, by hand from the PTX ISA's tables:
// i8 128x64: D s32 (2 << 4) | A s8 (1 << 7) | B s8 (1 << 10) | N / 8 << 17 | M / 16 << 24 = 0x081004A0
// f8f6f4 128x128: D f32 (1 << 4) | E4M3 0 | 16 << 17 | 8 << 24 = 0x08200010
// mxf4nvf4 128x64: A, B E2M1 (1 << 7, 1 << 10) | 8 << 17 | M / 128 << 27 = 0x08100480
// CHECK: .target sm_100a
// CHECK-LABEL: .entry tcgen05(
//       CHECK:   mov.b32 %[[I8:r[0-9]+]], 135267488;
//       CHECK:   tcgen05.mma.cta_group::1.kind::i8.collector::a::discard [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %[[I8]], %p{{[0-9]+}};
//       CHECK:   tcgen05.mma.cta_group::1.kind::i8.collector::a::discard [%r{{[0-9]+}}], [%r{{[0-9]+}}], %rd{{[0-9]+}}, %[[I8]], %p{{[0-9]+}};
//       CHECK:   mov.b32 %[[F8:r[0-9]+]], 136314896;
//       CHECK:   tcgen05.mma.cta_group::1.kind::f8f6f4.collector::a::discard [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %[[F8]], %p{{[0-9]+}};
//       CHECK:   mov.b32 %[[FP4:r[0-9]+]], 135267456;
//       CHECK:   tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16.collector::a::discard [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %[[FP4]], [%r{{[0-9]+}}], [%r{{[0-9]+}}], %p{{[0-9]+}};

module attributes {gpu.container_module} {
  gpu.module @tcgen05 {
    gpu.func @tcgen05(%d: i32, %ta: i32, %sa: i32, %sb: i32, %descA: i64, %descB: i64, %accumulate: i1) kernel {
      sage.tcgen05_mma %d, %descA, %descB, %accumulate {mma = #sage.mma<scope = tcgen05, m = 128, n = 64, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>} : i64
      sage.tcgen05_mma %d, %ta, %descB, %accumulate {mma = #sage.mma<scope = tcgen05, m = 128, n = 64, k = 32, a = i8, a_source = tensor_memory, b = i8, b_source = shared, acc = i32, scales = none>} : i32
      sage.tcgen05_mma %d, %descA, %descB, %accumulate {mma = #sage.mma<scope = tcgen05, m = 128, n = 128, k = 32, a = f8E4M3FN, a_source = shared, b = f8E4M3FN, b_source = shared, acc = f32, scales = none>} : i64
      sage.tcgen05_mma %d, %descA, %descB, %accumulate scales(%sa, %sb) {mma = #sage.mma<scope = tcgen05, m = 128, n = 64, k = 64, a = f4E2M1FN, a_source = shared, b = f4E2M1FN, b_source = shared, acc = f32, scales = ue4m3_block16>} : i64
      gpu.return
    }
  }
}
