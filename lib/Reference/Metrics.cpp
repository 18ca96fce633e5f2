//===- Metrics.cpp - Accuracy metrics against a reference -----------------===//

#include "sage/Reference/Metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace sage::ref;

/// Shared body over any element type of the output.
template <typename T>
static AccuracyMetrics compare(const T *out, const double *ref, size_t n) {
  AccuracyMetrics m;
  double dot = 0.0, normOut = 0.0, normRef = 0.0;
  double absErr = 0.0, absRef = 0.0, sqErr = 0.0;
  for (size_t i = 0; i < n; ++i) {
    double o = static_cast<double>(out[i]);
    bool outFinite = std::isfinite(o), refFinite = std::isfinite(ref[i]);
    m.nonFinite += !outFinite;
    m.referenceNonFinite += !refFinite;
    m.finiteWhereReferenceIsNot += outFinite && !refFinite;
    if (!outFinite || !refFinite)
      continue;
    ++m.compared;
    double e = o - ref[i];
    dot += o * ref[i];
    normOut += o * o;
    normRef += ref[i] * ref[i];
    absErr += std::fabs(e);
    absRef += std::fabs(ref[i]);
    sqErr += e * e;
    m.maxAbsError = std::max(m.maxAbsError, std::fabs(e));
  }
  if (normOut == 0.0 || normRef == 0.0)
    m.cosSim = normOut == normRef ? 1.0 : 0.0;
  else
    m.cosSim = dot / (std::sqrt(normOut) * std::sqrt(normRef));
  if (absRef == 0.0)
    m.relL1 = absErr == 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
  else
    m.relL1 = absErr / absRef;
  m.rmse = m.compared == 0 ? 0.0
                           : std::sqrt(sqErr / static_cast<double>(m.compared));
  return m;
}

AccuracyMetrics sage::ref::compareOutputs(const float *out, const double *ref,
                                          size_t n) {
  return compare(out, ref, n);
}

/// Metrics that flag a length mismatch.
static AccuracyMetrics mismatch(size_t a, size_t b) {
  AccuracyMetrics m;
  m.nonFinite = std::max(a, b);
  m.relL1 = m.rmse = m.maxAbsError = std::numeric_limits<double>::infinity();
  return m;
}

AccuracyMetrics sage::ref::compareOutputs(const std::vector<float> &out,
                                          const std::vector<double> &ref) {
  if (out.size() != ref.size() || out.empty())
    return mismatch(out.size(), ref.size());
  return compare(out.data(), ref.data(), out.size());
}

AccuracyMetrics sage::ref::compareOutputs(const std::vector<double> &out,
                                          const std::vector<double> &ref) {
  if (out.size() != ref.size() || out.empty())
    return mismatch(out.size(), ref.size());
  return compare(out.data(), ref.data(), out.size());
}
