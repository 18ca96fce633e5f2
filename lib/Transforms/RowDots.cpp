//===- RowDots.cpp - dS in a kernel, a row a thread or lane group --------===//
//
// Part of sage-lower-staging (docs/Levels.md, L3). Written as loops, dS's
// matvec reads two bytes at a time and its fill needs a barrier of its own;
// here each row is one thread's 16-byte loads (or a few adjacent lanes
// combined by shuffles, where the threads outnumber the rows: a row a
// thread left half the CTA idle while the other half summed), fused with
// the fill, so that sage-lower-staging can also issue it while the block's
// copies are in flight.
//
//===----------------------------------------------------------------------===//

#include "RowDots.h"
#include "Staging.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::sage;

/// Whether `buffer`'s rows (its last dimension) are contiguous, whole
/// multiples of `bytes` and start every `bytes` bytes, so that a row is
/// read with loads of that alignment.
static bool hasAlignedRows(Value buffer, int64_t bytes) {
  auto type = cast<MemRefType>(buffer.getType());
  int64_t bits = type.getElementTypeBitWidth();
  auto [strides, offset] = type.getStridesAndOffset();
  if (strides.back() != 1 || ShapedType::isDynamic(type.getShape().back()) ||
      type.getShape().back() * bits % (8 * bytes))
    return false;
  for (int64_t dim = 0; dim + 1 < type.getRank(); ++dim)
    if (int64_t factor = getStrideDivisor(buffer, dim);
        factor == 0 || factor * bits % (8 * bytes))
      return false;
  return startsAligned(buffer, bytes);
}

/// The static extent of the 1-D buffer `buffer` or, for a view of a part
/// of one (a subview), of the buffer it views.
static std::optional<int64_t> getStaticExtent(Value buffer) {
  while (true) {
    auto type = cast<MemRefType>(buffer.getType());
    if (type.getRank() == 1 && !type.isDynamicDim(0))
      return type.getDimSize(0);
    auto view = buffer.getDefiningOp<memref::SubViewOp>();
    if (!view || view.getSourceType().getRank() != 1)
      return std::nullopt;
    buffer = view.getSource();
  }
}

Operation *RowDots::getFirst() {
  return fill ? fill.getOperation() : matvec.getOperation();
}

/// The fill just before `matvec` (nothing touching memory between them)
/// of the buffer `matvec`'s result is the start of (itself, or a subview
/// at offset 0 with unit strides).
static linalg::FillOp getFusableFill(linalg::MatvecOp matvec) {
  Value result = matvec.getDpsInits()[0];
  Value buffer = result;
  if (auto view = result.getDefiningOp<memref::SubViewOp>()) {
    if (!llvm::all_of(view.getMixedOffsets(), isZeroInteger) ||
        !llvm::all_of(view.getMixedStrides(), [](OpFoldResult stride) {
          return isConstantIntValue(stride, 1);
        }))
      return {};
    buffer = view.getSource();
  }
  for (Operation *op = matvec->getPrevNode(); op; op = op->getPrevNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(op))
      return fill.hasPureBufferSemantics() && fill.getDpsInits()[0] == buffer &&
                     getStaticExtent(buffer)
                 ? fill
                 : linalg::FillOp();
    if (op->getNumRegions() || !isMemoryEffectFree(op))
      return {};
  }
  return {};
}

/// The elements of A's row one 16-byte load reads (the whole row where it
/// is shorter).
static int64_t getRowDotChunk(MemRefType matrixType) {
  return std::min<int64_t>(matrixType.getDimSize(1),
                           128 / matrixType.getElementTypeBitWidth());
}

FailureOr<RowDots> mlir::sage::matchRowDots(linalg::MatvecOp matvec) {
  if (!matvec.hasPureBufferSemantics())
    return failure();
  Value matrix = matvec.getDpsInputs()[0], vector = matvec.getDpsInputs()[1];
  Value result = matvec.getDpsInits()[0];
  auto matrixType = cast<MemRefType>(matrix.getType());
  auto vectorType = cast<MemRefType>(vector.getType());
  auto resultType =
      dyn_cast<FloatType>(cast<MemRefType>(result.getType()).getElementType());
  int64_t k = matrixType.getDimSize(1);
  if (!resultType || !isa<FloatType>(matrixType.getElementType()) ||
      !isa<FloatType>(vectorType.getElementType()) ||
      matrixType.getElementTypeBitWidth() % 8 ||
      vectorType.getElementTypeBitWidth() % 8 || ShapedType::isDynamic(k) ||
      k == 0 || vectorType.getDimSize(0) != k ||
      k % std::min<int64_t>(k, 128 / matrixType.getElementTypeBitWidth()) ||
      !hasAlignedRows(matrix, 16) || !hasAlignedRows(vector, 16))
    return failure();
  return RowDots{matvec, getFusableFill(matvec)};
}

