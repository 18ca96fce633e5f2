//===- DistributeQMma.cpp - a sage.qmma tile as a chain of warp MMAs ------===//
//
// Part of sage-distribute-tiles (docs/Levels.md, distribute). A sage.qmma
// whose result is encoded #sage.acc_fragment becomes, in each lane, one
// sage.warp_mma per (N tile, K chunk) of its row of the MMA table, chained
// over the chunks, then the scales. The lane reads its elements of A and B
// from the operand tiles, which stay tensors shared by the CTA: where the
// fragments come from in memory is the promote level's business. An A
// encoded as another MMA's accumulators (P) is taken from the lane's own
// registers, positions permuted as the accumulator order says
// (docs/Layouts.md); B is then read in the same order. Registers that are
// a lane's words of 16-byte matrix rows (8- and 16-bit A, and B unless
// read in P's key order without a gathered tile) are read a warp's
// matrices at a time (sage.warp_load_matrices: one ldmatrix where
// sage-lower-staging finds the tile in workgroup memory).
//
// Fragment maps of an m16n8kK row with e elements a 32-bit register (PTX
// ISA, "Matrix fragments for mma.m16n8k*"), lane (g, t) = (lane / 4,
// lane % 4): A element x: row g + 8 ((x / e) % 2), position
// (x / e / 2) K / 2 + e t + x % e; B element x: column g, position
// (x / e) K / 2 + e t + x % e; accumulator element x: row g + 8 (x / 2),
// column 2 t + x % 2.
//
//===----------------------------------------------------------------------===//

#include "DistributePatterns.h"
#include "LaneFragments.h"
#include "sage/Dialect/Sage/IR/SageOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::sage;

/// Which scale of `scales` ([groups, 1] of the tile) token `token` of the
/// tile uses, as `quant` groups the tokens of operand A (rows) or B
/// (columns); without `quant`, one scale a token or one for all.
static Value getGroup(LaneIndices &ix, QuantAttr quant, bool isA, Value token,
                      int64_t scaleRows) {
  if (!quant)
    return scaleRows == 1 ? ix.constant(0) : token;
  int64_t block = quant.getBlock(), warp = quant.getWarp();
  switch (quant.getGranularity()) {
  case Granularity::PerTensor:
    return ix.constant(0);
  case Granularity::PerToken:
    return token;
  case Granularity::PerBlock:
    return ix.div(token, block);
  case Granularity::PerWarp:
    // Groups of `warp` tokens, rows or columns alike (getScaleShape).
    return ix.div(token, warp);
  case Granularity::PerThread: {
    Value local = ix.rem(token, block);
    if (isA) {
      // Rows r and r + 8 of a warp share lane g's scale: 8 a warp.
      // One op a statement: the IR must not depend on the order in which
      // the host compiler evaluates a call's arguments.
      Value first = ix.affine(ix.div(token, block), block / warp * 8, 0);
      Value warpGroups = ix.affine(ix.div(local, warp), 8, 0);
      Value rowClass = ix.rem(ix.rem(local, warp), 8);
      return ix.add(first, ix.add(warpGroups, rowClass));
    }
    // Columns 8j + 2t, 8j + 2t + 1 share lane t's scale: 4 a block.
    Value first = ix.affine(ix.div(token, block), 4, 0);
    Value pair = ix.div(ix.rem(local, 8), 2);
    return ix.add(first, pair);
  }
  default:
    // Per-channel and microscaled groups come with block-scaled MMAs
    // (the qmma verifier), which checkDistributableQMma refuses.
    llvm_unreachable("row-wise scales only");
  }
}

