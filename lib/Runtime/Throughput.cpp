//===- Throughput.cpp - Benchmark arithmetic ------------------------------===//

#include "sage/Runtime/Throughput.h"

#include <algorithm>

using namespace sage::rt;

double sage::rt::attentionPairs(int64_t seqQ, int64_t seqK, Causal causal) {
  double full = static_cast<double>(seqQ) * static_cast<double>(seqK);
  if (causal == Causal::None)
    return full;
  if (seqQ == seqK)
    return full / 2.0;
  // Query i sees min(Nk, max(0, i + shift + 1)) keys. Rows below -shift
  // see none; from there row i sees i + shift + 1 keys, until Nk: an
  // arithmetic series, then rows that see all Nk keys.
  int64_t shift = sage::ref::causalShift(causal, seqQ, seqK);
  int64_t first = std::max<int64_t>(0, -shift);
  int64_t lastPartial = std::min<int64_t>(seqQ - 1, seqK - 1 - shift);
  double pairs = 0.0;
  if (first <= lastPartial) {
    double rows = static_cast<double>(lastPartial - first + 1);
    double lowest = static_cast<double>(first + shift + 1);
    double highest = static_cast<double>(lastPartial + shift + 1);
    pairs += rows * (lowest + highest) / 2.0;
  }
  int64_t fullRows = seqQ - 1 - std::max(lastPartial, first - 1);
  if (fullRows > 0)
    pairs += static_cast<double>(fullRows) * static_cast<double>(seqK);
  return pairs;
}

double sage::rt::attentionOps(int64_t batch, int64_t heads, int64_t seqQ,
                              int64_t seqK, int64_t headDim, int64_t valueDim,
                              Causal causal) {
  return 2.0 * static_cast<double>(batch) * static_cast<double>(heads) *
         attentionPairs(seqQ, seqK, causal) *
         static_cast<double>(headDim + valueDim);
}

double sage::rt::teraOpsPerSecond(double ops, double milliseconds) {
  if (!(milliseconds > 0.0))
    return 0.0;
  return ops / (milliseconds * 1e-3) / 1e12;
}

double sage::rt::median(std::vector<double> values) {
  if (values.empty())
    return 0.0;
  std::sort(values.begin(), values.end());
  size_t mid = values.size() / 2;
  if (values.size() % 2)
    return values[mid];
  return (values[mid - 1] + values[mid]) / 2.0;
}

int sage::rt::chooseBufferSets(size_t setBytes, size_t l2Bytes,
                               size_t freeBytes, int maxSets) {
  const size_t minL2 = size_t(60) << 20;
  size_t target = 4 * std::max(l2Bytes, minL2);
  size_t bytes = std::max<size_t>(setBytes, 1);
  size_t sets = (target + bytes - 1) / bytes;
  sets = std::min(sets, static_cast<size_t>(std::max(maxSets, 1)));
  size_t affordable = static_cast<size_t>(static_cast<double>(freeBytes) * 0.8 /
                                          static_cast<double>(bytes));
  sets = std::min(sets, affordable);
  return static_cast<int>(std::max<size_t>(sets, 1));
}
