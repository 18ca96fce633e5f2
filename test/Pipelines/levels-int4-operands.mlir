// RUN: sage-opt %s --sage-levels="chip=sm_89" -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: sage-translate %t.mlir --sage-export-ptx --sage-kernel-module=attention_int4_kernel -o %t.ptx
// RUN: grep -o 'mma.sync[a-z0-9.]*' %t.ptx | sort | uniq -c | FileCheck %s --check-prefix=PTX
// RUN: %if ptxas %{ %ptxas -arch=sm_89 %t.ptx -o %t.cubin %}

// 4+8 from quantized operands (the CPU model's or another framework's):
// i4 Q and K arrive packed, two values a byte, so after sage-pack-int4
// (docs/Levels.md, "INT4") the host function takes their bytes, D / 2 a
// token, and the kernel issues one m16n8k64 s4 MMA a key tile.
// CHECK-LABEL: func.func @attention_int4(
//  CHECK-SAME:     %{{.*}}: memref<?x?x?x32xi8>, %{{.*}}: memref<?x?x?x1xf32>, %{{.*}}: memref<?x?x?x32xi8>,
//       CHECK:   gpu.launch_func
// PTX: 16 mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// PTX: 8 mma.sync.aligned.m16n8k64.row.col.satfinite.s32.s4.s4.s32
func.func @attention_int4(%q: tensor<?x?x?x64xi4>, %q_scales: tensor<?x?x?x1xf32>,
                     %k: tensor<?x?x?x64xi4>, %k_scales: tensor<?x?x?x1xf32>,
                     %v: tensor<?x?x64x?x32xf8E4M3FN>, %v_scales: tensor<?x?x1x64xf32>,
                     %q_means: tensor<?x?x?x64xf32>, %k_raw: tensor<?x?x?x64xf16>,
                     %k_mean: tensor<?x?x1x64xf32>, %out: memref<?x?x?x64xf16>)
    attributes {llvm.emit_c_interface} {
  %o = sage.quantized_attention q(%q, %q_scales) k(%k, %k_scales) v(%v, %v_scales)
      q_smooth(%q_means, %k_raw) k_smooth(%k_mean)
      {q_quant = #sage.quant<i4, per_thread, operand = a, block = 64, warp = 16>,
       k_quant = #sage.quant<i4, per_thread, operand = b, block = 64>,
       v_quant = #sage.quant<f8E4M3FN, per_channel>,
       p_quant = #sage.quant<f8E4M3FN, per_tensor>,
       pv_accum = #sage.accum<f32>,
       v_layout = #sage.mma_ordered<along = tokens, k = 32, order = accumulator>,
       scale = 0.125 : f64}
      : (tensor<?x?x?x64xi4>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi4>, tensor<?x?x?x1xf32>,
         tensor<?x?x64x?x32xf8E4M3FN>, tensor<?x?x1x64xf32>, tensor<?x?x?x64xf32>,
         tensor<?x?x?x64xf16>, tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16>
  bufferization.materialize_in_destination %o in restrict writable %out
      : (tensor<?x?x?x64xf16>, memref<?x?x?x64xf16>) -> ()
  return
}