/// The lane's elements of an operand tile `tile` ([rows, K]) in row `row`,
/// element i at position `stride * t + offsets[i]`: one transfer_read
/// where the offsets are consecutive, else one extract an element.
static Value readElements(LaneIndices &ix, Value tile, Value row,
                          int64_t stride, ArrayRef<int64_t> offsets) {
  Type element = cast<RankedTensorType>(tile.getType()).getElementType();
  auto type = VectorType::get({int64_t(offsets.size())}, element);
  bool consecutive = true;
  for (size_t i = 1; i < offsets.size(); ++i)
    consecutive &= offsets[i] == offsets[0] + int64_t(i);
  if (consecutive) {
    Value padding = arith::ConstantOp::create(ix.b, ix.loc, element,
                                              ix.b.getZeroAttr(element));
    Value first = ix.affine(ix.t, stride, offsets[0]);
    return vector::TransferReadOp::create(ix.b, ix.loc, type, tile,
                                          ValueRange{row, first}, padding,
                                          ArrayRef<bool>{true});
  }
  SmallVector<Value> values;
  for (int64_t offset : offsets) {
    Value position = ix.affine(ix.t, stride, offset);
    values.push_back(tensor::ExtractOp::create(ix.b, ix.loc, tile,
                                               ValueRange{row, position}));
  }
  return vector::FromElementsOp::create(ix.b, ix.loc, type, values);
}

/// The order in which P, taken from its accumulator registers, feeds the
/// MMA positions of a K chunk: the natural one (16-bit P) or the
/// accumulator order (docs/Layouts.md). Lane t feeds positions p + e t
/// (p one of lane 0's); the order keeps P in the lane when those hold keys
/// key(p) + 2 t, lane t's columns of the same accumulator tile. Fails
/// where neither order does.
FailureOr<MmaPackedAttr>
mlir::sage::getProbabilityKeyOrder(MLIRContext *context, MmaAttr mma) {
  int64_t k = mma.getK(), e = 32 / mma.getA().getIntOrFloatBitWidth();
  for (FragmentOrder order :
       {FragmentOrder::Natural, FragmentOrder::Accumulator}) {
    auto layout =
        MmaPackedAttr::get(context, DimRole::Tokens, k, /*chunks=*/1, order);
    bool inLane = true;
    for (int64_t p = 0; p < k; ++p) {
      if (p % (k / 2) >= e)
        continue; // not lane 0's
      int64_t key = layout.getIndexAt(p);
      inLane &= key % 8 < 2;
      for (int64_t t = 1; t < 4; ++t)
        inLane &= layout.getIndexAt(p + e * t) == key + 2 * t;
    }
    if (inLane)
      return layout;
  }
  return failure();
}

/// B ([N, keys]) with its keys in `order`'s MMA positions: column p of the
/// result is key getIndexAt(p) of `tile`. A linalg.generic whose input map
/// is the order's index expression, so that each lane's register of B is
/// e consecutive elements (one load), and sage-promote-tiles can stage the
/// tile in that order.
Value mlir::sage::gatherInKeyOrder(OpBuilder &b, Location loc, Value tile,
                                   MmaPackedAttr order) {
  auto type = cast<RankedTensorType>(tile.getType());
  MLIRContext *context = b.getContext();
  AffineExpr n = getAffineDimExpr(0, context), p = getAffineDimExpr(1, context);
  auto input = AffineMap::get(2, 0, {n, order.getIndexExpr(p)}, context);
  auto output = AffineMap::getMultiDimIdentityMap(2, context);
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  auto gather = linalg::GenericOp::create(
      b, loc, TypeRange{type}, ValueRange{tile}, ValueRange{init},
      ArrayRef<AffineMap>{input, output},
      ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                    utils::IteratorType::parallel},
      [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(nested, nestedLoc, args[0]);
      });
  return gather.getResult(0);
}

/// Whether `scales` is a constant tile of ones (P V's unit scales).
static bool isOnes(Value scales) {
  DenseElementsAttr dense;
  return matchPattern(scales, m_Constant(&dense)) && dense.isSplat() &&
         dense.getSplatValue<APFloat>().isExactlyValue(1.0);
}

