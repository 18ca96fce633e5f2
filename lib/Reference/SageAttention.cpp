//===- SageAttention.cpp - CPU model of the quantized attention kernel ----===//
//
// Mirrors a sage kernel tile by tile: per (batch, head) the operands are
// smoothed and quantized once, then each Q block runs the online softmax
// over the K/V blocks. Every f32 operation below is one rounding, written in
// the order the kernel performs it; the library is built with
// -ffp-contract=off so the compiler cannot fuse them.
//
//===----------------------------------------------------------------------===//

#include "sage/Reference/Accumulators.h"
#include "sage/Reference/Attention.h"
#include "sage/Reference/Formats.h"
#include "sage/Reference/Microscaling.h"
#include "sage/Reference/Quantize.h"
#include "sage/Reference/Smoothing.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace sage::ref;

static constexpr float kNegInf = -std::numeric_limits<float>::infinity();
static constexpr double kLog2E = 1.4426950408889634;
static constexpr double kLn2 = 0.6931471805599453;
/// log2(e) as the kernels hold it, for the mask's bias.
static constexpr float kLog2EF32 = static_cast<float>(kLog2E);

namespace {
/// Q or K as the QK MMA consumes it.
struct QKOperand {
  /// Integer formats: values [rows x D] and the one scale of each token.
  std::vector<int8_t> ints;
  std::vector<float> tokenScale;
  /// NvFp4: element * block scale, exact in f32, [rows x D].
  std::vector<float> dequant;
};

/// Everything derived from one KV head.
struct KVHead {
  /// The K that is quantized (smoothed if requested), for the dS GEMV.
  std::vector<float> gammaK;
  /// mean(K) removed by K smoothing, empty otherwise.
  std::vector<float> kMean;
  QKOperand k;
  /// Quantized V transposed to [D x Nk], so a channel is contiguous.
  std::vector<float> vHatT;
  /// Per channel: delta_V[d] / P_r (1 for the unscaled formats).
  std::vector<float> vFactor;
  /// mean(V) to add back, empty unless V is smoothed.
  std::vector<float> vMean;
};

/// Everything derived from one query head.
struct QHead {
  QKOperand q;
  /// qbar_i per Q block ([blocks x D]), empty unless Q is smoothed.
  std::vector<float> blockMeans;
};

/// Per-row online-softmax state of one Q block.
struct BlockState {
  std::vector<float> m;
  std::vector<float> l;
  std::vector<float> o;
};
} // namespace

/// Quantizes Q (role A) or K (role B) with the recipe's format and groups.
static QKOperand prepareQK(const float *x, int64_t rows, int64_t dim,
                           const Recipe &recipe, OperandRole role) {
  QKOperand out;
  if (recipe.qkFormat == QKFormat::NvFp4) {
    out.dequant =
        quantizeNvFp4(x, rows, dim, MicroscaleAxis::AlongCols).dequantizedAll();
    return out;
  }
  GroupLayout layout;
  layout.granularity = recipe.granularity;
  layout.role = role;
  layout.blockRows = role == OperandRole::A ? recipe.blockQ : recipe.blockK;
  layout.warpRows = recipe.warpRows;
  int qmax = recipe.qkFormat == QKFormat::Int4 ? kInt4Max : kInt8Max;
  IntQuantized quantized = quantizeInt(x, rows, dim, qmax, layout);
  out.ints = std::move(quantized.values);
  // Every allowed granularity is token-level: one scale per token.
  out.tokenScale.resize(static_cast<size_t>(rows));
  for (int64_t r = 0; r < rows; ++r)
    out.tokenScale[r] = quantized.scaleAt(r, 0);
  return out;
}

