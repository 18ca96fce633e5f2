// The kernels convert-sage-to-gpu writes (L4: sage's fragment ops among
// gpu / llvm / nvvm) parse back and round-trip through text and bytecode,
// for each kind of kernel: mma.sync at sm_80 (f16 P V), sm_89 (INT4, FP8
// with an f16 accumulator) and sm_90 (per_block scales), NVFP4 at sm_120a,
// and the wgmma kernel plain, warp-specialized, with softmax overlap and
// with turns between warpgroups.
// RUN: sage-opt %S/int8-fp16.mlir --convert-sage-to-gpu="chip=sm_80" | sage-opt --verify-roundtrip -o /dev/null
// RUN: sage-opt %S/int4.mlir --convert-sage-to-gpu="chip=sm_89" | sage-opt --verify-roundtrip -o /dev/null
// RUN: sage-opt %S/per-block-scales.mlir --convert-sage-to-gpu="chip=sm_90" -split-input-file | sage-opt --verify-roundtrip -split-input-file -o /dev/null
// RUN: sage-opt %S/nvfp4.mlir --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_120a" -split-input-file | sage-opt --verify-roundtrip -split-input-file -o /dev/null
// RUN: sage-opt %S/warpgroup.mlir --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90a mma-scope=warpgroup" | sage-opt --verify-roundtrip -o /dev/null
// RUN: sage-opt %S/warp-specialize-auto.mlir -split-input-file --sage-decompose-attention="block-q=128" --canonicalize --convert-sage-to-gpu="chip=sm_90a" | sage-opt --verify-roundtrip -split-input-file -o /dev/null
// RUN: sage-opt %S/overlap-softmax.mlir --sage-decompose-attention="block-q=64 block-k=64" --canonicalize --convert-sage-to-gpu="chip=sm_90a overlap-softmax=true warp-specialize=true kv-stages=3" | sage-opt --verify-roundtrip -o /dev/null
// RUN: sage-opt %S/warpgroup-turns.mlir --sage-decompose-attention="block-q=192 block-k=128" --canonicalize --convert-sage-to-gpu="chip=sm_90a warpgroup-turns=true" -split-input-file | sage-opt --verify-roundtrip -split-input-file -o /dev/null
