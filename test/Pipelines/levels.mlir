// RUN: sage-opt %S/../../examples/attention.mlir --sage-levels="chip=sm_89" --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s
// RUN: sage-opt %S/../../examples/attention.mlir --sage-levels="chip=sm_89 block-q=128 block-k=128" | FileCheck %s --check-prefix=WIDE
// RUN: not sage-opt %S/../../examples/attention.mlir --sage-levels="chip=sm_70" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHIP

// The README's example through every level of docs/Levels.md, printed
// after each pass: the tiles of sage.qmma / sage.online_softmax /
// sage.accumulate, the instruction each sage.qmma runs, the fragment
// encodings, the lanes' fragment ops, NVVM.
//       CHECK: IR Dump After SageRaiseAttention
//       CHECK:   sage.attention
//       CHECK: IR Dump After SageDecomposeAttention
//       CHECK:   sage.quantized_attention
//       CHECK: IR Dump After SageTileAttention
//       CHECK:   scf.forall
//       CHECK:     scf.for
//       CHECK:       sage.qmma {{.*}} : tensor<64x64xi8>, {{.*}} -> tensor<64x64xf32>
//       CHECK:       sage.online_softmax {{.*}} : tensor<64x64xf32>, tensor<64xf32>
//       CHECK:       sage.accumulate {{.*}} : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xf32>
//       CHECK: IR Dump After SageSelectMma
//       CHECK:   sage.qmma {{.*}}mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8
//       CHECK: IR Dump After SageAssignFragments
//       CHECK:   sage.online_softmax {{.*}} : tensor<64x64xf32, #acc_fragment{{.*}}>, tensor<64xf32, #row_fragment>
//       CHECK: IR Dump After SageDistributeTiles
//       CHECK:   sage.warp_mma {{.*}} : vector<16xi8>, vector<8xi8> -> vector<4xi32>
//       CHECK:   sage.online_softmax {{.*}} : vector<32xf32>, vector<2xf32>
//       CHECK:   sage.accumulate {{.*}} : vector<32xf32>, vector<2xf32> -> vector<32xf32>
//       CHECK: IR Dump After ConvertSageToNVVM
//       CHECK:   nvvm.mma.sync
//       CHECK:   llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e4m3.f32"

// Tiles of 128 queries and 128 keys: 8 warps of 16 rows, each lane with
// the same 32 output accumulators and 16 x 2 Q K^T MMAs a block.
//       WIDE: scf.for {{.*}} -> (vector<32xf32>, vector<2xf32>, vector<2xf32>)
// WIDE-COUNT-32: nvvm.mma.sync
//   WIDE-NOT: nvvm.mma.sync
//       WIDE: scf.yield

// A chip without these MMAs is refused at the instruction choice.
// CHIP: error: 'sage.qmma' op has no MMA instruction on sm_70
