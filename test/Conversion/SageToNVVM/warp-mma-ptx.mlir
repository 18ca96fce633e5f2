// One kernel per warp-scope row of the MMA table, lowered to PTX: each
// sage.warp_mma is exactly the instruction string of its row (docs/Mma.md),
// and ptxas assembles it for the row's oldest chip where it is installed.
// RUN: sage-opt %s --pass-pipeline="builtin.module(gpu.module(convert-sage-to-nvvm,convert-gpu-to-nvvm,reconcile-unrealized-casts),nvvm-attach-target{chip=sm_89 features=+ptx87},gpu-module-to-binary{format=isa})" | sage-translate --sage-export-ptx --sage-kernel-module=rows -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_89 %t.ptx -o %t.cubin %}

// CHECK-LABEL: .entry s8(
//       CHECK:   mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
// CHECK-LABEL: .entry s4(
//       CHECK:   mma.sync.aligned.m16n8k64.row.col.satfinite.s32.s4.s4.s32
// CHECK-LABEL: .entry e4m3_f32(
//       CHECK:   mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// CHECK-LABEL: .entry e4m3_f16(
//       CHECK:   mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16
// CHECK-LABEL: .entry f16_f32(
//       CHECK:   mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-LABEL: .entry f16_f16(
//       CHECK:   mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16

#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
#s4 = #sage.mma<scope = warp, m = 16, n = 8, k = 64, a = i4, a_source = registers, b = i4, b_source = registers, acc = i32, scales = none>
#e4m3 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = registers, acc = f32, scales = none>
#e4m3h = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = registers, acc = f16, scales = none>
#f16 = #sage.mma<scope = warp, m = 16, n = 8, k = 16, a = f16, a_source = registers, b = f16, b_source = registers, acc = f32, scales = none>
#f16h = #sage.mma<scope = warp, m = 16, n = 8, k = 16, a = f16, a_source = registers, b = f16, b_source = registers, acc = f16, scales = none>

module attributes {gpu.container_module} {
  gpu.module @rows {
    gpu.func @s8(%aw: vector<4xi32>, %bw: vector<2xi32>, %c: vector<4xi32>, %out: !llvm.ptr<1>) kernel {
      %a = vector.bitcast %aw : vector<4xi32> to vector<16xi8>
      %b = vector.bitcast %bw : vector<2xi32> to vector<8xi8>
      %d = sage.warp_mma %a, %b, %c {mma = #s8} : vector<16xi8>, vector<8xi8> -> vector<4xi32>
      llvm.store %d, %out : vector<4xi32>, !llvm.ptr<1>
      gpu.return
    }
    gpu.func @s4(%aw: vector<4xi32>, %bw: vector<2xi32>, %c: vector<4xi32>, %out: !llvm.ptr<1>) kernel {
      %a = vector.bitcast %aw : vector<4xi32> to vector<32xi4>
      %b = vector.bitcast %bw : vector<2xi32> to vector<16xi4>
      %d = sage.warp_mma %a, %b, %c {mma = #s4} : vector<32xi4>, vector<16xi4> -> vector<4xi32>
      llvm.store %d, %out : vector<4xi32>, !llvm.ptr<1>
      gpu.return
    }
    gpu.func @e4m3_f32(%aw: vector<4xi32>, %bw: vector<2xi32>, %c: vector<4xf32>, %out: !llvm.ptr<1>) kernel {
      %a = vector.bitcast %aw : vector<4xi32> to vector<16xf8E4M3FN>
      %b = vector.bitcast %bw : vector<2xi32> to vector<8xf8E4M3FN>
      %d = sage.warp_mma %a, %b, %c {mma = #e4m3} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
      llvm.store %d, %out : vector<4xf32>, !llvm.ptr<1>
      gpu.return
    }
    gpu.func @e4m3_f16(%aw: vector<4xi32>, %bw: vector<2xi32>, %c: vector<4xf16>, %out: !llvm.ptr<1>) kernel {
      %a = vector.bitcast %aw : vector<4xi32> to vector<16xf8E4M3FN>
      %b = vector.bitcast %bw : vector<2xi32> to vector<8xf8E4M3FN>
      %d = sage.warp_mma %a, %b, %c {mma = #e4m3h} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf16>
      llvm.store %d, %out : vector<4xf16>, !llvm.ptr<1>
      gpu.return
    }
    gpu.func @f16_f32(%a: vector<8xf16>, %b: vector<4xf16>, %c: vector<4xf32>, %out: !llvm.ptr<1>) kernel {
      %d = sage.warp_mma %a, %b, %c {mma = #f16} : vector<8xf16>, vector<4xf16> -> vector<4xf32>
      llvm.store %d, %out : vector<4xf32>, !llvm.ptr<1>
      gpu.return
    }
    gpu.func @f16_f16(%a: vector<8xf16>, %b: vector<4xf16>, %c: vector<4xf16>, %out: !llvm.ptr<1>) kernel {
      %d = sage.warp_mma %a, %b, %c {mma = #f16h} : vector<8xf16>, vector<4xf16> -> vector<4xf16>
      llvm.store %d, %out : vector<4xf16>, !llvm.ptr<1>
      gpu.return
    }
  }
}