/// Quantizes V per channel (or microscales it) and transposes it.
static void prepareV(const float *v, int64_t rows, int64_t dim,
                     const Recipe &recipe, KVHead &head) {
  head.vHatT.assign(static_cast<size_t>(rows * dim), 0.0f);
  head.vFactor.assign(static_cast<size_t>(dim), 1.0f);
  PVFormat format = recipe.pvFormat;
  if (format == PVFormat::NvFp4) {
    // 16x1 blocks over tokens, the reduction dimension of PV, as the MMA's
    // accumulator order groups them (the kernel feeds P from its
    // accumulator registers).
    NvFp4Matrix q =
        quantizeNvFp4(v, rows, dim, MicroscaleAxis::AlongRowsMmaOrder);
    for (int64_t t = 0; t < rows; ++t)
      for (int64_t d = 0; d < dim; ++d)
        head.vHatT[d * rows + t] = q.dequantized(t, d);
    return;
  }
  // f16 V is unscaled (int8-fp16), or, for the f16 accumulator, scaled per
  // channel into V_r like the FP8 formats (int8-fp16-f16acc).
  if (format == PVFormat::Fp16 &&
      recipe.accumulator != PVAccumulator::F16Delayed) {
    for (int64_t t = 0; t < rows; ++t)
      for (int64_t d = 0; d < dim; ++d)
        head.vHatT[d * rows + t] = roundToF16(v[t * dim + d]);
    return;
  }
  for (int64_t d = 0; d < dim; ++d) {
    // delta_V[d] = max|V[:,d]| / V_r, in f32.
    float absMax = 0.0f;
    for (int64_t t = 0; t < rows; ++t)
      absMax = absMaxStep(absMax, v[t * dim + d]);
    float delta = absMax / recipe.vRange;
    // The end of the kernel multiplies by delta_V / P_r.
    head.vFactor[d] = delta / recipe.pRange;
    for (int64_t t = 0; t < rows; ++t) {
      float x = v[t * dim + d];
      float q = 0.0f;
      if (format == PVFormat::Int8)
        q = quantizeToInt(x, delta, kInt8Max);
      else if (delta != 0.0f)
        q = format == PVFormat::E4M3   ? roundToE4M3(x / delta)
            : format == PVFormat::Fp16 ? roundToF16(x / delta)
                                       : roundToE5M2(x / delta);
      head.vHatT[d * rows + t] = q;
    }
  }
}

/// Smooths and quantizes K and V of one KV head.
static KVHead prepareKV(const float *k, const float *v, int64_t rows,
                        int64_t dim, const Recipe &recipe) {
  KVHead head;
  if (recipe.smoothK) {
    SmoothedTokens smoothed = smoothTokens(k, rows, dim);
    head.gammaK = std::move(smoothed.values);
    head.kMean = std::move(smoothed.mean);
  } else {
    head.gammaK.assign(k, k + rows * dim);
  }
  head.k = prepareQK(head.gammaK.data(), rows, dim, recipe, OperandRole::B);
  if (recipe.smoothV) {
    SmoothedTokens smoothed = smoothTokens(v, rows, dim);
    head.vMean = std::move(smoothed.mean);
    prepareV(smoothed.values.data(), rows, dim, recipe, head);
  } else {
    prepareV(v, rows, dim, recipe, head);
  }
  return head;
}

/// Smooths (per Q block) and quantizes one query head. The whole head,
/// even for one row: a per-tensor scale spans every block.
static QHead prepareQ(const float *q, const AttentionShape &shape,
                      const Recipe &recipe) {
  QHead head;
  if (recipe.smoothQ) {
    SmoothedBlocks smoothed =
        smoothBlocks(q, shape.seqQ, shape.headDim, recipe.blockQ);
    head.blockMeans = std::move(smoothed.blockMeans);
    head.q = prepareQK(smoothed.values.data(), shape.seqQ, shape.headDim,
                       recipe, OperandRole::A);
  } else {
    head.q = prepareQK(q, shape.seqQ, shape.headDim, recipe, OperandRole::A);
  }
  return head;
}

/// Returns the Q-smoothing correction dS = qbar gamma(K)^T of Q block
/// \p block over every key (empty without Q smoothing). One block at a
/// time: a head's [blocks x Nk] matrix is a GiB at 128k tokens.
static std::vector<float> blockCorrection(const QHead &q, const KVHead &kv,
                                          int64_t block,
                                          const AttentionShape &shape) {
  if (q.blockMeans.empty())
    return {};
  return smoothingCorrection(q.blockMeans.data() + block * shape.headDim, 1,
                             kv.gammaK.data(), shape.seqK, shape.headDim);
}

