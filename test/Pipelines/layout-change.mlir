// One source of truth for V's token order: the README's example through
// --sage-levels for sm_90a with V's stored key groups in P's accumulator
// order (the default) and in natural order. The attribute
// (v_layout = #sage.mma_ordered<..., order = ...>) changes the quantizer's
// stores (sage-decompose-attention writes position q of group g from key
// 32 g + index(q)) and the kernel's loads with it: in P's order the
// stage-order copy of V^T (sage-store-stage-order) reads positions as they
// are, in natural order it puts them in P's order; the kernel's MMA
// reads the same tile either way. sage-check-levels-wgmma-natural runs
// the natural order on a GPU (test/Integration/GPU/levels-attention.test).
// RUN: sage-opt %S/../../examples/attention.mlir --sage-levels="chip=sm_90a" --mlir-print-ir-after=sage-decompose-attention --mlir-print-ir-after=sage-store-stage-order -o %t.acc.mlir 2>&1 | FileCheck %s --check-prefix=ACC
// RUN: sage-opt %S/../../examples/attention.mlir --sage-levels="chip=sm_90a value-order=natural" --mlir-print-ir-after=sage-decompose-attention --mlir-print-ir-after=sage-store-stage-order -o %t.nat.mlir 2>&1 | FileCheck %s --check-prefix=NAT
// RUN: sage-translate %t.nat.mlir --sage-export-ptx --sage-kernel-module=attention_kernel -o %t.nat.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.nat.ptx -o %t.nat.cubin %}
// RUN: not sage-opt %S/../../examples/attention.mlir --sage-decompose-attention="value-order=diagonal" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// The mma.sync kernel (sm_89) of the quantized input with V given in
// natural order: its V^T tile ([channels, 64 keys], which the lanes read
// in P's order) is stored in P's order before the grid too.
// RUN: sed 's/, order = accumulator//' %S/../Integration/Inputs/levels-attention.mlir | sage-opt --sage-levels="chip=sm_89" --mlir-print-ir-after=sage-store-stage-order -o %t.nat89.mlir 2>&1 | FileCheck %s --check-prefix=NAT89
// RUN: sage-translate %t.nat89.mlir --sage-export-ptx --sage-kernel-module=attention_kernel -o %t.nat89.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_89 %t.nat89.ptx -o %t.nat89.cubin %}

// The quantizer: position q of key group g holds key 32 g + index(q).
//   ACC-LABEL: IR Dump After SageDecomposeAttention
//       ACC: #[[$ACC_KEY:.+]] = affine_map<(d0, d1) -> (d0 * 32 + (d1 floordiv 32) * 32 + ((d1 mod 32) floordiv 16) * 16 + ((d1 mod 4) floordiv 2) * 8 + ((d1 mod 16) floordiv 4) * 2 + d1 mod 2)>
//       ACC: affine.apply #[[$ACC_KEY]]
//       ACC: v_layout = #sage.mma_ordered<along = tokens, k = 32, order = accumulator>
//   NAT-LABEL: IR Dump After SageDecomposeAttention
//       NAT: #[[$NAT_KEY:.+]] = affine_map<(d0, d1) -> (d0 * 32 + d1)>
//       NAT: affine.apply #[[$NAT_KEY]]
//       NAT: v_layout = #sage.mma_ordered<along = tokens, k = 32>

// The kernel's V^T stages: stored by the stage-order copy as the core
// matrices the wgmma reads, the column (d0 * 16 + d2) a stored position in
// P's order, or put in P's order from natural positions.
//   ACC-LABEL: IR Dump After SageStoreStageOrder
//   ACC-NOT: affine_map<(d0, d1, d2) -> ({{.*}}floordiv 32
//       ACC: linalg.generic {{.*}} outs(%{{.*}} : tensor<?x1x?x4x64x16xf8E4M3FN>)
//   NAT-LABEL: IR Dump After SageStoreStageOrder
//       NAT: #[[$P_ORDER:.+]] = affine_map<(d0, d1, d2) -> (((d0 * 16 + d2) floordiv 32) * 32 + (((d0 * 16 + d2) mod 32) floordiv 16) * 16 + ((d2 mod 4) floordiv 2) * 8 + ((d2 mod 16) floordiv 4) * 2 + d2 mod 2)>
//       NAT: linalg.generic {{.*}} outs(%{{.*}} : tensor<?x1x?x4x64x16xf8E4M3FN>)
//       NAT:   affine.apply #[[$P_ORDER]]

//   NAT89-LABEL: IR Dump After SageStoreStageOrder
//         NAT89: #[[$P89:.+]] = affine_map<(d0, d1) -> ((d1 floordiv 32) * 32 + ((d1 mod 32) floordiv 16) * 16 + ((d1 mod 4) floordiv 2) * 8 + ((d1 mod 16) floordiv 4) * 2 + d1 mod 2)>
//         NAT89: linalg.generic {{.*}} outs(%{{.*}} : tensor<?x?x?x64x64xf8E4M3FN>)
//         NAT89:   affine.apply #[[$P89]]

// BAD: error: expected value-order accumulator or natural, got 'diagonal'