/// The part of row `row` of A times x that lane `part` of `lanes` computes:
/// chunks part, part + lanes, ... of 16 bytes of the row (few registers
/// hold one), each product in the result's type. The chunks accumulate
/// into a vector, one fma an element, so that the sums of its elements
/// are independent chains rather than one of k additions; the vector is
/// summed at the end. The CPU model sums dS in double (docs/Levels.md,
/// L3), so no order here is the reference one.
static Value emitPartialRowDot(OpBuilder &b, Location loc,
                               linalg::MatvecOp matvec, Value row, Value part,
                               int64_t lanes, FloatType resultType) {
  Value matrix = matvec.getDpsInputs()[0], vector = matvec.getDpsInputs()[1];
  auto matrixType = cast<MemRefType>(matrix.getType());
  int64_t k = matrixType.getDimSize(1);
  int64_t chunk = getRowDotChunk(matrixType);
  auto readAsResult = [&](Value buffer, Value column) -> Value {
    Type element = cast<MemRefType>(buffer.getType()).getElementType();
    // Chunks of x start chunk elements of x apart: 16 bytes or fewer.
    int64_t bytes =
        std::min<int64_t>(16, chunk * element.getIntOrFloatBitWidth() / 8);
    SmallVector<Value> indices = {column};
    if (buffer == matrix)
      indices.insert(indices.begin(), row);
    Value read = vector::LoadOp::create(
        b, loc, VectorType::get({chunk}, element), buffer, indices,
        /*nontemporal=*/false, llvm::Align(bytes));
    if (element == resultType)
      return read;
    // linalg.matvec casts each operand to the result's type.
    auto type = VectorType::get({chunk}, resultType);
    if (element.getIntOrFloatBitWidth() < resultType.getIntOrFloatBitWidth())
      return arith::ExtFOp::create(b, loc, type, read);
    return arith::TruncFOp::create(b, loc, type, read);
  };
  auto sumsType = VectorType::get({chunk}, resultType);
  Value sums = arith::ConstantOp::create(
      b, loc, sumsType,
      DenseElementsAttr::get(sumsType, b.getFloatAttr(resultType, 0.0)));
  // This lane's first column: part * chunk.
  Value first = arith::MulIOp::create(
      b, loc, part, arith::ConstantIndexOp::create(b, loc, chunk));
  for (int64_t offset = 0; offset < k; offset += lanes * chunk) {
    Value column = offset ? arith::AddIOp::create(
                                b, loc, first,
                                arith::ConstantIndexOp::create(b, loc, offset))
                          : first;
    Value a = readAsResult(matrix, column);
    Value x = readAsResult(vector, column);
    sums = vector::FMAOp::create(b, loc, a, x, sums);
  }
  return vector::ReductionOp::create(b, loc, vector::CombiningKind::ADD, sums,
                                     /*acc=*/Value(),
                                     arith::FastMathFlags::reassoc);
}

/// How many adjacent lanes of a warp share a row: enough that the
/// `threads` cover the `bound` rows, where the row's chunks split evenly
/// among them (a power of two at most 32, so that shuffles within a warp
/// combine their parts).
static int64_t getLanesPerRow(int64_t bound, int64_t chunks, int64_t threads) {
  int64_t lanes = 1;
  if (threads % 32 || bound <= 0)
    return lanes;
  while (lanes < 32 && 2 * lanes * bound <= threads &&
         chunks % (2 * lanes) == 0)
    lanes *= 2;
  return lanes;
}

