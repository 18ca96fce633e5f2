// REQUIRES: sage-plugin
// Upstream mlir-opt 22 (Debian's, linking libMLIR.so) runs sage from
// SagePlugin.so: the dialect plugin parses and prints sage IR, the pass
// plugin raises the README's example and compiles it with the sage-to-ptx
// pipeline, to the same PTX as sage-opt's (docs/Plugin.md).
//
// RUN: mlir-opt %s --load-dialect-plugin=%sage_plugin | FileCheck %s --check-prefix=DIALECT
// RUN: mlir-opt %S/../../examples/attention.mlir --load-dialect-plugin=%sage_plugin \
// RUN:   --load-pass-plugin=%sage_plugin --pass-pipeline="builtin.module(sage-raise-attention)" \
// RUN:   | FileCheck %s --check-prefix=RAISE
// RUN: mlir-opt %S/../../examples/attention.mlir --load-dialect-plugin=%sage_plugin \
// RUN:   --load-pass-plugin=%sage_plugin \
// RUN:   --pass-pipeline="builtin.module(sage-raise-attention,sage-to-ptx{chip=sm_90})" \
// RUN:   -o %t.plugin.mlir
// RUN: FileCheck %s --check-prefix=PTX < %t.plugin.mlir
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention \
// RUN:   --sage-to-ptx=chip=sm_90 -o %t.sage.mlir
// RUN: sage-translate --sage-export-ptx %t.plugin.mlir -o %t.plugin.ptx
// RUN: sage-translate --sage-export-ptx %t.sage.mlir -o %t.sage.ptx
// RUN: diff %t.plugin.ptx %t.sage.ptx
// RUN: not mlir-opt %s 2>&1 | FileCheck %s --check-prefix=NO-PLUGIN

// DIALECT-LABEL: func.func @bhnd
//       DIALECT: sage.attention %{{.*}}, %{{.*}}, %{{.*}} {causal, layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
// NO-PLUGIN: error: Dialect `sage' not found for custom op 'sage.attention'
func.func @bhnd(%q: tensor<1x2x64x64xf16>) -> tensor<1x2x64x64xf16> {
  %o = sage.attention %q, %q, %q {layout = #sage.layout<[batch, heads, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8">, causal}
    : (tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>) -> tensor<1x2x64x64xf16>
  return %o : tensor<1x2x64x64xf16>
}

// RAISE-LABEL: func.func @attention
//       RAISE: %[[O:.*]] = sage.attention %arg0, %arg1, %arg2 {layout = #sage.layout<[batch, tokens, features]>, recipe = #sage.recipe<"int8-fp8">, scale = 1.250000e-01 : f64}
//       RAISE: return %[[O]]

// PTX: sage.launch_plans = {attention = {
// PTX: gpu.binary @attention
// PTX-SAME: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