/// The lane's B registers of the n-tile at row `row` of `tile` ([N, K]),
/// one vector a chunk of `mma.getK()` positions: register r of chunk c is
/// the word at positions c k + r k / 2 + e t of row g, read four matrices
/// at a time.
static SmallVector<Value> readBMatrices(LaneIndices &ix, Value tile,
                                        MmaAttr mma, int64_t row,
                                        int64_t chunks) {
  int64_t k = mma.getK(), words = 2 * chunks;
  SmallVector<int64_t> columns;
  for (int64_t w = 0; w < words; ++w)
    columns.push_back(w * k / 2);
  int64_t e = 32 / mma.getB().getIntOrFloatBitWidth();
  SmallVector<Value> chunkFragments;
  Value rowValue = ix.constant(row), zero = ix.constant(0);
  for (int64_t first = 0; first < words; first += 4) {
    int64_t count = std::min<int64_t>(4, words - first); // 4 or 2
    auto type = VectorType::get({count * e}, mma.getB());
    Value matrices = WarpLoadMatricesOp::create(
        ix.b, ix.loc, type, tile, rowValue, zero,
        SmallVector<int64_t>(count, 0),
        ArrayRef<int64_t>(columns).slice(first, count));
    if (count == 2) {
      chunkFragments.push_back(matrices);
      continue;
    }
    for (int64_t c = 0; c < 2; ++c)
      chunkFragments.push_back(vector::ExtractStridedSliceOp::create(
          ix.b, ix.loc, matrices, ArrayRef<int64_t>{c * 2 * e},
          ArrayRef<int64_t>{2 * e}, ArrayRef<int64_t>{1}));
  }
  return chunkFragments;
}

/// Whether getGroup gives every accumulator a lane holds in a tile of
/// `extent` rows (isA) or columns one group: the lane's rows are g and
/// g + 8 of its warp's 16 (a 16-aligned pair), its columns 8 j + 2 t and
/// 8 j + 2 t + 1 for every j (getLaneCoordinates).
static bool isLaneUniform(QuantAttr quant, bool isA, int64_t extent,
                          int64_t scaleRows) {
  if (!quant)
    return scaleRows == 1;
  int64_t block = quant.getBlock(), warp = quant.getWarp();
  switch (quant.getGranularity()) {
  case Granularity::PerTensor:
    return true;
  case Granularity::PerToken:
    return false;
  case Granularity::PerBlock:
    return isA ? block % 16 == 0 : extent <= block;
  case Granularity::PerWarp:
    return isA ? warp % 16 == 0 : extent <= warp;
  case Granularity::PerThread:
    // Rows: lane g's class within a warp of 16; columns: lane t's pair
    // within one block.
    return isA ? warp == 16 && block % 16 == 0 : extent <= block;
  default:
    return false;
  }
}

/// delta_a(row) * delta_b(column) for each accumulator the lane holds
/// (at its getLaneCoordinates), or null where both scale tiles are ones.
/// Where both scales are the same for all of them (isLaneUniform), one
/// product, broadcast: sage-distribute-tiles may then fold it into the
/// softmax's score_scale.
static Value getFactors(LaneIndices &ix, QMmaOp op, Value aScales,
                        Value bScales, VectorType type) {
  if (isOnes(op.getAScales()) && isOnes(op.getBScales()))
    return {};
  int64_t aGroups = op.getAScales().getType().getDimSize(0);
  int64_t bGroups = op.getBScales().getType().getDimSize(0);
  ArrayRef<int64_t> shape = op.getResult().getType().getShape();
  bool uniform =
      isLaneUniform(op.getAQuantAttr(), /*isA=*/true, shape[0], aGroups) &&
      isLaneUniform(op.getBQuantAttr(), /*isA=*/false, shape[1], bGroups);
  Value zero = ix.constant(0);
  // One scale a distinct row or column Value.
  DenseMap<Value, Value> rowScales, columnScales;
  auto scaleOf = [&](DenseMap<Value, Value> &cache, Value scales,
                     QuantAttr quant, bool isA, Value token,
                     int64_t groups) -> Value {
    Value &scale = cache[token];
    if (!scale) {
      Value group = getGroup(ix, quant, isA, token, groups);
      scale = tensor::ExtractOp::create(ix.b, ix.loc, scales,
                                        ValueRange{group, zero});
    }
    return scale;
  };
  RankedTensorType result = op.getResult().getType();
  SmallVector<Value> factors;
  for (ArrayRef<Value> at :
       getLaneCoordinates(ix, result.getEncoding(), result.getShape())) {
    Value rowScale = scaleOf(rowScales, aScales, op.getAQuantAttr(),
                             /*isA=*/true, at[0], aGroups);
    Value columnScale = scaleOf(columnScales, bScales, op.getBQuantAttr(),
                                /*isA=*/false, at[1], bGroups);
    factors.push_back(
        arith::MulFOp::create(ix.b, ix.loc, rowScale, columnScale));
    if (uniform)
      return vector::BroadcastOp::create(ix.b, ix.loc, type, factors[0]);
  }
  return vector::FromElementsOp::create(ix.b, ix.loc, type, factors);
}

