//===- RowDots.cpp - dS in a kernel, a row a thread
//------------------------===//
//
// Part of sage-lower-staging (docs/Levels.md, L3). Written as loops, dS's
// matvec reads two bytes at a time and its fill needs a barrier of its own;
// here each row is one thread's 16-byte loads, fused with the fill, so
// that sage-lower-staging can also issue it while the block's copies are
// in flight.
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

/// Row `row` of A times x, 16 bytes of the row at a time (few registers
/// hold it), each product in the result's type and summed in order onto
/// `init`.
static Value emitRowDot(OpBuilder &b, Location loc, linalg::MatvecOp matvec,
                        Value row, Value init) {
  Value matrix = matvec.getDpsInputs()[0], vector = matvec.getDpsInputs()[1];
  auto matrixType = cast<MemRefType>(matrix.getType());
  Type resultType = init.getType();
  int64_t k = matrixType.getDimSize(1);
  int64_t chunk =
      std::min<int64_t>(k, 128 / matrixType.getElementTypeBitWidth());
  auto readAsResult = [&](Value buffer, ValueRange indices) -> Value {
    Type element = cast<MemRefType>(buffer.getType()).getElementType();
    // Chunks of x start chunk elements of x apart: 16 bytes or fewer.
    int64_t bytes =
        std::min<int64_t>(16, chunk * element.getIntOrFloatBitWidth() / 8);
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
  Value sum = init;
  for (int64_t first = 0; first < k; first += chunk) {
    Value column = arith::ConstantIndexOp::create(b, loc, first);
    Value a = readAsResult(matrix, {row, column});
    Value x = readAsResult(vector, {column});
    Value products = arith::MulFOp::create(b, loc, a, x);
    sum = vector::ReductionOp::create(b, loc, vector::CombiningKind::ADD,
                                      products, sum);
  }
  return sum;
}

Operation *mlir::sage::emitRowDots(RewriterBase &rewriter, RowDots dots,
                                   int64_t threads) {
  linalg::MatvecOp matvec = dots.matvec;
  Location loc = matvec.getLoc();
  rewriter.setInsertionPoint(matvec);
  Value matrix = matvec.getDpsInputs()[0];
  Value result = matvec.getDpsInits()[0];
  // With the fill, every element of its buffer; else A's rows.
  Value target = dots.fill ? dots.fill.getDpsInits()[0] : result;
  Value thread = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value rows = memref::DimOp::create(rewriter, loc, matrix, 0);
  Value count = rows;
  std::optional<int64_t> bound = getStaticExtent(target);
  if (dots.fill)
    count = arith::ConstantIndexOp::create(rewriter, loc, *bound);
  // An element a thread at most: a guard rather than a loop, out of which
  // LLVM would hoist the reads of x and keep all of them in registers.
  Operation *loop;
  Value element = thread;
  if (bound && *bound <= threads) {
    Value some = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                       thread, count);
    auto branch = scf::IfOp::create(rewriter, loc, some,
                                    /*withElseRegion=*/false);
    loop = branch;
    rewriter.setInsertionPointToStart(branch.thenBlock());
  } else {
    Value step = arith::ConstantIndexOp::create(rewriter, loc, threads);
    auto forOp = scf::ForOp::create(rewriter, loc, thread, count, step);
    loop = forOp;
    element = forOp.getInductionVar();
    rewriter.setInsertionPointToStart(forOp.getBody());
  }
  if (dots.fill) {
    // Rows past A's keep the fill's value.
    Value value = dots.fill.getInputs()[0];
    Value inRows = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, element, rows);
    auto branch = scf::IfOp::create(rewriter, loc, TypeRange{value.getType()},
                                    inRows, /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(branch.thenBlock());
      Value sum = emitRowDot(rewriter, loc, matvec, element, value);
      scf::YieldOp::create(rewriter, loc, sum);
      rewriter.setInsertionPointToStart(branch.elseBlock());
      scf::YieldOp::create(rewriter, loc, value);
    }
    memref::StoreOp::create(rewriter, loc, branch.getResult(0), target,
                            element);
  } else {
    Value init = memref::LoadOp::create(rewriter, loc, result, element);
    Value sum = emitRowDot(rewriter, loc, matvec, element, init);
    memref::StoreOp::create(rewriter, loc, sum, result, element);
  }
  rewriter.eraseOp(matvec);
  if (dots.fill)
    rewriter.eraseOp(dots.fill);
  return loop;
}
