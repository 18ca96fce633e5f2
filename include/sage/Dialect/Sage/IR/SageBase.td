//===- SageBase.td - sage dialect definition ---------------*- tablegen -*-===//
//
// The sage dialect: SageAttention-style quantized attention.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_DIALECT_SAGE_IR_SAGEBASE_TD
#define SAGE_DIALECT_SAGE_IR_SAGEBASE_TD

include "mlir/IR/OpBase.td"

def Sage_Dialect : Dialect {
  let name = "sage";
  let cppNamespace = "::mlir::sage";
  let summary = "SageAttention-style quantized attention";
  let description = [{
    The `sage` dialect describes attention computed with the quantization
    recipes of SageAttention2, SageAttention2++ and SageAttention3: smoothing
    of Q, K and V (mean subtraction), fine-grained INT8 / INT4 quantization of
    Q and K, FP8 (E4M3) probabilities and values with two-level accumulation,
    and NVFP4 microscaling.

    It sits at two levels:

    * `sage.attention` is a tensor-level op, as produced by
      `--sage-raise-attention` from upstream forms (linalg today; torch-mlir,
      IREE and StableHLO-style chains later). It carries the whole recipe as
      an attribute, so one op is one kernel choice.
    * The building blocks (`sage.smooth`, `sage.quantize`, `sage.dequantize`,
      `sage.qmma`, `sage.online_softmax`, `sage.accumulate`) are what the
      decomposition of `sage.attention` produces; they sit above tiling and
      above the NVGPU / NVVM lowering, on tensors whose two trailing
      dimensions are `[tokens, features]`.

    Element formats are builtin types (`i8`, `i4`, `f8E4M3FN`, `f8E5M2`,
    `f4E2M1FN`); scales are `f32`, `f8E4M3FN` or `f8E8M0FNU`. The rules that
    tie them together live in the attribute verifiers, so passes can rely on
    every attribute they meet being legal.
  }];
  // The fragment level's shared-memory operands are LLVM pointers.
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Registers the attributes, where their storage classes are defined.
    void registerAttributes();
    /// Registers the types, where their storage classes are defined.
    void registerTypes();
  }];
}

class Sage_Op<string mnemonic, list<Trait> traits = []>
    : Op<Sage_Dialect, mnemonic, traits>;

#endif // SAGE_DIALECT_SAGE_IR_SAGEBASE_TD