void mlir::sage::replaceWithScaledSum(ConversionPatternRewriter &rewriter,
                                      LaneIndices &ix, QMmaOp op, Value acc,
                                      Value aScales, Value bScales, Value sum,
                                      VectorType resultType) {
  // result = acc + sum * delta_a(row) * delta_b(column), in the result's
  // element type, contractible into one FMA an element (the scores' dS
  // correction is their product's acc, docs/Levels.md).
  Type resultElement = resultType.getElementType();
  auto wideType = VectorType::get(cast<VectorType>(sum.getType()).getShape(),
                                  resultElement);
  Type sumElement = getElementTypeOrSelf(sum.getType());
  if (sumElement.isInteger())
    sum = arith::SIToFPOp::create(rewriter, ix.loc, wideType, sum);
  else if (sumElement != resultElement)
    sum = arith::ExtFOp::create(rewriter, ix.loc, wideType, sum);
  auto contract = arith::FastMathFlags::contract;
  if (Value factors = getFactors(ix, op, aScales, bScales, wideType))
    sum = arith::MulFOp::create(rewriter, ix.loc, sum, factors, contract);
  // A +0 acc (P V's) adds nothing but an instruction an element (64 a lane
  // at D = 128), which LLVM keeps: x + 0 is not x for x = -0, a zero the
  // result may then carry instead.
  if (matchPattern(acc, m_PosZeroFloat()))
    return rewriter.replaceOp(op, sum);
  rewriter.replaceOpWithNewOp<arith::AddFOp>(op, acc, sum, contract);
}

Value mlir::sage::getProbabilityFragment(OpBuilder &b, Location loc, Value p,
                                         MmaAttr mma, MmaPackedAttr order,
                                         int64_t chunk) {
  // A warp's 16 rows of A, as the m16n8kK A fragment (a wgmma's A
  // registers are, per warp, that fragment).
  int64_t k = mma.getK(), e = 32 / mma.getA().getIntOrFloatBitWidth();
  SmallVector<int64_t> picks;
  for (int64_t x = 0; x < 16 * k / 32; ++x) {
    int64_t half = (x / e) % 2;
    int64_t key = chunk * k + order.getIndexAt((x / e / 2) * (k / 2) + x % e);
    picks.push_back(4 * (key / 8) + 2 * half + key % 2);
  }
  return vector::ShuffleOp::create(b, loc, p, p, picks);
}

