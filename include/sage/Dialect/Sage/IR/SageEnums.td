//===- SageEnums.td - sage enumerations --------------------*- tablegen -*-===//

#ifndef SAGE_DIALECT_SAGE_IR_SAGEENUMS_TD
#define SAGE_DIALECT_SAGE_IR_SAGEENUMS_TD

include "mlir/IR/EnumAttr.td"
include "sage/Dialect/Sage/IR/SageBase.td"

def Sage_Granularity : I32EnumAttr<"Granularity",
    "which elements share one quantization scale", [
  I32EnumAttrCase<"PerTensor", 0, "per_tensor">,
  I32EnumAttrCase<"PerBlock", 1, "per_block">,
  I32EnumAttrCase<"PerWarp", 2, "per_warp">,
  I32EnumAttrCase<"PerThread", 3, "per_thread">,
  I32EnumAttrCase<"PerToken", 4, "per_token">,
  I32EnumAttrCase<"PerChannel", 5, "per_channel">,
  I32EnumAttrCase<"Microscale", 6, "microscale">
]> {
  let cppNamespace = "::mlir::sage";
  let genSpecializedAttr = 0;
}

def Sage_MmaOperand : I32EnumAttr<"MmaOperand",
    "which operand of an mma.sync a quantized tensor feeds", [
  I32EnumAttrCase<"A", 0, "a">,
  I32EnumAttrCase<"B", 1, "b">
]> {
  let cppNamespace = "::mlir::sage";
  let genSpecializedAttr = 0;
}

// Spelled like the `variant=` option of the pipeline. The spellings contain
// '-', which is not a keyword character, so they print as strings.
def Sage_Variant : I32EnumAttr<"Variant",
    "a SageAttention quantization recipe", [
  I32EnumAttrCase<"Int8Fp8", 0, "int8-fp8">,
  I32EnumAttrCase<"Int4Fp8", 1, "int4-fp8">,
  I32EnumAttrCase<"Int8Fp8F16Acc", 2, "int8-fp8-f16acc">,
  I32EnumAttrCase<"Int4Fp8F16Acc", 3, "int4-fp8-f16acc">,
  I32EnumAttrCase<"NvFp4", 4, "nvfp4">,
  I32EnumAttrCase<"Int8Fp16", 5, "int8-fp16">,
  I32EnumAttrCase<"Int8Fp16F16Acc", 6, "int8-fp16-f16acc">
]> {
  let cppNamespace = "::mlir::sage";
  let genSpecializedAttr = 0;
  let parameterPrinter =
      "$_printer.printKeywordOrString(stringifyVariant($_self))";
}

def Sage_DimRole : I32EnumAttr<"DimRole",
    "the role of one dimension of an attention operand", [
  I32EnumAttrCase<"Batch", 0, "batch">,
  I32EnumAttrCase<"Heads", 1, "heads">,
  I32EnumAttrCase<"Tokens", 2, "tokens">,
  I32EnumAttrCase<"Features", 3, "features">
]> {
  let cppNamespace = "::mlir::sage";
  let genSpecializedAttr = 0;
}

def Sage_MmaScope : I32EnumAttr<"MmaScope",
    "which threads issue one tensor-core MMA instruction", [
  I32EnumAttrCase<"Warp", 0, "warp">,             // mma.sync
  I32EnumAttrCase<"Warpgroup", 1, "warpgroup">,   // wgmma (sm_90a)
  I32EnumAttrCase<"Tcgen05", 2, "tcgen05">        // tcgen05.mma (sm_100a)
]> {
  let cppNamespace = "::mlir::sage";
  let genSpecializedAttr = 0;
}

def Sage_OperandSource : I32EnumAttr<"OperandSource",
    "where an MMA instruction reads an operand from", [
  I32EnumAttrCase<"Registers", 0, "registers">,
  I32EnumAttrCase<"Shared", 1, "shared">,
  I32EnumAttrCase<"TensorMemory", 2, "tensor_memory">
]> {
  let cppNamespace = "::mlir::sage";
  let genSpecializedAttr = 0;
}

def Sage_MmaScaleKind : I32EnumAttr<"MmaScaleKind",
    "the block scales an MMA instruction applies itself", [
  I32EnumAttrCase<"None", 0, "none">,
  I32EnumAttrCase<"Ue4m3Block16", 1, "ue4m3_block16">,  // NVFP4
  I32EnumAttrCase<"Ue8m0Block32", 2, "ue8m0_block32">   // MX formats
]> {
  let cppNamespace = "::mlir::sage";
  let genSpecializedAttr = 0;
}

def Sage_FragmentOrder : I32EnumAttr<"FragmentOrder",
    "the order of an MMA operand's elements along its contraction axis", [
  I32EnumAttrCase<"Natural", 0, "natural">,
  // The order in which an m16n8 accumulator holds its columns, so that the
  // accumulator of one MMA feeds the A operand of the next from registers.
  I32EnumAttrCase<"Accumulator", 1, "accumulator">
]> {
  let cppNamespace = "::mlir::sage";
  let genSpecializedAttr = 0;
}

// How an operand's rows are laid out in global memory. `core_matrices`
// stores each tile a K/V stage holds in the stage's own byte order, so one
// bulk copy stages it (docs/Layouts.md).
def Sage_OperandTiling : I32EnumAttr<"OperandTiling",
    "how an MMA operand's rows are placed in global memory", [
  I32EnumAttrCase<"Rows", 0, "rows">,
  I32EnumAttrCase<"CoreMatrices", 1, "core_matrices">
]> {
  let cppNamespace = "::mlir::sage";
  let genSpecializedAttr = 0;
}

// Frontends differ when Nq != Nk: FlashAttention and sage's kernels end the
// diagonal at the last key (bottom-right); PyTorch's and JAX's `is_causal`
// start it at the first (top-left).
def Sage_CausalAlignment : I32EnumAttr<"CausalAlignment",
    "the corner of the scores the causal diagonal is aligned to", [
  I32EnumAttrCase<"BottomRight", 0, "bottom_right">,
  I32EnumAttrCase<"TopLeft", 1, "top_left">
]> {
  let cppNamespace = "::mlir::sage";
  let genSpecializedAttr = 0;
}

#endif // SAGE_DIALECT_SAGE_IR_SAGEENUMS_TD
