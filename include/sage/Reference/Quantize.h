//===- Quantize.h - Symmetric integer quantization groups -------*- C++ -*-===//
//
// Which elements of a [tokens x channels] operand share one quantization
// scale (docs/Algorithm.md section 2), and the symmetric integer quantizer
//   delta = max|x in group| / qmax,  x_hat = clamp(rne(x / delta), +-qmax).
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_REFERENCE_QUANTIZE_H
#define SAGE_REFERENCE_QUANTIZE_H

#include <cstdint>
#include <vector>

namespace sage::ref {

/// Largest magnitude of a symmetric INT8 value.
constexpr int kInt8Max = 127;
/// Largest magnitude of a symmetric INT4 value.
constexpr int kInt4Max = 7;

/// How many elements share one scale.
enum class Granularity {
  PerTensor,  ///< One scale per (batch, head).
  PerBlock,   ///< One per block of blockRows tokens (a CTA's Q or K tile).
  PerWarp,    ///< A: one per warp's rows of a block; B: same as PerBlock.
  PerThread,  ///< One per GPU thread's fragment (see groupOf).
  PerToken,   ///< One per token (row).
  PerChannel, ///< One per channel (column) over all tokens, as for V.
  Microscale, ///< One per microBlock consecutive channels of a token.
};

/// The role an operand plays in the MMA `D = A * B^T`: A supplies rows of
/// the accumulator (Q), B supplies its columns (K).
enum class OperandRole { A, B };

/// Everything that decides the group of an element.
struct GroupLayout {
  Granularity granularity = Granularity::PerThread;
  OperandRole role = OperandRole::A;
  /// Tokens per block: b_q for A, b_k for B.
  int64_t blockRows = 128;
  /// Rows of a block owned by one warp (A only); a multiple of 8.
  int64_t warpRows = 32;
  /// Channels per scale for Microscale.
  int64_t microBlock = 16;
};

/// Returns the number of groups of a [numTokens x numChannels] operand.
/// Blocked granularities count whole blocks (the last may be partial).
int64_t numGroups(const GroupLayout &layout, int64_t numTokens,
                  int64_t numChannels);

/// Returns the group of element (\p token, \p channel).
///
/// PerThread follows the mma.sync m16n8kX accumulator layout, where lane l
/// holds rows l/4 and l/4+8 of each 16-row tile and columns 2(l%4),
/// 2(l%4)+1 of each 8-column tile:
///  - A: inside the warpRows rows of block i owned by warp w, rows with the
///    same (r mod 8) share a scale: group = (i * warpsPerBlock + w) * 8 +
///    r % 8, i.e. 8 groups per warp segment.
///  - B: inside block j, tokens 8k+2t and 8k+2t+1 (t = 0..3, every k) share
///    a scale: group = j * 4 + (n % 8) / 2, i.e. 4 groups per block.
int64_t groupOf(const GroupLayout &layout, int64_t token, int64_t channel,
                int64_t numChannels);

/// Returns the symmetric scale max|x| / qmax, computed in f32.
float symmetricScale(float absMax, int qmax);

/// max(m, |x|) that keeps a NaN from either side, as the kernels' max.NaN
/// does: a non-finite input poisons its group's scale (docs/Algorithm.md,
/// "Non-finite inputs").
float absMaxStep(float m, float x);

/// Quantizes one value: clamp(rne(x / delta), -qmax, qmax), with x / delta
/// an f32 division and rne round-half-to-even, which is what the GPU's
/// cvt.rni.s32.f32 does. A zero scale gives 0, never NaN.
int8_t quantizeToInt(float x, float delta, int qmax);

/// A [rows x cols] row-major operand in symmetric integers with its scales.
struct IntQuantized {
  int64_t rows = 0;
  int64_t cols = 0;
  int qmax = kInt8Max;
  GroupLayout layout;
  /// Integer values, row-major; INT4 values lie in [-7, 7].
  std::vector<int8_t> values;
  /// One scale per group (numGroups entries).
  std::vector<float> scales;

  /// Returns the scale of element (\p row, \p col).
  float scaleAt(int64_t row, int64_t col) const {
    return scales[groupOf(layout, row, col, cols)];
  }
  /// Returns the dequantized value of element (\p row, \p col).
  float dequantized(int64_t row, int64_t col) const {
    return static_cast<float>(values[row * cols + col]) * scaleAt(row, col);
  }
};

/// Quantizes the [rows x cols] row-major \p x symmetrically with \p qmax
/// (127 for INT8, 7 for INT4) and the groups of \p layout. A group whose
/// elements are all zero gets scale 0 and zero values.
IntQuantized quantizeInt(const float *x, int64_t rows, int64_t cols, int qmax,
                         const GroupLayout &layout);

} // namespace sage::ref

#endif // SAGE_REFERENCE_QUANTIZE_H
