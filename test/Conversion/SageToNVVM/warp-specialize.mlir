// RUN: sage-opt %s --convert-sage-to-nvvm | FileCheck %s
// RUN: not sage-opt %S/Inputs/warp-specialize-invalid.mlir -split-input-file --convert-sage-to-nvvm 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: sage-opt %s --pass-pipeline="builtin.module(gpu.module(convert-sage-to-nvvm,convert-scf-to-cf,convert-gpu-to-nvvm,convert-nvvm-to-llvm,reconcile-unrealized-casts),nvvm-attach-target{chip=sm_90a features=+ptx80},gpu-module-to-binary{format=isa})" | sage-translate --sage-export-ptx --sage-kernel-module=kernels -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.ptx -o %t.cubin %}

// A producer warpgroup and two consumer warpgroups: 384 threads start with
// 65536 / 384 = 170, so 168 registers each; the producer gives registers
// back (setmaxnreg.dec 40), the consumers take them (setmaxnreg.inc 232),
// and the kernel gets the launch bounds ptxas needs to honour them.

// CHECK-LABEL: gpu.func @roles(
//  CHECK-SAME:   nvvm.minctasm = 1 : i32
//       CHECK:   %[[TID:.*]] = arith.index_castui %{{.*}} : index to i32
//       CHECK:   %[[PRODUCER:.*]] = arith.cmpi ult, %[[TID]], %c128_i32
//       CHECK:   scf.if %[[PRODUCER]] {
//  CHECK-NEXT:     nvvm.setmaxregister decrease 40
//  CHECK-NEXT:     llvm.store %[[TID]], %arg0
//  CHECK-NEXT:   }
//       CHECK:   %[[CONSUMER:.*]] = arith.cmpi uge, %[[TID]], %c128_i32
//       CHECK:   scf.if %[[CONSUMER]] {
//  CHECK-NEXT:     nvvm.setmaxregister increase 232
//  CHECK-NEXT:     %[[CTHREAD:.*]] = arith.subi %[[TID]], %c128_i32
//  CHECK-NEXT:     %[[AT:.*]] = llvm.getelementptr %arg0[%[[CTHREAD]]]
//  CHECK-NEXT:     llvm.store %[[CTHREAD]], %[[AT]]
//  CHECK-NEXT:   }
//   CHECK-NOT:   sage.warp_specialize

// Budgets that let two CTAs share an SM (128 * 24 + 256 * 104 registers,
// twice, fit 65536): minctasm = 2, so a thread starts with 65536 / 768 = 85,
// i.e. 80 registers, and the producer's 128 * 56 registers make 24 more for
// each consumer thread.
// CHECK-LABEL: gpu.func @two_ctas(
//  CHECK-SAME:   nvvm.minctasm = 2 : i32
//       CHECK:   nvvm.setmaxregister decrease 24
//       CHECK:   nvvm.setmaxregister increase 104

// PTX-LABEL: .entry roles(
//       PTX: .maxntid 384, 1, 1
//       PTX: .minnctapersm 1
//       PTX: setmaxnreg.dec.sync.aligned.u32 40;
//       PTX: setmaxnreg.inc.sync.aligned.u32 232;
// PTX-LABEL: .entry two_ctas(
//       PTX: .minnctapersm 2
//       PTX: setmaxnreg.dec.sync.aligned.u32 24;
//       PTX: setmaxnreg.inc.sync.aligned.u32 104;
gpu.module @kernels {
  gpu.func @roles(%out: !llvm.ptr<1>) kernel attributes {known_block_size = array<i32: 384, 1, 1>, nvvm.maxntid = array<i32: 384, 1, 1>} {
    sage.warp_specialize warps = [4, 8] registers = [40, 232] {
    ^bb0(%thread: i32):
      llvm.store %thread, %out : i32, !llvm.ptr<1>
    }, {
    ^bb0(%thread: i32):
      %at = llvm.getelementptr %out[%thread] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      llvm.store %thread, %at : i32, !llvm.ptr<1>
    }
    gpu.return
  }
  gpu.func @two_ctas(%out: !llvm.ptr<1>) kernel attributes {known_block_size = array<i32: 384, 1, 1>, nvvm.maxntid = array<i32: 384, 1, 1>} {
    sage.warp_specialize warps = [4, 8] registers = [24, 104] {
    ^bb0(%thread: i32):
      llvm.store %thread, %out : i32, !llvm.ptr<1>
    }, {
    ^bb0(%thread: i32):
      %at = llvm.getelementptr %out[%thread] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      llvm.store %thread, %at : i32, !llvm.ptr<1>
    }
    gpu.return
  }
}

// NEGATIVE: error: 'sage.warp_specialize' op must be inside a kernel (gpu.func ... kernel): setmaxnreg needs the kernel's launch bounds
// NEGATIVE: error: 'sage.warp_specialize' op holds 1 CTAs an SM with its register budgets, but the kernel asks for nvvm.minctasm = 4

