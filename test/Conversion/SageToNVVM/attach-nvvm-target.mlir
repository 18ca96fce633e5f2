// Each kernel module gets the PTX ISA version its MMA rows need
// (docs/Mma.md): the chip's default, raised by an instruction that needs
// more (the f16-accumulator FP8 mma.sync: 8.7).
// RUN: sage-opt %s --split-input-file --verify-diagnostics --sage-attach-nvvm-target="chip=sm_89" | FileCheck %s
// RUN: sage-opt %s --split-input-file --verify-diagnostics --sage-attach-nvvm-target="chip=sm_120a O=1" | FileCheck %s --check-prefix=SM120

#e4m3 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = registers, acc = f32, scales = none>
#e4m3h = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = registers, acc = f16, scales = none>

// CHECK-LABEL: gpu.module @f32_accumulator
//  CHECK-SAME:   [#nvvm.target<O = 3, chip = "sm_89", features = "+ptx84">]
// CHECK-LABEL: gpu.module @f16_accumulator
//  CHECK-SAME:   [#nvvm.target<O = 3, chip = "sm_89", features = "+ptx87">]
// CHECK-LABEL: gpu.module @no_mma
//  CHECK-SAME:   [#nvvm.target<O = 3, chip = "sm_89", features = "+ptx84">]
// SM120-LABEL: gpu.module @f32_accumulator
//  SM120-SAME:   [#nvvm.target<O = 1, chip = "sm_120a", features = "+ptx87">]
module attributes {gpu.container_module} {
  gpu.module @f32_accumulator {
    gpu.func @pv(%a: vector<16xf8E4M3FN>, %b: vector<8xf8E4M3FN>, %c: vector<4xf32>, %out: !llvm.ptr<1>) kernel {
      %d = sage.warp_mma %a, %b, %c {mma = #e4m3} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
      llvm.store %d, %out : vector<4xf32>, !llvm.ptr<1>
      gpu.return
    }
  }
  gpu.module @f16_accumulator {
    gpu.func @pv(%a: vector<16xf8E4M3FN>, %b: vector<8xf8E4M3FN>, %c: vector<4xf16>, %out: !llvm.ptr<1>) kernel {
      %d = sage.warp_mma %a, %b, %c {mma = #e4m3h} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf16>
      llvm.store %d, %out : vector<4xf16>, !llvm.ptr<1>
      gpu.return
    }
  }
  gpu.module @no_mma {
    gpu.func @empty() kernel {
      gpu.return
    }
  }
}

// -----

#s8 = #sage.mma<scope = warpgroup, m = 64, n = 128, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>

// An instruction the chip cannot run is refused, naming both.
module attributes {gpu.container_module} {
  gpu.module @negative_chip {
    gpu.func @qk(%da: i64, %db: i64, %out: !llvm.ptr<1>) kernel {
      // expected-error@+1 {{'sage.warpgroup_mma' op wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8 needs sm_90a; the kernels are compiled for sm_}}
      %d = sage.warpgroup_mma %da, %db {mma = #s8} : i64 -> vector<64xi32>
      llvm.store %d, %out : vector<64xi32>, !llvm.ptr<1>
      gpu.return
    }
  }
}
