// RUN: sage-opt %s --sage-device-allocations --split-input-file -verify-diagnostics | FileCheck %s

// A buffer the kernels use is allocated on the device and freed before
// the return; the returned one is the caller's.
// CHECK-LABEL: func.func @buffers
//  CHECK-SAME:     (%[[N:.+]]: index)
//       CHECK:   %[[START:.+]] = gpu.wait async
//       CHECK:   %[[TEMP:.+]], %[[ALLOCATED:.+]] = gpu.alloc async [%[[START]]] (%[[N]]) : memref<?xf32>
//       CHECK:   gpu.wait [%[[ALLOCATED]]]
//       CHECK:   %[[START2:.+]] = gpu.wait async
//       CHECK:   %[[OUT:.+]], %[[ALLOCATED2:.+]] = gpu.alloc async [%[[START2]]] (%[[N]]) : memref<?x4xf16>
//       CHECK:   gpu.wait [%[[ALLOCATED2]]]
//       CHECK:   gpu.launch
//       CHECK:   %[[BEFORE:.+]] = gpu.wait async
//       CHECK:   %[[FREED:.+]] = gpu.dealloc async [%[[BEFORE]]] %[[TEMP]] : memref<?xf32>
//       CHECK:   gpu.wait [%[[FREED]]]
//   CHECK-NOT:   gpu.dealloc
//       CHECK:   return %[[OUT]]
func.func @buffers(%n: index) -> memref<?x4xf16> {
  %temp = memref.alloc(%n) : memref<?xf32>
  %out = memref.alloc(%n) {alignment = 64 : i64} : memref<?x4xf16>
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %c1, %g1 = %c1, %g2 = %c1)
             threads(%t0, %t1, %t2) in (%s0 = %c1, %s1 = %c1, %s2 = %c1) {
    %shared = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    memref.store %zero, %temp[%c0] : memref<?xf32>
    gpu.terminator
  }
  return %out : memref<?x4xf16>
}

// -----

func.func @negative_in_branch(%n: index, %c: i1) {
  scf.if %c {
    // expected-error@+1 {{'memref.alloc' op is inside control flow of a host function; its buffer cannot be freed at the return}}
    %temp = memref.alloc(%n) : memref<?xf32>
  }
  return
}
