//===- Metrics.h - Accuracy metrics against a reference ---------*- C++ -*-===//
//
// docs/Algorithm.md section 7, over the flattened output, in double:
//   CosSim = <o, ref> / (|o| |ref|),  RelL1 = sum|o - ref| / sum|ref|,
//   RMSE = sqrt(mean((o - ref)^2)),   MaxAbs = max|o - ref|.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_REFERENCE_METRICS_H
#define SAGE_REFERENCE_METRICS_H

#include <cstddef>
#include <vector>

namespace sage::ref {

/// The accuracy of an output against its reference.
struct AccuracyMetrics {
  double cosSim = 0.0;
  double relL1 = 0.0;
  double rmse = 0.0;
  double maxAbsError = 0.0;
  /// Non-finite values found in the output.
  size_t nonFinite = 0;
  /// Non-finite values of the reference (a non-finite input), and how many
  /// of them the output has finite: a value where there is none. The
  /// metrics above cover only the `compared` elements finite in both.
  size_t referenceNonFinite = 0;
  size_t finiteWhereReferenceIsNot = 0;
  size_t compared = 0;
};

/// Compares \p n values of \p out against \p ref. A zero norm gives CosSim 1
/// if both are zero and 0 otherwise; a zero reference sum gives RelL1 0 if
/// the output is zero too and +inf otherwise.
AccuracyMetrics compareOutputs(const float *out, const double *ref, size_t n);

/// Compares two equally long vectors (empty or unequal lengths give
/// metrics with cosSim 0 and nonFinite set to the longer length).
AccuracyMetrics compareOutputs(const std::vector<float> &out,
                               const std::vector<double> &ref);

/// Same, for a double output (e.g. two exact computations).
AccuracyMetrics compareOutputs(const std::vector<double> &out,
                               const std::vector<double> &ref);

} // namespace sage::ref

#endif // SAGE_REFERENCE_METRICS_H
