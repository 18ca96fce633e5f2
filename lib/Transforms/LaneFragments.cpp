//===- LaneFragments.cpp - where a lane's elements sit in a tile ----------===//

#include "LaneFragments.h"
#include "sage/Dialect/Sage/IR/SageAttrs.h"
#include "sage/Dialect/Sage/IR/SageOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::sage;

MmaAttr mlir::sage::getWarpFragmentMma(MmaAttr mma) {
  if (mma.getScope() == MmaScope::Warp)
    return mma;
  return MmaAttr::get(mma.getContext(), MmaScope::Warp, /*m=*/16, /*n=*/8,
                      mma.getK(), mma.getA(), OperandSource::Registers,
                      mma.getB(), OperandSource::Registers, mma.getAcc(),
                      mma.getScales());
}

Value mlir::sage::getWarpIndex(OpBuilder &b, Location loc) {
  Value thread = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value warpSize = arith::ConstantIndexOp::create(b, loc, 32);
  return arith::DivUIOp::create(b, loc, thread, warpSize);
}

LaneIndices::LaneIndices(OpBuilder &b, Location loc) : b(b), loc(loc) {
  Value thread = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value lane = arith::RemUIOp::create(b, loc, thread, constant(32));
  warp = arith::DivUIOp::create(b, loc, thread, constant(32));
  g = arith::DivUIOp::create(b, loc, lane, constant(4));
  t = arith::RemUIOp::create(b, loc, lane, constant(4));
}

Value LaneIndices::constant(int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

Value LaneIndices::affine(Value x, int64_t scale, int64_t offset) {
  Value scaled =
      scale == 1 ? x : arith::MulIOp::create(b, loc, x, constant(scale));
  return offset == 0 ? scaled
                     : arith::AddIOp::create(b, loc, scaled, constant(offset));
}

Value LaneIndices::add(Value x, Value y) {
  return arith::AddIOp::create(b, loc, x, y);
}

Value LaneIndices::div(Value x, int64_t divisor) {
  return divisor == 1 ? x
                      : arith::DivUIOp::create(b, loc, x, constant(divisor));
}

Value LaneIndices::rem(Value x, int64_t divisor) {
  return arith::RemUIOp::create(b, loc, x, constant(divisor));
}

SmallVector<SmallVector<Value>>
mlir::sage::getLaneCoordinates(LaneIndices &ix, Attribute encoding,
                               ArrayRef<int64_t> shape) {
  SmallVector<SmallVector<Value>> coordinates;
  if (auto acc = dyn_cast<AccFragmentAttr>(encoding)) {
    // m16n8 accumulators (every warp row of the table): element 4j + e at
    // row g + 8 (e / 2), column 8j + 2t + e % 2 of the warp's rows.
    int64_t m = acc.getMma().getM(), n = acc.getMma().getN();
    Value warpRow = ix.affine(ix.warp, m, 0);
    SmallVector<Value> rows = {ix.add(warpRow, ix.g),
                               ix.add(warpRow, ix.affine(ix.g, 1, 8))};
    for (int64_t j = 0; j < shape[1] / n; ++j) {
      // One value a distinct row and column, so that users can key on them.
      Value columns[] = {ix.affine(ix.t, 2, j * n),
                         ix.affine(ix.t, 2, j * n + 1)};
      for (int64_t e = 0; e < 4; ++e)
        coordinates.push_back({rows[e / 2], columns[e % 2]});
    }
    return coordinates;
  }
  if (auto rows = dyn_cast<RowFragmentAttr>(encoding)) {
    Value warpRow = ix.affine(ix.warp, rows.getM(), 0);
    for (int64_t half = 0; half < rows.getM() / 8; ++half)
      coordinates.push_back({ix.add(warpRow, ix.affine(ix.g, 1, 8 * half))});
    return coordinates;
  }
  // Replicated: every element, row-major.
  int64_t elements = ShapedType::getNumElements(shape);
  for (int64_t x = 0; x < elements; ++x) {
    SmallVector<Value> index(shape.size());
    int64_t rest = x;
    for (int64_t d = shape.size() - 1; d >= 0; --d) {
      index[d] = ix.constant(rest % shape[d]);
      rest /= shape[d];
    }
    coordinates.push_back(index);
  }
  return coordinates;
}

int64_t mlir::sage::getLaneRunLength(Attribute encoding,
                                     ArrayRef<int64_t> shape) {
  if (isa<AccFragmentAttr>(encoding))
    return 2;
  if (isa<RowFragmentAttr>(encoding) || shape.empty())
    return 1;
  return shape.back();
}

std::optional<int64_t> mlir::sage::getEncodingWarps(Attribute encoding) {
  if (auto acc = dyn_cast<AccFragmentAttr>(encoding))
    return acc.getWarps();
  if (auto rows = dyn_cast<RowFragmentAttr>(encoding))
    return rows.getWarps();
  return std::nullopt;
}

Value mlir::sage::concatVectors(OpBuilder &b, Location loc,
                                ArrayRef<Value> parts) {
  Value whole = parts[0];
  for (Value part : parts.drop_front()) {
    int64_t length = cast<VectorType>(whole.getType()).getNumElements() +
                     cast<VectorType>(part.getType()).getNumElements();
    whole = vector::ShuffleOp::create(
        b, loc, whole, part, llvm::to_vector(llvm::seq<int64_t>(0, length)));
  }
  return whole;
}

Value mlir::sage::readMatricesByLane(OpBuilder &b, WarpLoadMatricesOp op) {
  LaneIndices ix(b, op.getLoc());
  int64_t words = op.getElementsPerWord();
  Type element = op.getResult().getType().getElementType();
  auto wordType = VectorType::get({words}, element);
  Value padding =
      arith::ConstantOp::create(b, ix.loc, element, b.getZeroAttr(element));
  SmallVector<Value> registers;
  for (auto [rowOffset, columnOffset] :
       llvm::zip(op.getRowOffsets(), op.getColumnOffsets())) {
    Value row = ix.add(op.getRow(), ix.affine(ix.g, 1, rowOffset));
    Value column = ix.add(op.getColumn(), ix.affine(ix.t, words, columnOffset));
    registers.push_back(vector::TransferReadOp::create(
        b, ix.loc, wordType, op.getTile(), ValueRange{row, column}, padding,
        ArrayRef<bool>{true}));
  }
  return concatVectors(b, ix.loc, registers);
}

bool mlir::sage::isWholeColumnTiles(tensor::ExtractSliceOp slice, int64_t n) {
  RankedTensorType source = slice.getSourceType();
  if (source.getRank() != 2 || !source.hasStaticShape() ||
      slice.getType().getRank() != 2 || !slice.hasUnitStride())
    return false;
  ArrayRef<int64_t> offsets = slice.getStaticOffsets();
  ArrayRef<int64_t> sizes = slice.getStaticSizes();
  return offsets[0] == 0 && sizes[0] == source.getDimSize(0) &&
         !ShapedType::isDynamic(offsets[1]) && offsets[1] % n == 0 &&
         !ShapedType::isDynamic(sizes[1]) && sizes[1] > 0 && sizes[1] % n == 0;
}
