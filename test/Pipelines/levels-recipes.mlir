// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int4-fp8" --sage-decompose-attention --canonicalize --sage-tile-attention --sage-select-mma="chip=sm_89 scope=warp" --sage-assign-fragments --sage-distribute-tiles --convert-sage-to-nvvm | FileCheck %s --check-prefix=INT4
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int8-fp16" --sage-decompose-attention --canonicalize --sage-tile-attention --sage-select-mma="chip=sm_80 scope=warp" --sage-assign-fragments --sage-distribute-tiles --convert-sage-to-nvvm | FileCheck %s --check-prefix=FP16
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int8-fp8-f16acc" --sage-decompose-attention --canonicalize --sage-tile-attention --sage-select-mma="chip=sm_89 scope=warp" --sage-assign-fragments --sage-distribute-tiles --convert-sage-to-nvvm | FileCheck %s --check-prefix=F16ACC

// The recipes on mma.sync go through the distribute level with no code of
// their own: the fragment maps are those of any m16n8kK row (docs/Mma.md).
// Per K/V block of 64 keys, D = 64, each lane issues:
// INT4 Q K^T, one m16n8k64 a key tile; E4M3 P V as for 8+8.
// INT4-COUNT-8: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<s4>{{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 64>
// INT4-COUNT-16: llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e4m3.f32"
//   INT4-NOT: unrealized_conversion_cast

// int8-fp16: f16 P (no key permutation) and V through m16n8k16, 4 chunks.
// FP16-COUNT-16: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<s8>
// FP16-COUNT-32: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>
//   FP16-NOT: unrealized_conversion_cast

// SageAttention2++: P V summed in f16, flushed into the f32 buffer.
// F16ACC-COUNT-16: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<s8>
// F16ACC-COUNT-16: llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.f16.e4m3.e4m3.f16"
//   F16ACC-NOT: unrealized_conversion_cast