/// Fills \p s [rowCount x colCount] with base-2 scores of one tile; masked
/// and padding entries are -inf. \p bias is the head's [Nq x Nk] additive
/// mask (null without one).
static void computeScores(const QKOperand &q, const KVHead &kv,
                          const float *dSRow, const float *bias,
                          const Recipe &recipe, const AttentionShape &shape,
                          float scaleLog2, int64_t r0, int64_t rowCount,
                          int64_t c0, int64_t colCount, std::vector<float> &s) {
  const int64_t dim = shape.headDim;
  const bool isInt = recipe.qkFormat != QKFormat::NvFp4;
  for (int64_t r = 0; r < rowCount; ++r)
    for (int64_t c = 0; c < colCount; ++c) {
      int64_t row = r0 + r, col = c0 + c;
      float &out = s[r * colCount + c];
      if (!isKeyVisible(recipe.causal, row, col, shape.seqQ, shape.seqK)) {
        out = kNegInf;
        continue;
      }
      float score;
      if (isInt) {
        // Integer MMA: exact int32 dot product.
        const int8_t *qi = q.ints.data() + row * dim;
        const int8_t *ki = kv.k.ints.data() + col * dim;
        int32_t acc = 0;
        for (int64_t d = 0; d < dim; ++d)
          acc += static_cast<int32_t>(qi[d]) * static_cast<int32_t>(ki[d]);
        // Dequantize with scale folded in: acc * (sm_scale_log2 * (dq*dk)).
        float dqk = q.tokenScale[row] * kv.k.tokenScale[col];
        score = static_cast<float>(acc) * (scaleLog2 * dqk);
      } else {
        // NVFP4 MMA: exact products of dequantized values, f32 per k64.
        float acc = dotF32(q.dequant.data() + row * dim, 1,
                           kv.k.dequant.data() + col * dim, 1, dim, kFp4MmaK);
        score = acc * scaleLog2;
      }
      // Q-smoothing correction qbar_i . gamma(K_j), in the same base-2 units.
      if (dSRow)
        score = score + dSRow[col] * scaleLog2;
      // The mask's bias, natural log to base 2 (-inf stays -inf, 0 adds
      // nothing).
      if (bias)
        score = score + bias[row * shape.seqK + col] * kLog2EF32;
      out = score;
    }
}

/// Quantizes one row of P~ in place for the FP8/INT8/FP16 formats.
static void quantizeP(float *p, int64_t n, const Recipe &recipe) {
  for (int64_t c = 0; c < n; ++c) {
    // P_hat = P~ * P_r (f32), then the format's conversion.
    float scaled = p[c] * recipe.pRange;
    switch (recipe.pvFormat) {
    case PVFormat::E4M3:
      p[c] = roundToE4M3(scaled);
      break;
    case PVFormat::E5M2:
      p[c] = roundToE5M2(scaled);
      break;
    case PVFormat::Int8:
      // P~ >= 0, so only the upper clamp of the symmetric quantizer applies.
      p[c] = std::min<float>(static_cast<float>(roundHalfToEven(scaled)),
                             static_cast<float>(kInt8Max));
      break;
    case PVFormat::Fp16:
      p[c] = roundToF16(p[c]);
      break;
    case PVFormat::NvFp4:
      break;
    }
  }
}

/// Two-level NVFP4 quantization of one row of P~ (the \p n keys of a K/V
/// block) in place: a per-row f32 scale maps the row max to 448 * 6, then
/// microscaling in blocks of 16 keys grouped as V's (nvfp4KeyBlock).
/// Returns the per-row scale the PV result is multiplied by.
static float quantizePNvFp4(float *p, int64_t n) {
  float rowMax = 0.0f;
  for (int64_t c = 0; c < n; ++c)
    rowMax = std::max(rowMax, p[c]);
  if (rowMax == 0.0f)
    return 0.0f;
  // s_row = rowmax / (448 * 6); P' = P~ / s_row in f32.
  float rowScale = rowMax / (kE4M3Max * kE2M1Max);
  for (int64_t c = 0; c < n; ++c)
    p[c] = p[c] / rowScale;
  // Four blocks a 64-key chunk, the last one partial: block indices do not
  // grow with the key (key 8 is in block 0, key 4 in block 1).
  std::vector<float> absMax(static_cast<size_t>(4 * ((n + 63) / 64)), 0.0f);
  for (int64_t c = 0; c < n; ++c)
    absMax[nvfp4KeyBlock(c)] = std::max(absMax[nvfp4KeyBlock(c)], p[c]);
  for (int64_t c = 0; c < n; ++c) {
    float scale = nvfp4BlockScale(absMax[nvfp4KeyBlock(c)]);
    p[c] = quantizeNvFp4Element(p[c], scale) * scale;
  }
  return rowScale;
}

