//===- OperandLayouts.cpp - where MMA operands live -----------------------===//
//
// The arithmetic of #sage.mma_packed and #sage.mma_ordered
// (docs/Layouts.md). A quantizer that stores an operand and a kernel that
// loads it into MMA registers both ask these functions, so the fragment
// order has one source.
//
//===----------------------------------------------------------------------===//

#include "sage/Dialect/Sage/IR/SageAttrs.h"

#include "mlir/IR/AffineExpr.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::sage;

#include "sage/Dialect/Sage/IR/SageAttrInterfaces.cpp.inc"

/// A k-chunk of an m16n8kK mma.sync operand row is 32 bytes: eight 32-bit
/// words, two for each lane of a quad.
static constexpr int64_t kChunkBytes = 32;

/// What #sage.mma_packed and #sage.mma_ordered share: the axis, the MMA's
/// k and the element order.
static LogicalResult
verifyAxisAndOrder(function_ref<InFlightDiagnostic()> emitError, DimRole along,
                   int64_t k, FragmentOrder order) {
  if (along != DimRole::Features && along != DimRole::Tokens)
    return emitError() << "expected the contraction to run along features "
                          "or tokens, got "
                       << stringifyDimRole(along);
  if (k != 16 && k != 32 && k != 64)
    return emitError() << "expected k = 16, 32 or 64 (an MMA chunk of "
                          "16-, 8- or 4-bit elements), got "
                       << k;
  if (order == FragmentOrder::Accumulator && k == 16)
    return emitError() << "order = accumulator feeds an 8- or 4-bit A "
                          "operand from an m16n8 accumulator and needs k = 32 "
                          "or 64 (a 16-bit one is the accumulator's own "
                          "order), got "
                       << k;
  return success();
}

LogicalResult
MmaPackedAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      DimRole along, int64_t k, int64_t chunks,
                      FragmentOrder order) {
  if (chunks != 1 && chunks != 2)
    return emitError() << "expected chunks = 1 or 2 (8- or 16-byte lane "
                          "loads), got "
                       << chunks;
  return verifyAxisAndOrder(emitError, along, k, order);
}

LogicalResult
MmaOrderedAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       DimRole along, int64_t k, FragmentOrder order,
                       OperandTiling tiling) {
  // wgmma takes its A operand from registers in 8-bit formats only.
  if (order == FragmentOrder::Accumulator && k == 64)
    return emitError() << "order = accumulator feeds wgmma's register A "
                          "operand, which has no 4-bit formats: it needs "
                          "k = 32, got 64";
  return verifyAxisAndOrder(emitError, along, k, order);
}

MmaPackedAttr MmaPackedAttr::getWidest(MLIRContext *context, DimRole along,
                                       int64_t k, int64_t extent,
                                       FragmentOrder order) {
  // Two chunks a group where that pads the axis no further than one does.
  int64_t chunks =
      llvm::alignTo(extent, 2 * k) == llvm::alignTo(extent, k) ? 2 : 1;
  return MmaPackedAttr::get(context, along, k, chunks, order);
}

int64_t OperandLayoutAttrInterface::getPaddedExtent(int64_t extent) const {
  return llvm::alignTo(extent, getGroupSize());
}

DimRole MmaPackedAttr::getContractionAxis() const { return getAlong(); }

int64_t MmaPackedAttr::getMmaK() const { return getK(); }

int64_t MmaPackedAttr::getGroupSize() const { return getChunks() * getK(); }

int64_t MmaPackedAttr::getLaneBytes() const {
  return getChunks() * kChunkBytes / 4;
}

/// The accumulator order, on chunks of the MMA's k (32 or 64) elements:
/// position (k / 2) h + e t + i (e = k / 8 elements a register) holds the
/// key lane t has in accumulator tile (k / 16) h + i / 2, column 2t + i % 2
/// (docs/Layouts.md). One expression serves both the constant positions
/// of getIndexAt and the index arithmetic of tiles (getIndexExpr).
static AffineExpr getOrderedIndexExpr(FragmentOrder order, int64_t k,
                                      AffineExpr position) {
  if (order == FragmentOrder::Natural)
    return position;
  int64_t e = k / 8;
  AffineExpr base = position.floorDiv(k) * k, p = position % k;
  AffineExpr h = p.floorDiv(k / 2), t = (p % (k / 2)).floorDiv(e), i = p % e;
  return base + h * (k / 2) + i.floorDiv(2) * 8 + t * 2 + i % 2;
}

