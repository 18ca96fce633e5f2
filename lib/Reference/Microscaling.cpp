//===- Microscaling.cpp - NVFP4 block quantization ------------------------===//

#include "sage/Reference/Microscaling.h"

#include "sage/Reference/Formats.h"
#include "sage/Reference/Quantize.h"

#include <algorithm>
#include <cmath>

using namespace sage::ref;

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

float sage::ref::nvfp4BlockScale(float absMax) {
  return roundToE4M3(absMax / kE2M1Max);
}

float sage::ref::quantizeNvFp4Element(float x, float scale) {
  if (scale == 0.0f)
    return 0.0f;
  return roundToE2M1(x / scale);
}

/// Where the scale of (row, col) is kept, for blocks along `axis`.
static int64_t getScaleIndex(MicroscaleAxis axis, int64_t row, int64_t col,
                             int64_t cols) {
  switch (axis) {
  case MicroscaleAxis::AlongCols:
    return row * ceilDiv(cols, kNvFp4Block) + col / kNvFp4Block;
  case MicroscaleAxis::AlongRows:
    return (row / kNvFp4Block) * cols + col;
  case MicroscaleAxis::AlongRowsMmaOrder:
    return nvfp4KeyBlock(row) * cols + col;
  }
  return 0;
}

float NvFp4Matrix::scaleAt(int64_t row, int64_t col) const {
  return scales[getScaleIndex(axis, row, col, cols)];
}

std::vector<float> NvFp4Matrix::dequantizedAll() const {
  std::vector<float> out(elements.size());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      out[r * cols + c] = dequantized(r, c);
  return out;
}

NvFp4Matrix sage::ref::quantizeNvFp4(const float *x, int64_t rows, int64_t cols,
                                     MicroscaleAxis axis) {
  NvFp4Matrix out;
  out.rows = rows;
  out.cols = cols;
  out.axis = axis;
  out.elements.assign(static_cast<size_t>(rows * cols), 0.0f);
  int64_t numScales = axis == MicroscaleAxis::AlongCols
                          ? rows * ceilDiv(cols, kNvFp4Block)
                      : axis == MicroscaleAxis::AlongRows
                          ? ceilDiv(rows, kNvFp4Block) * cols
                          : 4 * ceilDiv(rows, 4 * kNvFp4Block) * cols;
  // Block maxima first (padding contributes zeros), then scales, then values.
  std::vector<float> absMax(static_cast<size_t>(numScales), 0.0f);
  auto scaleIndex = [&](int64_t r, int64_t c) {
    return getScaleIndex(axis, r, c, cols);
  };
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      float &m = absMax[scaleIndex(r, c)];
      m = absMaxStep(m, x[r * cols + c]);
    }
  out.scales.resize(absMax.size());
  for (size_t s = 0; s < absMax.size(); ++s)
    out.scales[s] = nvfp4BlockScale(absMax[s]);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      out.elements[r * cols + c] =
          quantizeNvFp4Element(x[r * cols + c], out.scales[scaleIndex(r, c)]);
  return out;
}