/// The f16 MMA accumulator flushed into \p buffer every f16FlushEvery MMAs
/// of \p mmaK keys; the first flush rescales the buffer by alpha in the
/// same fma, as the kernel's sage.accumulate does. Returns the buffer.
static float accumulateF16Delayed(const float *p, const float *v,
                                  int64_t colCount, int64_t mmaK, float alpha,
                                  const Recipe &recipe, float buffer) {
  F16DelayedAccumulator acc;
  acc.flushEvery = recipe.f16FlushEvery;
  acc.buffer = buffer;
  acc.rescale = alpha;
  for (int64_t k = 0; k < colCount; k += mmaK)
    acc.addChunk(chunkDot(p + k, 1, v + k, 1, std::min(mmaK, colCount - k)));
  if (acc.pending != 0)
    acc.flush();
  return acc.buffer;
}

/// Rescales the row's f32 buffer \p o by the online softmax's \p alpha and
/// adds R = P_hat V_hat of one row and K/V block, through the recipe's
/// accumulator. \p p holds colCount quantized values for keys c0 ...;
/// \p rowScale is NVFP4's per-row P scale.
static void accumulatePV(const float *p, float rowScale, float alpha,
                         const KVHead &kv, const Recipe &recipe, int64_t seqK,
                         int64_t dim, int64_t c0, int64_t colCount, float *o) {
  for (int64_t d = 0; d < dim; ++d) {
    const float *v = kv.vHatT.data() + d * seqK + c0;
    // O * alpha, rounded, where the accumulator then adds to it.
    float scaled = o[d] * alpha;
    switch (recipe.pvFormat) {
    case PVFormat::Int8:
      // Integer MMA: exact int32 sum, converted exactly to f32.
      o[d] = scaled + static_cast<float>(chunkDot(p, 1, v, 1, colCount));
      break;
    case PVFormat::Fp16:
      if (recipe.accumulator == PVAccumulator::F16Delayed) {
        // As for FP8, in MMAs of 16 keys.
        o[d] =
            accumulateF16Delayed(p, v, colCount, kF16MmaK, alpha, recipe, o[d]);
        break;
      }
      // The block's f16 MMAs summed in f32, then O * alpha + R rounded once,
      // as the kernel's fma (sage.accumulate).
      o[d] = std::fma(o[d], alpha, dotF32(p, 1, v, 1, colCount, kF16MmaK));
      break;
    case PVFormat::NvFp4: {
      // Fresh f32 accumulator per block, rescaled by the per-row P scale,
      // then O * alpha + R rounded once, as the kernel's fma
      // (sage.accumulate).
      float r = dotF32(p, 1, v, 1, colCount, kFp4MmaK);
      o[d] = std::fma(o[d], alpha, r * rowScale);
      break;
    }
    case PVFormat::E4M3:
    case PVFormat::E5M2:
      if (recipe.accumulator == PVAccumulator::F16Delayed) {
        o[d] =
            accumulateF16Delayed(p, v, colCount, kFp8MmaK, alpha, recipe, o[d]);
      } else {
        // Two-level accumulation: R_ij in FP22, then O * alpha + R rounded
        // once, as the kernel's fma (sage.accumulate).
        o[d] = std::fma(o[d], alpha, dotFp22(p, 1, v, 1, colCount, kFp8MmaK));
      }
      break;
    }
  }
}

