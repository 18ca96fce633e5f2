//===- Recipe.h - Quantized attention recipes -------------------*- C++ -*-===//
//
// A Recipe fixes every numerical choice of a quantized attention kernel:
// formats, granularity, smoothing, static ranges, accumulator and tiles.
// Named presets match the compiler's variant names.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_REFERENCE_RECIPE_H
#define SAGE_REFERENCE_RECIPE_H

#include "sage/Reference/Formats.h"
#include "sage/Reference/Problem.h"
#include "sage/Reference/Quantize.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sage::ref {

/// Format of the quantized Q and K.
enum class QKFormat {
  Int8,  ///< Symmetric INT8, exact int32 products (m16n8k32 .s8).
  Int4,  ///< Symmetric INT4 in [-7, 7] (m16n8k64 .s4).
  NvFp4, ///< E2M1 with an E4M3 scale per 1x16 block along D.
};

/// Format of the quantized P~ and V.
enum class PVFormat {
  E4M3,  ///< FP8 E4M3: P_hat = P~ * P_r, V per channel over V_r.
  E5M2,  ///< FP8 E5M2, same scheme.
  Int8,  ///< INT8: P_hat = rne(P~ * P_r) with P_r = 127, V per channel.
  Fp16,  ///< int8-fp16: P~ and V rounded to f16; V scaled per channel
         ///< into V_r only for the f16 accumulator (int8-fp16-f16acc).
  NvFp4, ///< SageAttention3: two-level P, V microscaled along tokens.
};

/// How the PV product is accumulated.
enum class PVAccumulator {
  /// Each K/V block's R_ij in the MMA accumulator (FP22 for FP8), then added
  /// into an f32 buffer: O = diag(alpha) O + R_ij.
  F32PerBlock,
  /// f16 MMA accumulator flushed into the f32 buffer every f16FlushEvery
  /// MMAs (SageAttention2++).
  F16Delayed,
};

/// Every numerical choice of a quantized attention kernel.
struct Recipe {
  QKFormat qkFormat = QKFormat::Int8;
  /// Scale groups of Q (operand A) and K (operand B); ignored for NvFp4.
  Granularity granularity = Granularity::PerThread;
  bool smoothQ = true;
  bool smoothK = true;
  bool smoothV = false;
  PVFormat pvFormat = PVFormat::E4M3;
  /// Static scale of P~: P_hat = P~ * pRange (unused for Fp16 and NvFp4).
  float pRange = 448.0f;
  /// Per-channel range of V: delta_V[d] = max|V[:,d]| / vRange.
  float vRange = 448.0f;
  PVAccumulator accumulator = PVAccumulator::F32PerBlock;
  /// MMAs between flushes of the f16 accumulator (F16Delayed only).
  int f16FlushEvery = 2;
  /// Q rows per CTA (b_q).
  int64_t blockQ = 128;
  /// Q rows per warp.
  int64_t warpRows = 32;
  /// K/V tokens per block (b_k).
  int64_t blockK = 64;
  Causal causal = Causal::None;
  /// Softmax scale; 0 selects 1/sqrt(D).
  double scale = 0.0;
  /// Format the output is rounded to (the kernel's O dtype).
  ElementFormat outputFormat = ElementFormat::F32;
};

/// The variant names recipeFromVariantName accepts.
constexpr std::array<std::string_view, 7> kVariantNames = {
    "int8-fp8", "int4-fp8",  "int8-fp8-f16acc", "int4-fp8-f16acc",
    "nvfp4",    "int8-fp16", "int8-fp16-f16acc"};

/// Returns the preset for a compiler variant name, or nullopt if unknown:
///  - int8-fp8 / int4-fp8: INT8 / INT4 QK per thread, smooth Q and K, E4M3
///    P and V (P_r = V_r = 448), FP22 per block into an f32 buffer;
///  - *-f16acc: the same with P_r = 224, V_r = 4.5 and the f16 accumulator
///    flushed every 2 MMAs;
///  - nvfp4: NVFP4 QK after K smoothing, NVFP4 P (two-level) and V, f32
///    accumulation;
///  - int8-fp16: INT8 QK as int8-fp8, P~ and V rounded to f16, each K/V
///    block's f16 MMAs summed in f32 and added to the buffer (sm_80);
///  - int8-fp16-f16acc: the same with V scaled per channel into V_r = 1023
///    and the f16 accumulator flushed every 2 MMAs.
std::optional<Recipe> recipeFromVariantName(std::string_view name);

/// Returns an empty string if \p recipe is consistent, otherwise a message
/// saying what is wrong with expected and actual values (lowercase, no
/// trailing period).
std::string validateRecipe(const Recipe &recipe);

/// Returns the default static range of P~ and V for \p format: 448 for E4M3,
/// 57344 for E5M2, 127 for Int8, 1 otherwise.
float defaultRange(PVFormat format);

/// Returns a short lowercase name, for tables.
const char *toString(QKFormat format);
/// Returns a short lowercase name, for tables.
const char *toString(PVFormat format);
/// Returns the IR spelling (per_thread, ...), for tables.
const char *toString(Granularity granularity);

} // namespace sage::ref

#endif // SAGE_REFERENCE_RECIPE_H
