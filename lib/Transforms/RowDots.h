//===- RowDots.h - dS in a kernel, a row a thread or lane group -*- C++ -*-===//
//
// Part of sage-lower-staging (docs/Levels.md, L3): a matrix-vector product
// into workgroup memory (dS = K_raw mean_Q) whose rows 16-byte loads can
// read, computed a row a thread, or a row a group of lanes.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_LIB_TRANSFORMS_ROWDOTS_H
#define SAGE_LIB_TRANSFORMS_ROWDOTS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::sage {

/// A linalg.matvec computed a row a thread (or lane group), and the linalg.fill
/// of its result's buffer it starts from, if one comes just before it (nothing
/// touching memory between them): the pair then writes each element once.
struct RowDots {
  linalg::MatvecOp matvec;
  linalg::FillOp fill;

  /// The first of the two ops.
  Operation *getFirst();
};

/// `matvec` as row dots where its float operands allow: A's rows and x
/// contiguous and 16-byte aligned (the operand buffers are), y in
/// workgroup memory.
FailureOr<RowDots> matchRowDots(linalg::MatvecOp matvec);

/// Emits `dots` where the matvec is, without barriers: thread t computes
/// rows t, t + threads, ..., or, where the threads outnumber the rows of
/// y's buffer, a group of adjacent lanes shares each row (every thread of
/// the CTA then joins the group's shuffles). 16 bytes of the row and of x
/// at a time, the products in y's type added onto y's element (the fill's
/// value, where fused: rows past A's then take that value alone). Erases
/// the ops; returns the last op it built.
Operation *emitRowDots(RewriterBase &rewriter, RowDots dots, int64_t threads);

} // namespace mlir::sage

#endif // SAGE_LIB_TRANSFORMS_ROWDOTS_H
