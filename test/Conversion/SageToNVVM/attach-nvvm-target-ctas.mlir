// The CTAs an SM must hold (nvvm.minctasm): ctas-per-sm for every kernel
// without one; narrow-wgmma-ctas-per-sm for a kernel left without one
// whose wgmmas are all at most 64 columns wide and whose known block size
// is at most 256 threads (the levels' wgmma kernel at D = 64); a kernel's
// own nvvm.minctasm stays.
// RUN: sage-opt %s --sage-attach-nvvm-target="chip=sm_90a narrow-wgmma-ctas-per-sm=2" | FileCheck %s --check-prefix=NARROW
// RUN: sage-opt %s --sage-attach-nvvm-target="chip=sm_90a ctas-per-sm=3 narrow-wgmma-ctas-per-sm=2" | FileCheck %s --check-prefix=ALL
// RUN: sage-opt %s --sage-attach-nvvm-target="chip=sm_90a" | FileCheck %s --check-prefix=NONE

// NARROW-LABEL: gpu.func @narrow
//  NARROW-SAME:   nvvm.minctasm = 2 : i32
// NARROW-LABEL: gpu.func @wide
//   NARROW-NOT:   nvvm.minctasm
// NARROW-LABEL: gpu.func @no_wgmma
//   NARROW-NOT:   nvvm.minctasm
// NARROW-LABEL: gpu.func @own
//  NARROW-SAME:   nvvm.minctasm = 1 : i32
// NARROW-LABEL: gpu.func @four_warpgroups
//   NARROW-NOT:   nvvm.minctasm
// NARROW-LABEL: gpu.func @unknown_size
//   NARROW-NOT:   nvvm.minctasm
//    ALL-LABEL: gpu.func @narrow
//     ALL-SAME:   nvvm.minctasm = 3 : i32
//    ALL-LABEL: gpu.func @wide
//     ALL-SAME:   nvvm.minctasm = 3 : i32
//    ALL-LABEL: gpu.func @no_wgmma
//     ALL-SAME:   nvvm.minctasm = 3 : i32
//    ALL-LABEL: gpu.func @own
//     ALL-SAME:   nvvm.minctasm = 1 : i32
//   NONE-LABEL: gpu.func @narrow
//     NONE-NOT:   nvvm.minctasm
//   NONE-LABEL: gpu.func @own
#n64 = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>
#n128 = #sage.mma<scope = warpgroup, m = 64, n = 128, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @narrow(%da: i64, %db: i64, %out: !llvm.ptr<1>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %d = sage.warpgroup_mma %da, %db {mma = #n64} : i64 -> vector<32xi32>
      llvm.store %d, %out : vector<32xi32>, !llvm.ptr<1>
      gpu.return
    }
    gpu.func @wide(%da: i64, %db: i64, %out: !llvm.ptr<1>) kernel {
      %s = sage.warpgroup_mma %da, %db {mma = #n64} : i64 -> vector<32xi32>
      %d = sage.warpgroup_mma %da, %db {mma = #n128} : i64 -> vector<64xi32>
      llvm.store %s, %out : vector<32xi32>, !llvm.ptr<1>
      llvm.store %d, %out : vector<64xi32>, !llvm.ptr<1>
      gpu.return
    }
    gpu.func @no_wgmma(%out: !llvm.ptr<1>) kernel {
      gpu.return
    }
    gpu.func @own(%da: i64, %db: i64, %out: !llvm.ptr<1>) kernel attributes {known_block_size = array<i32: 256, 1, 1>, nvvm.minctasm = 1 : i32} {
      %d = sage.warpgroup_mma %da, %db {mma = #n64} : i64 -> vector<32xi32>
      llvm.store %d, %out : vector<32xi32>, !llvm.ptr<1>
      gpu.return
    }
    gpu.func @four_warpgroups(%da: i64, %db: i64, %out: !llvm.ptr<1>) kernel
        attributes {known_block_size = array<i32: 512, 1, 1>} {
      %d = sage.warpgroup_mma %da, %db {mma = #n64} : i64 -> vector<32xi32>
      llvm.store %d, %out : vector<32xi32>, !llvm.ptr<1>
      gpu.return
    }
    gpu.func @unknown_size(%da: i64, %db: i64, %out: !llvm.ptr<1>) kernel {
      %d = sage.warpgroup_mma %da, %db {mma = #n64} : i64 -> vector<32xi32>
      llvm.store %d, %out : vector<32xi32>, !llvm.ptr<1>
      gpu.return
    }
  }
}