static int64_t getOrderedIndexAt(MLIRContext *context, FragmentOrder order,
                                 int64_t k, int64_t position) {
  AffineExpr index =
      getOrderedIndexExpr(order, k, getAffineConstantExpr(position, context));
  return cast<AffineConstantExpr>(index).getValue();
}

/// The inverse: key (k / 2) h + 8 tile + 2 t + odd of a chunk is fed at
/// position (k / 2) h + e t + 2 tile + odd.
static AffineExpr getOrderedPositionExpr(FragmentOrder order, int64_t k,
                                         AffineExpr index) {
  if (order == FragmentOrder::Natural)
    return index;
  int64_t e = k / 8;
  AffineExpr base = index.floorDiv(k) * k, x = index % k;
  AffineExpr h = x.floorDiv(k / 2), tile = (x % (k / 2)).floorDiv(8);
  AffineExpr t = (x % 8).floorDiv(2), odd = x % 2;
  return base + h * (k / 2) + t * e + tile * 2 + odd;
}

static int64_t getOrderedPositionOf(MLIRContext *context, FragmentOrder order,
                                    int64_t k, int64_t index) {
  AffineExpr position =
      getOrderedPositionExpr(order, k, getAffineConstantExpr(index, context));
  return cast<AffineConstantExpr>(position).getValue();
}

AffineExpr MmaPackedAttr::getIndexExpr(AffineExpr position) const {
  return getOrderedIndexExpr(getOrder(), getK(), position);
}

AffineExpr MmaOrderedAttr::getIndexExpr(AffineExpr position) const {
  return getOrderedIndexExpr(getOrder(), getK(), position);
}

int64_t MmaPackedAttr::getIndexAt(int64_t position) const {
  return getOrderedIndexAt(getContext(), getOrder(), getK(), position);
}

int64_t MmaPackedAttr::getPositionOf(int64_t index) const {
  return getOrderedPositionOf(getContext(), getOrder(), getK(), index);
}

AffineExpr MmaPackedAttr::getPositionExpr(AffineExpr index) const {
  return getOrderedPositionExpr(getOrder(), getK(), index);
}

// Position kk = (k / 2) h + e t + i of chunk c of a group is stored at
// (2 e chunks) t + (2 e) c + e h + i: lane t's words of every chunk of the
// group are adjacent.
int64_t MmaPackedAttr::getStorageIndex(int64_t position) const {
  int64_t k = getK(), e = k / 8, group = getGroupSize();
  int64_t base = position / group * group, inGroup = position % group;
  int64_t c = inGroup / k, kk = inGroup % k;
  int64_t h = kk / (k / 2), t = kk % (k / 2) / e, i = kk % e;
  return base + 2 * e * getChunks() * t + 2 * e * c + e * h + i;
}

DimRole MmaOrderedAttr::getContractionAxis() const { return getAlong(); }

int64_t MmaOrderedAttr::getMmaK() const { return getK(); }

int64_t MmaOrderedAttr::getGroupSize() const { return getK(); }

// A lane's mma.sync registers of a chunk are words t and t + 4: apart.
int64_t MmaOrderedAttr::getLaneBytes() const { return 4; }

int64_t MmaOrderedAttr::getIndexAt(int64_t position) const {
  return getOrderedIndexAt(getContext(), getOrder(), getK(), position);
}

int64_t MmaOrderedAttr::getPositionOf(int64_t index) const {
  return getOrderedPositionOf(getContext(), getOrder(), getK(), index);
}

AffineExpr MmaOrderedAttr::getPositionExpr(AffineExpr index) const {
  return getOrderedPositionExpr(getOrder(), getK(), index);
}

int64_t MmaOrderedAttr::getStorageIndex(int64_t position) const {
  return position;
}

OperandTiling MmaOrderedAttr::getOperandTiling() const { return getTiling(); }
