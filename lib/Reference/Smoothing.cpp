//===- Smoothing.cpp - Outlier smoothing of Q, K and V --------------------===//

#include "sage/Reference/Smoothing.h"

#include <algorithm>

using namespace sage::ref;

std::vector<float> sage::ref::columnMean(const float *x, int64_t rows,
                                         int64_t cols) {
  std::vector<float> mean(static_cast<size_t>(cols), 0.0f);
  if (rows == 0)
    return mean;
  for (int64_t c = 0; c < cols; ++c) {
    double sum = 0.0;
    for (int64_t first = 0; first < rows; first += kTokensPerChunk) {
      double chunk = 0.0;
      for (int64_t r = first, e = std::min(rows, first + kTokensPerChunk);
           r < e; ++r)
        chunk += x[r * cols + c];
      sum += chunk;
    }
    mean[c] = static_cast<float>(sum / static_cast<double>(rows));
  }
  return mean;
}

void sage::ref::subtractFromRows(float *x, int64_t rows, int64_t cols,
                                 const float *v) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      x[r * cols + c] = x[r * cols + c] - v[c];
}

SmoothedTokens sage::ref::smoothTokens(const float *x, int64_t rows,
                                       int64_t cols) {
  SmoothedTokens out;
  out.mean = columnMean(x, rows, cols);
  out.values.assign(x, x + rows * cols);
  subtractFromRows(out.values.data(), rows, cols, out.mean.data());
  return out;
}

SmoothedBlocks sage::ref::smoothBlocks(const float *x, int64_t rows,
                                       int64_t cols, int64_t blockRows) {
  SmoothedBlocks out;
  out.blockRows = blockRows;
  out.values.assign(x, x + rows * cols);
  int64_t numBlocks = (rows + blockRows - 1) / blockRows;
  out.blockMeans.resize(static_cast<size_t>(numBlocks * cols));
  for (int64_t b = 0; b < numBlocks; ++b) {
    int64_t begin = b * blockRows;
    int64_t count = std::min(blockRows, rows - begin);
    std::vector<float> mean = columnMean(x + begin * cols, count, cols);
    std::copy(mean.begin(), mean.end(), out.blockMeans.begin() + b * cols);
    subtractFromRows(out.values.data() + begin * cols, count, cols,
                     mean.data());
  }
  return out;
}

std::vector<float> sage::ref::smoothingCorrection(const float *blockMeans,
                                                  int64_t numBlocks,
                                                  const float *gammaK,
                                                  int64_t keyRows,
                                                  int64_t cols) {
  std::vector<float> dS(static_cast<size_t>(numBlocks * keyRows));
  for (int64_t b = 0; b < numBlocks; ++b)
    for (int64_t j = 0; j < keyRows; ++j) {
      double sum = 0.0;
      for (int64_t c = 0; c < cols; ++c)
        sum += static_cast<double>(blockMeans[b * cols + c]) *
               static_cast<double>(gammaK[j * cols + c]);
      dS[b * keyRows + j] = static_cast<float>(sum);
    }
  return dS;
}
