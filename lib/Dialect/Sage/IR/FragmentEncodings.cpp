//===- FragmentEncodings.cpp - tiles spread over a CTA's lanes ------------===//
//
// The tensor encodings of the distribute level (docs/Levels.md): which
// vector one lane holds of an encoded tile. A tile that does not fit its
// encoding is an invalid type, with a diagnostic naming the mismatch.
//
//===----------------------------------------------------------------------===//

#include "sage/Dialect/Sage/IR/SageAttrs.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::sage;

/// Shared by the encodings' type verifiers: `getLaneType` found no vector;
/// `reason` says why.
static LogicalResult refuse(function_ref<InFlightDiagnostic()> emitError,
                            Attribute encoding, ArrayRef<int64_t> shape,
                            const Twine &reason) {
  std::string sizes;
  llvm::raw_string_ostream os(sizes);
  llvm::interleaveComma(shape, os, [&](int64_t size) {
    if (ShapedType::isDynamic(size))
      os << '?';
    else
      os << size;
  });
  return emitError() << "tile of shape [" << sizes << "] does not fit "
                     << encoding << ": " << reason;
}

/// A CTA has at most 1024 threads.
static constexpr int64_t kMaxWarps = 32;
/// A thread has at most 255 registers; a lane's vector stays far below
/// this bound, which keeps absurd tiles from unrolling without end.
static constexpr int64_t kMaxLaneElements = 1024;

/// Both fragment encodings split rows over a CTA's warps.
static LogicalResult verifyWarps(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t warps) {
  if (warps < 1 || warps > kMaxWarps)
    return emitError() << "expected 1 to " << kMaxWarps
                       << " warps (a CTA's), got " << warps;
  return success();
}

/// `elements` of `elementType` as the lane's vector, or null past the bound.
static VectorType getLaneVector(int64_t elements, Type elementType) {
  if (elements > kMaxLaneElements)
    return {};
  return VectorType::get({elements}, elementType);
}

static bool isStatic(ArrayRef<int64_t> shape) {
  return llvm::none_of(shape, ShapedType::isDynamic);
}

//===----------------------------------------------------------------------===//
// AccFragmentAttr
//===----------------------------------------------------------------------===//

LogicalResult
AccFragmentAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        MmaAttr mma, int64_t warps) {
  if (mma.getScope() != MmaScope::Warp)
    return emitError() << "accumulator fragments of warp MMAs only, got scope "
                       << stringifyMmaScope(mma.getScope());
  return verifyWarps(emitError, warps);
}

VectorType AccFragmentAttr::getLaneType(ArrayRef<int64_t> shape,
                                        Type elementType) const {
  int64_t m = getMma().getM(), n = getMma().getN();
  if (shape.size() != 2 || !isStatic(shape) || shape[0] != getWarps() * m ||
      shape[1] % n != 0 || shape[1] / n > kMaxLaneElements)
    return {};
  return getLaneVector(shape[1] / n * (m * n / 32), elementType);
}

LogicalResult AccFragmentAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (getLaneType(shape, elementType))
    return success();
  int64_t m = getMma().getM(), n = getMma().getN();
  return refuse(emitError, *this, shape,
                "expected [" + Twine(getWarps() * m) + ", a multiple of " +
                    Twine(n) + "] (" + Twine(getWarps()) + " warps of " +
                    Twine(m) + " rows), at most " + Twine(kMaxLaneElements) +
                    " elements a lane");
}

//===----------------------------------------------------------------------===//
// RowFragmentAttr
//===----------------------------------------------------------------------===//

LogicalResult
RowFragmentAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t m,
                        int64_t warps, bool partialSums) {
  // The MMAs' m: 16 (mma.sync), 64 (wgmma), 128 (tcgen05).
  if (m < 8 || m % 8 != 0 || m > 256)
    return emitError() << "expected rows m a multiple of 8 from 8 to 256, got "
                       << m;
  return verifyWarps(emitError, warps);
}

VectorType RowFragmentAttr::getLaneType(ArrayRef<int64_t> shape,
                                        Type elementType) const {
  if (shape.size() != 1 || shape[0] != getWarps() * getM())
    return {};
  return VectorType::get({getM() / 8}, elementType);
}

LogicalResult RowFragmentAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (getPartialSums() && !isa<FloatType>(elementType))
    return refuse(emitError, *this, shape,
                  "partial row sums are floats (the online softmax's l)");
  if (getLaneType(shape, elementType))
    return success();
  return refuse(emitError, *this, shape,
                "expected [" + Twine(getWarps() * getM()) + "]");
}

//===----------------------------------------------------------------------===//
// ReplicatedAttr
//===----------------------------------------------------------------------===//

VectorType ReplicatedAttr::getLaneType(ArrayRef<int64_t> shape,
                                       Type elementType) const {
  if (!isStatic(shape) ||
      llvm::any_of(shape, [](int64_t size) { return size > kMaxLaneElements; }))
    return {};
  return getLaneVector(ShapedType::getNumElements(shape), elementType);
}

LogicalResult ReplicatedAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (getLaneType(shape, elementType))
    return success();
  return refuse(emitError, *this, shape,
                "expected a static shape of at most " +
                    Twine(kMaxLaneElements) + " elements");
}
