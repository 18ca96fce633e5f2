//===- KernelSchedules.h - measured tiles of the attention kernel -*- C++
//-*-===//
//
// The attention kernel's schedule (Q and K/V block sizes, a producer
// warpgroup or not) for a chip, by what the attention is: its head dim,
// causal or not, Q smoothed or not. The rows are measured by the tuning
// mode of the benchmark (benchmarks/tune_attention.py), which writes the
// same rows as JSON; docs/Tuning.md says how to remeasure them and how to
// hand a table of one's own to the pipeline (--sage-to-ptx tuning-table).
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_DIALECT_SAGE_IR_KERNELSCHEDULES_H
#define SAGE_DIALECT_SAGE_IR_KERNELSCHEDULES_H

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace mlir::sage {

/// What an attention is, as far as its best schedule goes.
struct ScheduleKey {
  std::string chip; // sm_90a, ...
  int64_t headDim;  // D of Q and K
  bool causal;
  bool smoothQ;

  bool operator==(const ScheduleKey &other) const {
    return chip == other.chip && headDim == other.headDim &&
           causal == other.causal && smoothQ == other.smoothQ;
  }
};

/// The attention kernel's tiles, roles and pipeline.
struct KernelSchedule {
  int64_t blockQ, blockK;
  bool warpSpecialize;
  int64_t kvStages = 2;
  /// Block j's softmax overlapped with block j - 1's P V wgmma.
  bool overlapSoftmax = false;
  /// The CTAs an SM must hold (the kernel's nvvm.minctasm, which caps the
  /// registers ptxas gives a thread); 0 when the row leaves it to the
  /// lowering's rule.
  int64_t ctasPerSm = 0;
  /// The consumer warpgroups issue their wgmmas in turn.
  bool warpgroupTurns = false;

  /// Whether every warp computes one K/V block after the other: no
  /// producer warpgroup, no softmax overlap, no turns (the kernels
  /// --sage-levels builds).
  bool isSequential() const {
    return !warpSpecialize && !overlapSoftmax && !warpgroupTurns;
  }
};

/// One measured row: the fastest accurate schedule for `key`.
struct ScheduleRow {
  ScheduleKey key;
  KernelSchedule schedule;
};

/// A table of rows; the built-in one unless read from a file.
class ScheduleTable {
public:
  /// The rows measured on the H200 (benchmarks/results, docs/Tuning.md).
  static const ScheduleTable &getBuiltin();
  /// Reads the JSON tune_attention.py writes (`{"format":
  /// "sage-tuning-table", "rows": [...]}`); an error names the file and
  /// what is wrong.
  static llvm::Expected<ScheduleTable> read(StringRef path);

  /// A pass's `tuning-table` option, read in its initialize(): `table`
  /// becomes none for an empty `path`, else the file's rows; failure emits
  /// the reader's error (at an unknown location: options have none).
  static LogicalResult readOption(MLIRContext *ctx, StringRef path,
                                  std::optional<ScheduleTable> &table);

  /// The row for `key`, if the table has one.
  std::optional<KernelSchedule> lookup(const ScheduleKey &key) const;

  SmallVector<ScheduleRow> rows;
};

} // namespace mlir::sage

#endif // SAGE_DIALECT_SAGE_IR_KERNELSCHEDULES_H
