//===- Passes.td - sage transformation passes --------------*- tablegen -*-===//

#ifndef SAGE_TRANSFORMS_PASSES_TD
#define SAGE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def SageRaiseAttention : Pass<"sage-raise-attention"> {
  let summary = "Raise generic attention into sage.attention";
  let description = [{
    Finds attention spelled out in upstream dialects and rewrites it into one
    `sage.attention` carrying `recipe`, only where the result is the same
    computation. Recognized today (linalg on tensors):

      S = Q * K^T   linalg.batch_matmul / linalg.matmul, K transposed through
                    the indexing maps or by a linalg.transpose
      S = S * c     optional: an elementwise multiply or divide by a constant
                    (linalg.generic, linalg.mul / linalg.div with a filled or
                    splat operand)
      P = softmax(S) linalg.softmax over the key dimension
      P = cast(P)   optional elementwise extf / truncf
      O = P * V     linalg.batch_matmul / linalg.matmul

    The roles of the operands are inferred from the contractions' indexing
    maps. Left alone: softmax over another dimension; scores or
    probabilities with other users (the result must stay exact); feature
    dimensions that are not static. With `explain`, each candidate that is
    left alone gets a remark saying why.
  }];
  let dependentDialects = [
    "::mlir::sage::SageDialect",
    "::mlir::tensor::TensorDialect"
  ];
  let options = [
    Option<"variant", "variant", "std::string", /*default=*/"\"int8-fp8\"",
           "Recipe variant: int8-fp8, int4-fp8, int8-fp8-f16acc, "
           "int4-fp8-f16acc or nvfp4">,
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Emit a remark on each candidate that is not raised, saying why">
  ];
}

def SageDecomposeAttention : Pass<"sage-decompose-attention"> {
  let summary = "Make the smoothing and quantization steps of sage.attention explicit";
  let description = [{
    Rewrites each `sage.attention` into the steps its recipe names, on
    `[batch, heads, tokens, features]` tensors (rank-3 operands get a unit
    heads dimension):

      K:  sage.smooth (global mean)        -> sage.quantize (per_thread b)
      Q:  sage.smooth (per Q block)        -> sage.quantize (per_thread a)
      V:  [sage.smooth (global mean)]      -> sage.quantize (per_channel E4M3)
      sage.quantized_attention (the online-softmax loop over K/V blocks)

    The granularities follow the recipe's `qk` key; the tile sizes are the
    pass options and become the quantization groups. An attention that
    cannot be decomposed (a mask, an LSE result, a layout whose two
    innermost dimensions are not tokens and features, the nvfp4 variant) is
    an error naming the reason.
  }];
  let dependentDialects = [
    "::mlir::sage::SageDialect",
    "::mlir::tensor::TensorDialect"
  ];
  let options = [
    Option<"blockQ", "block-q", "int64_t", /*default=*/"64",
           "Query rows per Q block (one CTA)">,
    Option<"warpQ", "warp-q", "int64_t", /*default=*/"16",
           "Query rows per warp">,
    Option<"blockK", "block-k", "int64_t", /*default=*/"64",
           "Key/value tokens per K/V block">
  ];
}

#endif // SAGE_TRANSFORMS_PASSES_TD