namespace {
struct QMmaToWarpMmas : OpConversionPattern<QMmaOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(QMmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MmaAttr mma = op.getMmaAttr();
    auto resultType =
        getTypeConverter()->convertType<VectorType>(op.getResult().getType());
    if (!mma || mma.getScope() != MmaScope::Warp || !resultType)
      return rewriter.notifyMatchFailure(op, "not a distributed warp MMA");
    int64_t m = mma.getM(), n = mma.getN(), k = mma.getK();
    int64_t e = 32 / mma.getA().getIntOrFloatBitWidth();
    ArrayRef<int64_t> aShape = op.getA().getType().getShape();
    int64_t columns = op.getResult().getType().getDimSize(1);
    int64_t chunks = aShape[1] / k, tiles = columns / n;
    // P from the registers of its own MMA's accumulators (decided before
    // any op is built: a failing pattern must leave the IR as it was).
    MmaPackedAttr keyOrder;
    if (auto pAcc = dyn_cast_or_null<AccFragmentAttr>(
            op.getA().getType().getEncoding())) {
      FailureOr<MmaPackedAttr> order =
          getProbabilityKeyOrder(op.getContext(), mma);
      // Every m16n8 row of the table keeps P in the lane in one order.
      if (failed(order) || pAcc.getMma().getM() != m ||
          pAcc.getMma().getN() != 8)
        return rewriter.notifyMatchFailure(op, "A not in the lane");
      keyOrder = *order;
    }
    auto keyAt = [&](int64_t p) {
      return keyOrder ? keyOrder.getIndexAt(p) : p;
    };
    LaneIndices ix(rewriter, loc);
    // B read in P's key order: from a tile gathered in that order where it
    // permutes the keys (lane t's words are then positions e t ..), else
    // from B itself (keys 2 t .. of the natural order).
    Value b = adaptor.getB();
    bool gathered = keyOrder &&
                    keyOrder.getOrder() == FragmentOrder::Accumulator &&
                    cast<RankedTensorType>(b.getType()).hasStaticShape();
    if (gathered)
      b = gatherInKeyOrder(rewriter, loc, b, keyOrder);
    Value warpRow = ix.affine(ix.warp, m, 0);
    // Registers that are words of 16-byte matrix rows are read a warp's
    // matrices at a time (sage.warp_load_matrices: one ldmatrix where the
    // tile is in workgroup memory); B's, where lane t's word of each row is
    // its positions e t .., not P's key order (2 t ..). A matrix row is
    // 16 bytes: half a chunk (k bits = 256).
    unsigned bits = mma.getA().getIntOrFloatBitWidth();
    bool byMatrices =
        (bits == 8 || bits == 16) && k * bits == 256 && m == 16 && n == 8;
    bool bByMatrices =
        byMatrices &&
        (!keyOrder || gathered ||
         (keyOrder.getOrder() == FragmentOrder::Natural && e == 2));

    // A: the lane's m * k / 32 elements of each chunk.
    SmallVector<Value> aFragments;
    for (int64_t c = 0; c < chunks; ++c) {
      if (keyOrder) {
        aFragments.push_back(getProbabilityFragment(
            rewriter, loc, adaptor.getA(), mma, keyOrder, c));
        continue;
      }
      if (byMatrices) {
        // Register r: rows g + 8 (r % 2), positions (r / 2) k / 2 + e t.
        aFragments.push_back(WarpLoadMatricesOp::create(
            rewriter, loc, VectorType::get({m * k / 32}, mma.getA()),
            adaptor.getA(), warpRow, ix.constant(0),
            ArrayRef<int64_t>{0, 8, 0, 8},
            ArrayRef<int64_t>{c * k, c * k, c * k + k / 2, c * k + k / 2}));
        continue;
      }
      SmallVector<Value> registers;
      for (int64_t r = 0; r < m * k / 32 / e; ++r) {
        Value row = ix.add(warpRow, ix.affine(ix.g, 1, 8 * (r % 2)));
        SmallVector<int64_t> offsets;
        for (int64_t i = 0; i < e; ++i)
          offsets.push_back(c * k + (r / 2) * (k / 2) + i);
        registers.push_back(readElements(ix, adaptor.getA(), row, e, offsets));
      }
      aFragments.push_back(concatVectors(rewriter, loc, registers));
    }

    // Per N tile: the chain over the chunks, from zero in the MMA's
    // accumulator type.
    auto accType = VectorType::get({m * n / 32}, mma.getAcc());
    Value zero = arith::ConstantOp::create(
        rewriter, loc, accType,
        SplatElementsAttr::get(accType, rewriter.getZeroAttr(mma.getAcc())));
    SmallVector<Value> sums;
    for (int64_t j = 0; j < tiles; ++j) {
      Value acc = zero;
      if (bByMatrices) {
        for (auto [aFragment, bFragment] :
             llvm::zip(aFragments, readBMatrices(ix, b, mma, j * n, chunks)))
          acc = WarpMmaOp::create(rewriter, loc, accType, aFragment, bFragment,
                                  acc, /*a_scales=*/Value(),
                                  /*b_scales=*/Value(), mma,
                                  /*scale_selectors=*/nullptr);
        sums.push_back(acc);
        continue;
      }
      Value column = ix.affine(ix.g, 1, j * n);
      for (int64_t c = 0; c < chunks; ++c) {
        SmallVector<Value> registers;
        for (int64_t r = 0; r < n * k / 32 / e; ++r) {
          // Lane 0's position p holds key (or channel) c k + keyAt(p);
          // lane t's, that plus e t, or 2 t in P's key order. The gathered
          // tile holds position p at column p.
          SmallVector<int64_t> offsets;
          for (int64_t i = 0; i < e; ++i)
            offsets.push_back(
                c * k + (gathered ? r * (k / 2) + i : keyAt(r * (k / 2) + i)));
          registers.push_back(readElements(
              ix, b, column, keyOrder && !gathered ? 2 : e, offsets));
        }
        acc = WarpMmaOp::create(rewriter, loc, accType, aFragments[c],
                                concatVectors(rewriter, loc, registers), acc,
                                /*a_scales=*/Value(), /*b_scales=*/Value(), mma,
                                /*scale_selectors=*/nullptr);
      }
      sums.push_back(acc);
    }

    replaceWithScaledSum(rewriter, ix, op, adaptor.getAcc(),
                         adaptor.getAScales(), adaptor.getBScales(),
                         concatVectors(rewriter, loc, sums), resultType);
    return success();
  }
};

} // namespace