/// Runs rows [r0, r0 + rowCount) of one (batch, head), a Q block or a
/// part of one, over every K/V block and writes their outputs from \p out
/// (and LSEs from \p lse) on; \p bias is the head's mask (or null). Rows
/// are independent: a row run alone gives the values it gets in its block
/// (the causal blocks its block runs but it cannot see only add exact
/// zeros and scale by exactly 1).
static void runQBlock(const QKOperand &q, const KVHead &kv, const float *dS,
                      const float *bias, const Recipe &recipe,
                      const AttentionShape &shape, float scaleLog2, int64_t r0,
                      int64_t rowCount, float *out, float *lse) {
  const int64_t dim = shape.headDim, seqK = shape.seqK;
  BlockState st;
  st.m.assign(static_cast<size_t>(rowCount), kNegInf);
  st.l.assign(static_cast<size_t>(rowCount), 0.0f);
  st.o.assign(static_cast<size_t>(rowCount * dim), 0.0f);
  std::vector<float> s(static_cast<size_t>(rowCount * recipe.blockK));
  // The last key any row of this block can see (causal blocks beyond it
  // contribute nothing and are skipped, as the kernel does).
  int64_t lastKey =
      recipe.causal != Causal::None
          ? std::min(seqK - 1, r0 + rowCount - 1 +
                                   causalShift(recipe.causal, shape.seqQ, seqK))
          : seqK - 1;
  for (int64_t c0 = 0; c0 <= lastKey; c0 += recipe.blockK) {
    int64_t colCount = std::min(recipe.blockK, seqK - c0);
    computeScores(q, kv, dS, bias, recipe, shape, scaleLog2, r0, rowCount, c0,
                  colCount, s);
    for (int64_t r = 0; r < rowCount; ++r) {
      float *sr = s.data() + r * colCount;
      // m' = max(m, rowmax S); a row that has seen no key yet stays empty.
      float mNew = st.m[r];
      // max.NaN, as the kernel: a NaN score makes the row's max NaN.
      for (int64_t c = 0; c < colCount; ++c)
        mNew = std::isnan(sr[c]) ? sr[c] : std::max(mNew, sr[c]);
      if (mNew == kNegInf)
        continue;
      // alpha = 2^(m - m'): 0 on the first visible block.
      float alpha = std::exp2(st.m[r] - mNew);
      // P~ = 2^(S - m'), masked entries give 0; l sums the f32 P~.
      float rowSum = 0.0f;
      for (int64_t c = 0; c < colCount; ++c) {
        sr[c] = std::exp2(sr[c] - mNew);
        rowSum = rowSum + sr[c];
      }
      st.l[r] = std::fma(st.l[r], alpha, rowSum);
      st.m[r] = mNew;
      float *o = st.o.data() + r * dim;
      float rowScale = 1.0f;
      if (recipe.pvFormat == PVFormat::NvFp4)
        rowScale = quantizePNvFp4(sr, colCount);
      else
        quantizeP(sr, colCount, recipe);
      accumulatePV(sr, rowScale, alpha, kv, recipe, seqK, dim, c0, colCount, o);
    }
  }
  for (int64_t r = 0; r < rowCount; ++r) {
    float *dst = out + r * dim;
    const float *o = st.o.data() + r * dim;
    float l = st.l[r];
    if (lse)
      lse[r] = l > 0.0f
                   ? static_cast<float>(
                         kLn2 * (st.m[r] + std::log2(static_cast<double>(l))))
                   : kNegInf;
    // A row that saw no key outputs 0, never 0/0.
    if (!(l > 0.0f)) {
      std::fill(dst, dst + dim, 0.0f);
      continue;
    }
    // O / l, then * delta_V / P_r, then + mean(V).
    float invL = 1.0f / l;
    for (int64_t d = 0; d < dim; ++d) {
      float x = o[d] * invL;
      x = x * kv.vFactor[d];
      if (!kv.vMean.empty())
        x = x + kv.vMean[d];
      dst[d] = roundToFormat(x, recipe.outputFormat);
    }
  }
}

/// K smoothing drops q_i . mean(K) from every score of row i; softmax does
/// not see it, but the LSE does. Returns \p lse of query row \p q with it
/// added back (in double), an estimate of the true LSE.
static float withDroppedLseTerm(const float *q, const std::vector<float> &kMean,
                                int64_t dim, const Recipe &recipe, float lse) {
  if (std::isinf(lse))
    return lse;
  const double scale = resolveScale(recipe.scale, dim);
  double dot = 0.0;
  for (int64_t d = 0; d < dim; ++d)
    dot += static_cast<double>(q[d]) * kMean[d];
  return static_cast<float>(lse + scale * dot);
}

/// scale * log2(e) folded into one f32 factor, as the kernels do.
static float scaleLog2Of(const Recipe &recipe, int64_t dim) {
  return static_cast<float>(resolveScale(recipe.scale, dim)) *
         static_cast<float>(kLog2E);
}