Operation *mlir::sage::emitRowDots(RewriterBase &rewriter, RowDots dots,
                                   int64_t threads) {
  linalg::MatvecOp matvec = dots.matvec;
  Location loc = matvec.getLoc();
  rewriter.setInsertionPoint(matvec);
  Value matrix = matvec.getDpsInputs()[0];
  Value result = matvec.getDpsInits()[0];
  auto matrixType = cast<MemRefType>(matrix.getType());
  auto resultType =
      cast<FloatType>(cast<MemRefType>(result.getType()).getElementType());
  // With the fill, every element of its buffer; else A's rows.
  Value target = dots.fill ? dots.fill.getDpsInits()[0] : result;
  Value thread = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value rows = memref::DimOp::create(rewriter, loc, matrix, 0);
  Value count = rows;
  std::optional<int64_t> bound = getStaticExtent(target);
  if (dots.fill)
    count = arith::ConstantIndexOp::create(rewriter, loc, *bound);
  Value zero = arith::ConstantOp::create(rewriter, loc, resultType,
                                         rewriter.getFloatAttr(resultType, 0));
  auto emitElement = [&](OpBuilder &b, Value element, Value dot) {
    if (dots.fill) {
      // Rows past A's keep the fill's value.
      Value value = dots.fill.getInputs()[0];
      Value inRows = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           element, rows);
      Value sum = arith::AddFOp::create(b, loc, value, dot);
      memref::StoreOp::create(
          b, loc, arith::SelectOp::create(b, loc, inRows, sum, value), target,
          element);
    } else {
      Value init = memref::LoadOp::create(b, loc, result, element);
      memref::StoreOp::create(b, loc, arith::AddFOp::create(b, loc, init, dot),
                              result, element);
    }
  };
  // A's row `element`'s part `part` of `lanes`, 0 past A's rows.
  auto emitGuardedDot = [&](OpBuilder &b, Value element, Value part,
                            int64_t lanes) {
    Value inRows =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, element, rows);
    auto branch = scf::IfOp::create(b, loc, TypeRange{resultType}, inRows,
                                    /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(branch.thenBlock());
    scf::YieldOp::create(
        b, loc,
        emitPartialRowDot(b, loc, matvec, element, part, lanes, resultType));
    b.setInsertionPointToStart(branch.elseBlock());
    scf::YieldOp::create(b, loc, zero);
    return branch.getResult(0);
  };
  int64_t chunks = matrixType.getDimSize(1) / getRowDotChunk(matrixType);
  int64_t lanes = bound ? getLanesPerRow(*bound, chunks, threads) : 1;
  Operation *last;
  if (lanes > 1) {
    // Lanes 0 .. lanes - 1 of a group share row thread / lanes; every
    // thread computes its part (0 past A's rows) and joins the shuffles,
    // which need the whole warp; the group's first lane stores.
    Value lanesValue = arith::ConstantIndexOp::create(rewriter, loc, lanes);
    Value element = arith::DivUIOp::create(rewriter, loc, thread, lanesValue);
    Value part = arith::RemUIOp::create(rewriter, loc, thread, lanesValue);
    Value dot = emitGuardedDot(rewriter, element, part, lanes);
    for (int64_t mask = 1; mask < lanes; mask *= 2) {
      Value other = gpu::ShuffleOp::create(rewriter, loc, dot, mask,
                                           /*width=*/32, gpu::ShuffleMode::XOR)
                        .getShuffleResult();
      dot = arith::AddFOp::create(rewriter, loc, dot, other);
    }
    Value first =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, part,
                              arith::ConstantIndexOp::create(rewriter, loc, 0));
    Value some = arith::AndIOp::create(
        rewriter, loc, first,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, element,
                              count));
    auto branch = scf::IfOp::create(rewriter, loc, some,
                                    /*withElseRegion=*/false);
    rewriter.setInsertionPointToStart(branch.thenBlock());
    emitElement(rewriter, element, dot);
    last = branch;
  } else if (bound && *bound <= threads) {
    // An element a thread at most: a guard rather than a loop, out of
    // which LLVM would hoist the reads of x and keep all of them in
    // registers.
    Value some = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                       thread, count);
    auto branch = scf::IfOp::create(rewriter, loc, some,
                                    /*withElseRegion=*/false);
    rewriter.setInsertionPointToStart(branch.thenBlock());
    Value part = arith::ConstantIndexOp::create(rewriter, loc, 0);
    emitElement(rewriter, thread, emitGuardedDot(rewriter, thread, part, 1));
    last = branch;
  } else {
    Value step = arith::ConstantIndexOp::create(rewriter, loc, threads);
    auto forOp = scf::ForOp::create(rewriter, loc, thread, count, step);
    rewriter.setInsertionPointToStart(forOp.getBody());
    Value element = forOp.getInductionVar();
    Value part = arith::ConstantIndexOp::create(rewriter, loc, 0);
    emitElement(rewriter, element, emitGuardedDot(rewriter, element, part, 1));
    last = forOp;
  }
  rewriter.eraseOp(matvec);
  if (dots.fill)
    rewriter.eraseOp(dots.fill);
  return last;
}
