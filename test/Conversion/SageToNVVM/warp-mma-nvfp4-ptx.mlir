// The block-scaled NVFP4 row, lowered to PTX for sm_120a (the only chip that
// has it; LLVM aborts elsewhere, docs/Mma.md): the instruction string of its
// row, assembled by ptxas where it is installed. No sm_120 GPU is at hand,
// so only the assembly is checked.
// RUN: sage-opt %s --pass-pipeline="builtin.module(gpu.module(convert-sage-to-nvvm,convert-gpu-to-nvvm,reconcile-unrealized-casts),nvvm-attach-target{chip=sm_120a features=+ptx87},gpu-module-to-binary{format=isa})" | sage-translate --sage-export-ptx --sage-kernel-module=nvfp4 -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_120a %t.ptx -o %t.cubin %}

// CHECK: .target sm_120a
// CHECK-LABEL: .entry nvfp4(
//       CHECK:   mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3

module attributes {gpu.container_module} {
  gpu.module @nvfp4 {
    gpu.func @nvfp4(%aw: vector<4xi32>, %bw: vector<2xi32>, %c: vector<4xf32>, %sa: i32, %sb: i32, %out: !llvm.ptr<1>) kernel {
      %a = vector.bitcast %aw : vector<4xi32> to vector<32xf4E2M1FN>
      %b = vector.bitcast %bw : vector<2xi32> to vector<16xf4E2M1FN>
      %d = sage.warp_mma %a, %b, %c scales(%sa, %sb) {mma = #sage.mma<scope = warp, m = 16, n = 8, k = 64, a = f4E2M1FN, a_source = registers, b = f4E2M1FN, b_source = registers, acc = f32, scales = ue4m3_block16>} : vector<32xf4E2M1FN>, vector<16xf4E2M1FN> -> vector<4xf32>
      llvm.store %d, %out : vector<4xf32>, !llvm.ptr<1>
      gpu.return
    }
  }
}
