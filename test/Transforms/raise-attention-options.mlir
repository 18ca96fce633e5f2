// RUN: not sage-opt %s --sage-raise-attention="variant=int9-fp8" 2>&1 | FileCheck %s

// CHECK: error: unknown variant 'int9-fp8'; expected int8-fp8, int4-fp8, int8-fp8-f16acc, int4-fp8-f16acc, nvfp4, int8-fp16 or int8-fp16-f16acc
func.func @empty() {
  return
}