std::vector<float> sage::ref::sageAttention(const AttentionProblem &problem,
                                            const Recipe &recipe,
                                            std::vector<float> *lse) {
  const AttentionShape &shape = problem.shape;
  if (!shape.isValid() || !problem.mask.fits(shape) ||
      !validateRecipe(recipe).empty())
    return {};
  const int64_t dim = shape.headDim;
  const float scaleLog2 = scaleLog2Of(recipe, dim);
  const int64_t numQBlocks = (shape.seqQ + recipe.blockQ - 1) / recipe.blockQ;
  std::vector<float> out(static_cast<size_t>(shape.qElements()), 0.0f);
  if (lse)
    lse->assign(static_cast<size_t>(shape.queryRows()), 0.0f);
  const int64_t group = shape.headsQ / shape.headsKV;
  for (int64_t b = 0; b < shape.batch; ++b)
    for (int64_t hk = 0; hk < shape.headsKV; ++hk) {
      int64_t kvOff = shape.kvOffset(b, hk);
      KVHead kv = prepareKV(problem.k + kvOff, problem.v + kvOff, shape.seqK,
                            dim, recipe);
      for (int64_t hq = hk * group; hq < (hk + 1) * group; ++hq) {
        const float *qIn = problem.q + shape.qOffset(b, hq);
        const float *bias = problem.mask.slice(shape, b, hq);
        QHead q = prepareQ(qIn, shape, recipe);
        float *o = out.data() + shape.qOffset(b, hq);
        float *rowLse =
            lse ? lse->data() + (b * shape.headsQ + hq) * shape.seqQ : nullptr;
        for (int64_t i = 0; i < numQBlocks; ++i) {
          int64_t r0 = i * recipe.blockQ;
          int64_t rowCount = std::min(recipe.blockQ, shape.seqQ - r0);
          std::vector<float> dS = blockCorrection(q, kv, i, shape);
          runQBlock(q.q, kv, dS.empty() ? nullptr : dS.data(), bias, recipe,
                    shape, scaleLog2, r0, rowCount, o + r0 * dim,
                    rowLse ? rowLse + r0 : nullptr);
        }
        if (rowLse && !kv.kMean.empty())
          for (int64_t i = 0; i < shape.seqQ; ++i)
            rowLse[i] = withDroppedLseTerm(qIn + i * dim, kv.kMean, dim, recipe,
                                           rowLse[i]);
      }
    }
  return out;
}

std::vector<float> sage::ref::sageAttentionRows(
    const AttentionProblem &problem, const Recipe &recipe,
    const std::vector<int64_t> &rows, std::vector<float> *lse) {
  const AttentionShape &shape = problem.shape;
  if (!shape.hasRows(rows) || !problem.mask.fits(shape) ||
      !validateRecipe(recipe).empty())
    return {};
  const int64_t dim = shape.headDim;
  const float scaleLog2 = scaleLog2Of(recipe, dim);
  std::vector<float> out(rows.size() * static_cast<size_t>(dim), 0.0f);
  if (lse)
    lse->assign(rows.size(), 0.0f);
  // Ascending rows visit each KV head, Q head and Q block once (a KV head
  // serves consecutive query heads), in whatever order they were asked.
  std::vector<size_t> order(rows.size());
  for (size_t r = 0; r < order.size(); ++r)
    order[r] = r;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return rows[a] < rows[b]; });
  int64_t kvKey = -1, qKey = -1, blockKey = -1;
  KVHead kv;
  QHead q;
  std::vector<float> dS;
  for (size_t r : order) {
    int64_t head = rows[r] / shape.seqQ, i = rows[r] % shape.seqQ;
    int64_t b = head / shape.headsQ, hq = head % shape.headsQ;
    int64_t hk = shape.kvHeadOf(hq);
    if (b * shape.headsKV + hk != kvKey) {
      int64_t kvOff = shape.kvOffset(b, hk);
      kv = prepareKV(problem.k + kvOff, problem.v + kvOff, shape.seqK, dim,
                     recipe);
      kvKey = b * shape.headsKV + hk;
      qKey = -1;
    }
    const float *qIn = problem.q + shape.qOffset(b, hq);
    if (head != qKey) {
      q = prepareQ(qIn, shape, recipe);
      qKey = head;
      blockKey = -1;
    }
    if (i / recipe.blockQ != blockKey) {
      blockKey = i / recipe.blockQ;
      dS = blockCorrection(q, kv, blockKey, shape);
    }
    float rowLse = 0.0f;
    runQBlock(q.q, kv, dS.empty() ? nullptr : dS.data(),
              problem.mask.slice(shape, b, hq), recipe, shape, scaleLog2, i, 1,
              out.data() + r * dim, lse ? &rowLse : nullptr);
    if (!lse)
      continue;
    if (!kv.kMean.empty())
      rowLse = withDroppedLseTerm(qIn + i * dim, kv.kMean, dim, recipe, rowLse);
    (*lse)[r] = rowLse;
  }
  return out;
}
