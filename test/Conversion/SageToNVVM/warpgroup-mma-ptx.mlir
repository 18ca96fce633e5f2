// One kernel per warpgroup-scope row of the MMA table (A from shared memory
// or registers; s8 with s32, e4m3 with f32 and f16 accumulators), lowered
// to PTX for sm_90a: each sage.warpgroup_mma is exactly its row's
// wgmma.mma_async (docs/Mma.md), between the fence, commit and wait the
// kernel issues, and ptxas assembles them where it is installed.
// RUN: sage-opt %s --pass-pipeline="builtin.module(gpu.module(convert-sage-to-nvvm,convert-gpu-to-nvvm,convert-nvvm-to-llvm,reconcile-unrealized-casts),nvvm-attach-target{chip=sm_90a features=+ptx80},gpu-module-to-binary{format=isa})" | sage-translate --sage-export-ptx --sage-kernel-module=rows -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.ptx -o %t.cubin %}

// CHECK-LABEL: .entry s8_shared(
//       CHECK:   wgmma.fence.sync.aligned;
//       CHECK:   wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8 {{\{(%r[0-9]+, ){63}%r[0-9]+[}]}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p;
//       CHECK:   wgmma.commit_group.sync.aligned;
//       CHECK:   wgmma.wait_group.sync.aligned 0;
// CHECK-LABEL: .entry s8_registers(
//       CHECK:   wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8 {{\{(%r[0-9]+, ){63}%r[0-9]+[}]}}, {{\{(%r[0-9]+, ){3}%r[0-9]+[}]}}, %rd{{[0-9]+}}, %p{{[0-9]+}};
// CHECK-LABEL: .entry e4m3_f32_registers(
//       CHECK:   wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 {{\{(%r[0-9]+, ){31}%r[0-9]+[}]}}, {{\{(%r[0-9]+, ){3}%r[0-9]+[}]}}, %rd{{[0-9]+}}, %p{{[0-9]+}}, 1, 1;
// CHECK-LABEL: .entry e4m3_f16_shared(
//       CHECK:   wgmma.mma_async.sync.aligned.m64n64k32.f16.e4m3.e4m3 {{\{(%r[0-9]+, ){15}%r[0-9]+[}]}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1;

#s8 = #sage.mma<scope = warpgroup, m = 64, n = 128, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>
#s8r = #sage.mma<scope = warpgroup, m = 64, n = 128, k = 32, a = i8, a_source = registers, b = i8, b_source = shared, acc = i32, scales = none>
#e4r = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = shared, acc = f32, scales = none>
#e4h = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = f8E4M3FN, a_source = shared, b = f8E4M3FN, b_source = shared, acc = f16, scales = none>

module attributes {gpu.container_module} {
  gpu.module @rows {
    gpu.func @s8_shared(%da: i64, %db: i64, %c: vector<64xi32>, %out: !llvm.ptr<1>) kernel {
      nvvm.wgmma.fence.aligned
      %d = sage.warpgroup_mma %da, %db, %c {mma = #s8} : i64 -> vector<64xi32>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      llvm.store %d, %out : vector<64xi32>, !llvm.ptr<1>
      gpu.return
    }
    gpu.func @s8_registers(%aw: vector<4xi32>, %db: i64, %c: vector<64xi32>, %out: !llvm.ptr<1>) kernel {
      %a = vector.bitcast %aw : vector<4xi32> to vector<16xi8>
      nvvm.wgmma.fence.aligned
      %d = sage.warpgroup_mma %a, %db, %c {mma = #s8r} : vector<16xi8> -> vector<64xi32>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      llvm.store %d, %out : vector<64xi32>, !llvm.ptr<1>
      gpu.return
    }
    gpu.func @e4m3_f32_registers(%aw: vector<4xi32>, %db: i64, %c: vector<32xf32>, %out: !llvm.ptr<1>) kernel {
      %a = vector.bitcast %aw : vector<4xi32> to vector<16xf8E4M3FN>
      nvvm.wgmma.fence.aligned
      %d = sage.warpgroup_mma %a, %db, %c {mma = #e4r} : vector<16xf8E4M3FN> -> vector<32xf32>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      llvm.store %d, %out : vector<32xf32>, !llvm.ptr<1>
      gpu.return
    }
    gpu.func @e4m3_f16_shared(%da: i64, %db: i64, %c: vector<32xf16>, %out: !llvm.ptr<1>) kernel {
      nvvm.wgmma.fence.aligned
      %d = sage.warpgroup_mma %da, %db, %c {mma = #e4h} : i64 -> vector<32xf16>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      llvm.store %d, %out : vector<32xf16>, !llvm.ptr<1>
      gpu.return
    }
  }
}