LogicalResult mlir::sage::checkDistributableQMma(QMmaOp op) {
  MmaAttr mma = op.getMmaAttr();
  if (!mma ||
      !isa_and_nonnull<AccFragmentAttr>(op.getResult().getType().getEncoding()))
    return success();
  if (mma.getScales() != MmaScaleKind::None)
    return op.emitOpError() << "cannot be distributed yet: block-scaled "
                               "MMAs (NVFP4) are not";
  // The pattern reads B and the scales from CTA-wide tiles, and A from the
  // lanes only as another MMA's accumulators (P).
  auto encodingOf = [](Value value) {
    return cast<RankedTensorType>(value.getType()).getEncoding();
  };
  if (Attribute a = encodingOf(op.getA()); a && !isa<AccFragmentAttr>(a))
    return op.emitOpError() << "cannot be distributed: A held as " << a
                            << "; only as MMA accumulators (P)";
  for (Value tile : {op.getB(), op.getAScales(), op.getBScales()})
    if (Attribute encoding = encodingOf(tile))
      return op.emitOpError()
             << "cannot be distributed: B and the scales are read from "
                "tiles the CTA shares, got one held as "
             << encoding;
  // A wgmma reads its shared operands as tiles of core matrices: static,
  // whole 16-byte rows (DistributeWarpgroupMma.cpp).
  if (mma.getScope() == MmaScope::Warpgroup) {
    // A comes from the lanes (P, as a warp MMA's m16n8 accumulators: the
    // only encoding of those) exactly where the row reads it from
    // registers.
    auto pAcc = dyn_cast_or_null<AccFragmentAttr>(encodingOf(op.getA()));
    bool aInRegisters = mma.getASource() == OperandSource::Registers;
    if (bool(pAcc) != aInRegisters)
      return op.emitOpError()
             << "cannot be distributed: its wgmma reads A from "
             << stringifyOperandSource(mma.getASource()) << ", but A is "
             << (pAcc ? "held by the lanes" : "a tile the CTA shares");
    for (Value tile : {op.getA(), op.getB()}) {
      auto type = cast<RankedTensorType>(tile.getType());
      if (isa_and_nonnull<AccFragmentAttr>(type.getEncoding()))
        continue;
      if (!isCoreMatrixOperand(type))
        return op.emitOpError()
               << "cannot be distributed: a wgmma reads its operands from "
                  "shared memory as static tiles of whole 16-byte rows, got "
               << type;
    }
  }
  bool unitScales = isOnes(op.getAScales()) && isOnes(op.getBScales());
  if (!unitScales && !op.getResult().getType().getElementType().isF32())
    return op.emitOpError() << "cannot be distributed: scales on an f16 "
                               "result (only P V's unit scales)";
  return success();
}

void mlir::sage::populateDistributeQMmaPatterns(const TypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<QMmaToWarpMmas>(converter, patterns.getContext());
}
