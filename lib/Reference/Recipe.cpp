//===- Recipe.cpp - Quantized attention recipes ---------------------------===//

#include "sage/Reference/Recipe.h"

#include "sage/Reference/Accumulators.h"
#include "sage/Reference/Microscaling.h"

#include <cstdio>

using namespace sage::ref;

std::optional<Recipe> sage::ref::recipeFromVariantName(std::string_view name) {
  Recipe recipe;
  if (name == "int8-fp8")
    return recipe;
  if (name == "int4-fp8") {
    recipe.qkFormat = QKFormat::Int4;
    return recipe;
  }
  if (name == "int8-fp8-f16acc" || name == "int4-fp8-f16acc") {
    recipe.qkFormat = name[3] == '4' ? QKFormat::Int4 : QKFormat::Int8;
    // SageAttention2++: 64 * P_r * V_r = 64 * 1008 fits the f16 range.
    recipe.pRange = 224.0f;
    recipe.vRange = 4.5f;
    recipe.accumulator = PVAccumulator::F16Delayed;
    recipe.f16FlushEvery = 2;
    return recipe;
  }
  if (name == "int8-fp16" || name == "int8-fp16-f16acc") {
    recipe.pvFormat = PVFormat::Fp16;
    recipe.pRange = 1.0f;
    recipe.vRange = 1.0f;
    if (name == "int8-fp16-f16acc") {
      // 32 products of at most 1023 between flushes fit f16.
      recipe.vRange = 1023.0f;
      recipe.accumulator = PVAccumulator::F16Delayed;
      recipe.f16FlushEvery = 2;
    }
    return recipe;
  }
  if (name == "nvfp4") {
    recipe.qkFormat = QKFormat::NvFp4;
    recipe.granularity = Granularity::Microscale;
    recipe.smoothQ = false;
    recipe.pvFormat = PVFormat::NvFp4;
    recipe.pRange = 1.0f;
    recipe.vRange = 1.0f;
    return recipe;
  }
  return std::nullopt;
}

float sage::ref::defaultRange(PVFormat format) {
  switch (format) {
  case PVFormat::E4M3:
    return kE4M3Max;
  case PVFormat::E5M2:
    return kE5M2Max;
  case PVFormat::Int8:
    return static_cast<float>(kInt8Max);
  case PVFormat::Fp16:
  case PVFormat::NvFp4:
    return 1.0f;
  }
  return 1.0f;
}

/// The PV reduction length one MMA consumes, which b_k must be a multiple of.
static int64_t pvMmaK(PVFormat format) {
  switch (format) {
  case PVFormat::E4M3:
  case PVFormat::E5M2:
  case PVFormat::Int8:
    return kFp8MmaK;
  case PVFormat::Fp16:
    return kF16MmaK;
  case PVFormat::NvFp4:
    return kFp4MmaK;
  }
  return 1;
}

/// Formats a diagnostic with printf syntax.
template <typename... Args>
static std::string formatMessage(const char *fmt, Args... args) {
  char buffer[256];
  std::snprintf(buffer, sizeof(buffer), fmt, args...);
  return buffer;
}

std::string sage::ref::validateRecipe(const Recipe &recipe) {
  if (recipe.blockQ <= 0 || recipe.warpRows <= 0 || recipe.blockK <= 0)
    return "block sizes must be positive";
  if (recipe.warpRows % 16 != 0)
    return formatMessage("expected warp rows to be a multiple of 16, got %lld",
                         static_cast<long long>(recipe.warpRows));
  if (recipe.blockQ % recipe.warpRows != 0)
    return formatMessage(
        "expected block q (%lld) to be a multiple of warp rows "
        "(%lld)",
        static_cast<long long>(recipe.blockQ),
        static_cast<long long>(recipe.warpRows));
  int64_t mmaK = pvMmaK(recipe.pvFormat);
  if (recipe.blockK % mmaK != 0)
    return formatMessage(
        "expected block k to be a multiple of %lld for %s pv, got "
        "%lld",
        static_cast<long long>(mmaK), toString(recipe.pvFormat),
        static_cast<long long>(recipe.blockK));
  if (recipe.scale < 0.0)
    return formatMessage("expected a non-negative scale, got %g", recipe.scale);
  if (recipe.qkFormat != QKFormat::NvFp4) {
    Granularity g = recipe.granularity;
    if (g == Granularity::PerChannel || g == Granularity::Microscale)
      return formatMessage(
          "granularity %s cannot scale integer q and k (one scale "
          "per score is needed)",
          toString(g));
  }
  bool scaled = recipe.pvFormat == PVFormat::E4M3 ||
                recipe.pvFormat == PVFormat::E5M2 ||
                recipe.pvFormat == PVFormat::Int8;
  if (scaled) {
    float maxRange = defaultRange(recipe.pvFormat);
    if (!(recipe.pRange > 0.0f && recipe.pRange <= maxRange))
      return formatMessage("expected p range in (0, %g] for %s, got %g",
                           maxRange, toString(recipe.pvFormat), recipe.pRange);
    if (!(recipe.vRange > 0.0f && recipe.vRange <= maxRange))
      return formatMessage("expected v range in (0, %g] for %s, got %g",
                           maxRange, toString(recipe.pvFormat), recipe.vRange);
  }
  if (recipe.accumulator == PVAccumulator::F16Delayed) {
    if (recipe.pvFormat != PVFormat::E4M3 &&
        recipe.pvFormat != PVFormat::E5M2 && recipe.pvFormat != PVFormat::Fp16)
      return formatMessage("the f16 accumulator needs fp8 or f16 p and v, "
                           "got %s",
                           toString(recipe.pvFormat));
    if (recipe.f16FlushEvery < 1)
      return formatMessage("expected f16 flush interval >= 1, got %d",
                           recipe.f16FlushEvery);
    // Each MMA adds at most k * P_r * V_r; flushEvery of them must fit f16.
    double bound = static_cast<double>(mmaK) * recipe.f16FlushEvery *
                   recipe.pRange * recipe.vRange;
    if (bound > kF16Max)
      return formatMessage(
          "expected %lld * flush interval * p range * v range <= "
          "65504, got %g",
          static_cast<long long>(mmaK), bound);
  }
  return std::string();
}

const char *sage::ref::toString(QKFormat format) {
  switch (format) {
  case QKFormat::Int8:
    return "int8";
  case QKFormat::Int4:
    return "int4";
  case QKFormat::NvFp4:
    return "nvfp4";
  }
  return "?";
}

const char *sage::ref::toString(PVFormat format) {
  switch (format) {
  case PVFormat::E4M3:
    return "e4m3";
  case PVFormat::E5M2:
    return "e5m2";
  case PVFormat::Int8:
    return "int8";
  case PVFormat::Fp16:
    return "fp16";
  case PVFormat::NvFp4:
    return "nvfp4";
  }
  return "?";
}

const char *sage::ref::toString(Granularity granularity) {
  switch (granularity) {
  case Granularity::PerTensor:
    return "per_tensor";
  case Granularity::PerBlock:
    return "per_block";
  case Granularity::PerWarp:
    return "per_warp";
  case Granularity::PerThread:
    return "per_thread";
  case Granularity::PerToken:
    return "per_token";
  case Granularity::PerChannel:
    return "per_channel";
  case Granularity::Microscale:
    return "microscale";
  }
  return "?";
}
