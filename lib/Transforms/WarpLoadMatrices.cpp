//===- WarpLoadMatrices.cpp - a warp's matrix reads as ldmatrix -----------===//
//
// ldmatrix (PTX ISA, "Warp-level matrix load instruction: ldmatrix"):
// lane 8 q + i gives the address of row i of matrix q, and lane (g, t)
// receives the word t of row g of each matrix: sage.warp_load_matrices'
// result, when every row address is 16-byte aligned.
//
//===----------------------------------------------------------------------===//

#include "WarpLoadMatrices.h"
#include "LaneFragments.h"
#include "Staging.h"
#include "sage/Dialect/Sage/IR/SageOps.h"
#include "sage/Dialect/Sage/IR/WorkgroupStaging.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::sage;

/// Whether every matrix row `op` reads starts on a 16-byte boundary of a
/// 16-byte aligned buffer (the kernel's workgroup tiles are, and so is each
/// stage of a multi-buffered one): unit columns, rows a multiple of 16
/// bytes apart, the buffer's offset, `column` and the column offsets
/// multiples of 16 bytes (the verifier checks the offsets).
static bool hasAlignedRows(WarpLoadMatricesOp op) {
  auto type = cast<MemRefType>(op.getTile().getType());
  int64_t rowElements = 4 * op.getElementsPerWord();
  auto [strides, offset] = type.getStridesAndOffset();
  std::optional<int64_t> column = getConstantIntValue(op.getColumn());
  return strides[1] == 1 && !ShapedType::isDynamic(strides[0]) &&
         strides[0] % rowElements == 0 && column &&
         *column % rowElements == 0 && startsAligned(op.getTile(), 16);
}

/// `offsets[q]` for the lane's matrix q: base + step q where the offsets
/// are an arithmetic sequence, else a select among them.
static Value selectOffset(OpBuilder &b, Location loc, ArrayRef<int64_t> offsets,
                          Value q) {
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  int64_t step = offsets.size() > 1 ? offsets[1] - offsets[0] : 0;
  bool sequence = true;
  for (size_t i = 1; i < offsets.size(); ++i)
    sequence &= offsets[i] - offsets[i - 1] == step;
  if (sequence) {
    Value scaled = arith::MulIOp::create(b, loc, q, constant(step));
    return arith::AddIOp::create(b, loc, scaled, constant(offsets[0]));
  }
  Value offset = constant(offsets[0]);
  for (size_t i = 1; i < offsets.size(); ++i) {
    Value isMatrix =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, q, constant(i));
    offset =
        arith::SelectOp::create(b, loc, isMatrix, constant(offsets[i]), offset);
  }
  return offset;
}

/// The shared-memory address of `tile[row, column]` (unit column stride).
static Value getSharedAddress(OpBuilder &b, Location loc, Value tile, Value row,
                              Value column) {
  return getElementPointer(
      b, loc, tile, nvgpu::NVGPUDialect::kSharedMemoryAddressSpace,
      [&](memref::ExtractStridedMetadataOp metadata) -> Value {
        Value rowStart =
            arith::MulIOp::create(b, loc, row, metadata.getStrides().front());
        return arith::AddIOp::create(b, loc, rowStart, column);
      });
}

void mlir::sage::lowerWarpLoadMatrices(RewriterBase &rewriter,
                                       WarpLoadMatricesOp op) {
  rewriter.setInsertionPoint(op);
  if (!isWorkgroupBuffer(op.getTile()) || !hasAlignedRows(op)) {
    rewriter.replaceOp(op, readMatricesByLane(rewriter, op));
    return;
  }
  Location loc = op.getLoc();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  int64_t count = op.getRowOffsets().size();
  // Lane 8 q + i: row i of matrix q; lanes past the 8 count that ldmatrix
  // reads addresses from repeat them.
  Value thread = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value lane = arith::RemUIOp::create(rewriter, loc, thread, constant(32));
  Value q = arith::RemUIOp::create(
      rewriter, loc, arith::DivUIOp::create(rewriter, loc, lane, constant(8)),
      constant(count));
  Value rowInMatrix = arith::RemUIOp::create(rewriter, loc, lane, constant(8));
  Value row = arith::AddIOp::create(
      rewriter, loc, op.getRow(),
      arith::AddIOp::create(rewriter, loc,
                            selectOffset(rewriter, loc, op.getRowOffsets(), q),
                            rowInMatrix));
  Value column = arith::AddIOp::create(
      rewriter, loc, op.getColumn(),
      selectOffset(rewriter, loc, op.getColumnOffsets(), q));
  // nvvm.ldmatrix, not nvgpu.ldmatrix: the latter's lowering to NVVM
  // casts the words to vectors of the unconverted element type, which
  // fails for 8-bit floats (V^T's E4M3). The words move as b16 pairs;
  // the element width does not matter to ldmatrix without .trans.
  Type i32 = rewriter.getI32Type();
  Type words = count == 1
                   ? i32
                   : LLVM::LLVMStructType::getLiteral(
                         rewriter.getContext(), SmallVector<Type>(count, i32));
  Value loaded = NVVM::LdMatrixOp::create(
      rewriter, loc, words,
      getSharedAddress(rewriter, loc, op.getTile(), row, column), count,
      NVVM::MMALayout::row,
      NVVM::LdStMatrixShapeAttr::get(rewriter.getContext(), 8, 8),
      NVVM::LdStMatrixEltType::B16);
  SmallVector<Value> registers;
  for (int64_t i = 0; i < count; ++i)
    registers.push_back(
        count == 1 ? loaded
                   : LLVM::ExtractValueOp::create(rewriter, loc, loaded, i));
  Value vector = vector::FromElementsOp::create(
      rewriter, loc, VectorType::get({count}, i32), registers);
  rewriter.replaceOpWithNewOp<vector::BitCastOp>(op, op.getResult().getType(),
                                                 vector);
}
