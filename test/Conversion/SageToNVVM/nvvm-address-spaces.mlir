// RUN: sage-opt %s --allow-unregistered-dialect --pass-pipeline="builtin.module(gpu.module(sage-nvvm-address-spaces))" | FileCheck %s

// The GPU dialect's memory spaces in NVVM's numbering, on a kernel's
// workgroup attributions, the values and ops that use them, and attributes
// (docs/Levels.md, L3); memrefs without a memory space stay as they are.
// CHECK-LABEL: gpu.func @kernel
//  CHECK-SAME: (%{{.*}}: memref<4xf32, 1>, %{{.*}}: memref<4xf32>)
//  CHECK-SAME: workgroup(%[[TILE:.*]] : memref<64xf32, 3> {llvm.align = 16 : i64})
//  CHECK-SAME: private(%{{.*}} : memref<2xf32, 5>)
//       CHECK:   %[[VIEW:.*]] = memref.subview %[[TILE]][0] [4] [1] : memref<64xf32, 3> to memref<4xf32, strided<[1]>, 3>
//       CHECK:   vector.transfer_read %[[VIEW]]
//       CHECK:   "test.space"() {space = 3 : i64}
//   CHECK-NOT: #gpu.address_space
gpu.module @kernels {
  gpu.func @kernel(%global: memref<4xf32, #gpu.address_space<global>>, %plain: memref<4xf32>)
      workgroup(%tile : memref<64xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
      private(%mine : memref<2xf32, #gpu.address_space<private>>) kernel {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %view = memref.subview %tile[0] [4] [1] : memref<64xf32, #gpu.address_space<workgroup>> to memref<4xf32, strided<[1]>, #gpu.address_space<workgroup>>
    %v = vector.transfer_read %view[%c0], %zero {in_bounds = [true]} : memref<4xf32, strided<[1]>, #gpu.address_space<workgroup>>, vector<4xf32>
    "test.space"() {space = #gpu.address_space<workgroup>} : () -> ()
    gpu.return
  }
}
