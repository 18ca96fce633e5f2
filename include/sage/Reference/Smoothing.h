//===- Smoothing.h - Outlier smoothing of Q, K and V ------------*- C++ -*-===//
//
// docs/Algorithm.md section 1. Means are computed in double over the valid
// tokens and rounded to f32 once; the subtraction x - mean is one f32
// operation, as a preprocessing kernel would do it.
//  - K: gamma(K) = K - mean_tokens(K); no correction (softmax-invariant).
//  - Q: gamma(Q_i) = Q_i - qbar_i per Q block; the correction
//    dS_ij = qbar_i . gamma(K_j) is added to S in full precision.
//  - V: V' = V - mean_tokens(V); mean(V) is added back to O at the end.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_REFERENCE_SMOOTHING_H
#define SAGE_REFERENCE_SMOOTHING_H

#include <cstdint>
#include <vector>

namespace sage::ref {

/// Tokens in one chunk of a column sum (docs/Algorithm.md section 1,
/// "The order of a mean's sum"): the lowering sums the chunks in parallel,
/// and this model adds in the same order, so that both round alike.
inline constexpr int64_t kTokensPerChunk = 256;

/// Returns the mean over \p rows of each column of the [rows x cols]
/// row-major \p x (all zeros when rows == 0): each chunk of
/// kTokensPerChunk rows summed in double in row order, the chunks' sums
/// added in chunk order, divided by \p rows and rounded to f32 once.
std::vector<float> columnMean(const float *x, int64_t rows, int64_t cols);

/// Subtracts \p v[c] from every x[r][c] in f32.
void subtractFromRows(float *x, int64_t rows, int64_t cols, const float *v);

/// A matrix with its token mean removed.
struct SmoothedTokens {
  /// x - mean, row-major, same shape as the input.
  std::vector<float> values;
  /// The removed mean, one per column.
  std::vector<float> mean;
};

/// Smooths K or V: subtracts the mean over all \p rows tokens.
SmoothedTokens smoothTokens(const float *x, int64_t rows, int64_t cols);

/// Q smoothed block by block.
struct SmoothedBlocks {
  /// gamma(Q): each row minus its block's mean, row-major.
  std::vector<float> values;
  /// qbar_i, [numBlocks x cols] row-major.
  std::vector<float> blockMeans;
  int64_t blockRows = 0;
};

/// Smooths Q per block of \p blockRows rows; the last block's mean covers
/// only its valid rows.
SmoothedBlocks smoothBlocks(const float *x, int64_t rows, int64_t cols,
                            int64_t blockRows);

/// Returns dS [numBlocks x keyRows]: dS[i][j] = qbar_i . gammaK_j, the dot
/// product of f32 inputs computed in double and rounded to f32 once.
std::vector<float> smoothingCorrection(const float *blockMeans,
                                       int64_t numBlocks, const float *gammaK,
                                       int64_t keyRows, int64_t cols);

} // namespace sage::ref

#endif // SAGE_REFERENCE_SMOOTHING_H
