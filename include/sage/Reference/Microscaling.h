//===- Microscaling.h - NVFP4 block quantization ----------------*- C++ -*-===//
//
// NVFP4 (docs/Algorithm.md section 5): E2M1 elements with one E4M3 scale
// per 16 consecutive elements along the reduction dimension:
//   scale = E4M3(max|block| / 6),  x_hat = E2M1(x / scale).
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_REFERENCE_MICROSCALING_H
#define SAGE_REFERENCE_MICROSCALING_H

#include <cstdint>
#include <vector>

namespace sage::ref {

/// Elements per NVFP4 scale.
constexpr int64_t kNvFp4Block = 16;

/// Which way the 16-element blocks run in a row-major [rows x cols] matrix.
enum class MicroscaleAxis {
  AlongCols, ///< 1x16 blocks inside a row (Q, K and P: reduce over cols).
  AlongRows, ///< 16x1 blocks inside a column (V: reduce over tokens).
  /// 16x1 blocks inside a column, each the 16 rows one quarter of an
  /// m16n8k64 MMA's positions holds in the accumulator order
  /// (nvfp4KeyBlock): V as the kernels store it.
  AlongRowsMmaOrder,
};

/// The block of key \p key when 64-key chunks are fed to the m16n8k64 MMA
/// in the accumulator order (docs/Layouts.md): MMA position 32h + 8t + i
/// holds key 32h + 8(i / 2) + 2t + i % 2, and each 16 positions share a
/// scale, so a chunk's block 2h + c holds keys 32h + 8j + 4c + {0..3}.
inline int64_t nvfp4KeyBlock(int64_t key) {
  return 4 * (key / 64) + 2 * (key % 64 / 32) + key % 8 / 4;
}

/// Returns the E4M3 scale of a block whose largest magnitude is \p absMax:
/// the f32 quotient absMax / 6 rounded to E4M3 (satfinite, RNE).
float nvfp4BlockScale(float absMax);

/// Quantizes one element with its block \p scale: E2M1(x / scale), an f32
/// division followed by satfinite RNE. A zero scale gives 0.
float quantizeNvFp4Element(float x, float scale);

/// A [rows x cols] NVFP4 matrix, kept as decoded values.
struct NvFp4Matrix {
  int64_t rows = 0;
  int64_t cols = 0;
  MicroscaleAxis axis = MicroscaleAxis::AlongCols;
  /// E2M1 values (on the grid +-{0, 0.5, ..., 6}), row-major.
  std::vector<float> elements;
  /// E4M3 scales: [rows x ceil(cols/16)] for AlongCols, [ceil(rows/16) x
  /// cols] for AlongRows, [4 ceil(rows/64) x cols] for AlongRowsMmaOrder.
  std::vector<float> scales;

  /// Returns the scale of element (\p row, \p col).
  float scaleAt(int64_t row, int64_t col) const;
  /// Returns element * scale; the product is exact in f32.
  float dequantized(int64_t row, int64_t col) const {
    return elements[row * cols + col] * scaleAt(row, col);
  }
  /// Returns every dequantized value, row-major.
  std::vector<float> dequantizedAll() const;
};

/// Quantizes the [rows x cols] row-major \p x to NVFP4 with blocks along
/// \p axis; a trailing partial block is quantized as if zero-padded.
NvFp4Matrix quantizeNvFp4(const float *x, int64_t rows, int64_t cols,
                          MicroscaleAxis axis);

} // namespace sage::ref

#endif // SAGE_REFERENCE_MICROSCALING_H
