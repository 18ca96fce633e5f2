//===- Passes.td - sage conversion passes ------------------*- tablegen -*-===//

#ifndef SAGE_CONVERSION_PASSES_TD
#define SAGE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertSageToGPU : Pass<"convert-sage-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Compile decomposed sage attention into GPU kernels and a launch plan";
  let description = [{
    Turns each function that computes one decomposed attention (the
    `sage.smooth` / `sage.quantize` ops feeding a `sage.quantized_attention`
    on the function's arguments) into a `gpu.module` of SIMT kernels and a
    launch plan (docs/LaunchPlan.md), recorded in the module's
    `sage.launch_plans` dictionary under the kernel module's name. The
    function itself is removed: its host side is the plan, executed by
    `sage-run` or any CUDA Driver API client.

    Kernels: token sums for the K / V means, the V channel maxima, INT8
    per-thread quantization of K and Q (with Q block means), E4M3 V
    transposed into the key order of the PV mma.sync, and the attention
    kernel (mma.sync m16n8k32 s8 for Q K^T, e4m3 with an f32 accumulator
    for P V, FP32 buffer per K/V block). What is not implemented yet (INT4,
    f16 accumulation, other tile sizes, masks) is an error naming it.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect"
  ];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target GPU (sm_89, sm_90, sm_90a, sm_100a, sm_120a, ...)">
  ];
}

#endif // SAGE_CONVERSION_PASSES_TD
