//===- PackInt4.cpp - INT4 tensors stored two values a byte ---------------===//
//
// The 4+8 recipe's Q and K are i4. Memory holds them packed, two values a
// byte, the lower column in the low nibble, and PTX's s4 registers hold
// them the same way: an m16n8k64 s4 fragment is, byte for byte, the
// m16n8k32 s8 fragment of the packed tile (docs/Layouts.md, "4-bit
// operands"). So below the distribute level nothing needs to
// know the values are i4 but the MMA: this pass rewrites every tensor of
// i4 into the i8 tensor of its bytes (the last dimension halved) and each
// lane's vector of i4 into the vector of its bytes, bitcast back to i4
// where a sage.warp_mma takes it. Promotion, staging, copies and matrix
// loads then move bytes as for INT8 (docs/Levels.md, "INT4").
//
// What it rewrites: function signatures (a host function takes an i4
// operand as its bytes), the quantizers' element-wise linalg.generic (one
// byte from two columns), tensor.empty / dim / cast / extract_slice / pad,
// vector.transfer_read and vector.shuffle. Each slice, pad and read must
// fall on whole bytes (even columns); what does not, or any other op on
// i4 tensors, is refused by name before anything is rewritten.
//
//===----------------------------------------------------------------------===//

#include "sage/Dialect/Sage/IR/SageOps.h"
#include "sage/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::sage {
#define GEN_PASS_DEF_SAGEPACKINT4
#include "sage/Transforms/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;
using namespace mlir::sage;

static bool isInt4(Type type) { return type.isInteger(4); }

/// A tensor or vector of i4.
static bool holdsInt4(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && isa<RankedTensorType, VectorType>(type) &&
         isInt4(shaped.getElementType());
}

/// Why `type` (a tensor or vector of i4) has no packed form, or "".
static std::string getUnpackableReason(ShapedType type) {
  if (type.getRank() == 0)
    return "it has no columns";
  int64_t columns = type.getShape().back();
  if (ShapedType::isDynamic(columns))
    return "its last dimension is dynamic";
  if (columns % 2 != 0)
    return "its last dimension, " + std::to_string(columns) + ", is odd";
  if (auto tensor = dyn_cast<RankedTensorType>(type);
      tensor && tensor.getEncoding())
    return "it carries an encoding";
  return "";
}

/// The packed form of `type`: i8, the last dimension halved.
static ShapedType getPackedType(ShapedType type) {
  SmallVector<int64_t> shape(type.getShape());
  shape.back() /= 2;
  return type.clone(shape, IntegerType::get(type.getContext(), 8));
}

/// The i8 constant whose nibbles are both the i4 constant `nibble` (a
/// padding value: every nibble of a padded byte is it; checkPackable
/// refused non-constant ones).
static Value createPackedPadding(OpBuilder &b, Location loc, Value nibble) {
  int64_t low = *getConstantIntValue(nibble) & 0xf;
  int64_t byte = static_cast<int8_t>(low | (low << 4));
  return arith::ConstantIntOp::create(b, loc, byte, 8);
}

/// Whether `value` (an index) is even as built: an even constant, a
/// product with an even factor, or a sum or difference of even terms.
/// The lanes' reads of fragments are such expressions (each register's
/// column is a multiple of its 8 nibbles).
static bool isEven(Value value) {
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return *constant % 2 == 0;
  Operation *def = value.getDefiningOp();
  if (isa_and_nonnull<arith::MulIOp>(def))
    return isEven(def->getOperand(0)) || isEven(def->getOperand(1));
  if (isa_and_nonnull<arith::AddIOp, arith::SubIOp>(def))
    return isEven(def->getOperand(0)) && isEven(def->getOperand(1));
  return false;
}

static bool isEven(OpFoldResult value) {
  if (auto attr = dyn_cast<Attribute>(value))
    return cast<IntegerAttr>(attr).getInt() % 2 == 0;
  return isEven(cast<Value>(value));
}

/// Half of `value`, which isEven accepted, built the way `value` is (the
/// byte column of column `lane * 8` is `lane * 4`, not a division).
static Value halveEven(OpBuilder &b, Location loc, Value value) {
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return arith::ConstantIndexOp::create(b, loc, *constant / 2);
  Operation *def = value.getDefiningOp();
  Value lhs = def->getOperand(0), rhs = def->getOperand(1);
  if (isa<arith::MulIOp>(def)) {
    if (isEven(rhs))
      return arith::MulIOp::create(b, loc, lhs, halveEven(b, loc, rhs));
    return arith::MulIOp::create(b, loc, halveEven(b, loc, lhs), rhs);
  }
  Value lhsHalf = halveEven(b, loc, lhs), rhsHalf = halveEven(b, loc, rhs);
  if (isa<arith::AddIOp>(def))
    return arith::AddIOp::create(b, loc, lhsHalf, rhsHalf);
  return arith::SubIOp::create(b, loc, lhsHalf, rhsHalf);
}

/// A column index or size (checked even) in bytes.
static OpFoldResult halve(OpBuilder &b, Location loc, OpFoldResult value) {
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return b.getIndexAttr(*constant / 2);
  return halveEven(b, loc, cast<Value>(value));
}

//===----------------------------------------------------------------------===//
// What each op needs to be packed
//===----------------------------------------------------------------------===//

/// Whether `read` reads its vector's last dimension along the source's
/// last dimension (whatever its other dimensions read).
static bool readsAlongColumns(vector::TransferReadOp read) {
  AffineMap map = read.getPermutationMap();
  int64_t lastDim = read.getBase().getType().getRank() - 1;
  return map.getNumResults() >= 1 &&
         map.getResults().back() ==
             getAffineDimExpr(lastDim, read.getContext());
}

/// Whether the shuffle's mask moves whole bytes: each pair of output
/// positions takes a pair of input positions that starts at an even one.
static bool shufflesBytes(vector::ShuffleOp shuffle) {
  ArrayRef<int64_t> mask = shuffle.getMask();
  if (mask.size() % 2 != 0)
    return false;
  for (size_t i = 0; i < mask.size(); i += 2)
    if (mask[i] < 0 || mask[i] % 2 != 0 || mask[i + 1] != mask[i] + 1)
      return false;
  return true;
}

/// Whether `generic` computes each i4 output element from the inputs at
/// its coordinates alone: one output, written whole (identity map, every
/// loop parallel), never read, and no linalg.index of the last loop.
static bool isElementwiseInt4Producer(linalg::GenericOp generic) {
  if (generic.getNumDpsInits() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops())
    return false;
  OpOperand *init = generic.getDpsInitOperand(0);
  if (!generic.getMatchingIndexingMap(init).isIdentity() ||
      generic.payloadUsesValueFromOperand(init))
    return false;
  int64_t lastLoop = generic.getNumLoops() - 1;
  WalkResult walk = generic.getRegion().walk([&](linalg::IndexOp index) {
    return static_cast<int64_t>(index.getDim()) == lastLoop
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

/// Why `op`, which has an i4 tensor or vector, cannot be packed, or "".
static std::string getUnpackableOpReason(Operation *op) {
  auto lastColumnOnBytes = [](ArrayRef<OpFoldResult> values) {
    return isEven(values.back());
  };
  return TypeSwitch<Operation *, std::string>(op)
      .Case<func::FuncOp, func::ReturnOp, func::CallOp, tensor::EmptyOp,
            tensor::CastOp, sage::WarpMmaOp, vector::BitCastOp>(
          [](auto) { return ""; })
      .Case([&](tensor::DimOp dim) -> std::string {
        if (!dim.getConstantIndex())
          return "its dimension index is not a constant";
        return "";
      })
      .Case([&](tensor::ExtractSliceOp slice) -> std::string {
        int64_t last = slice.getSourceType().getRank() - 1;
        if (slice.getDroppedDims().test(last))
          return "it drops the last dimension";
        if (!lastColumnOnBytes(slice.getMixedOffsets()) ||
            !lastColumnOnBytes(slice.getMixedSizes()) ||
            getConstantIntValue(slice.getMixedStrides().back()) != 1)
          return "its columns do not start and end on whole bytes (even "
                 "offset and size, stride 1)";
        return "";
      })
      .Case([&](tensor::PadOp pad) -> std::string {
        if (!lastColumnOnBytes(pad.getMixedLowPad()) ||
            !lastColumnOnBytes(pad.getMixedHighPad()))
          return "it pads an odd number of columns";
        Value padding = pad.getConstantPaddingValue();
        if (!padding || !getConstantIntValue(padding))
          return "its padding value is not a constant";
        return "";
      })
      .Case([&](vector::TransferReadOp read) -> std::string {
        if (read.getMask() || !readsAlongColumns(read))
          return "it does not read along the last dimension, unmasked";
        if (!isEven(read.getIndices().back()))
          return "its column index is not provably even";
        if (!getConstantIntValue(read.getPadding()))
          return "its padding value is not a constant";
        return "";
      })
      .Case([&](vector::ShuffleOp shuffle) -> std::string {
        if (!shufflesBytes(shuffle))
          return "its mask splits bytes";
        return "";
      })
      .Case([&](linalg::GenericOp generic) -> std::string {
        if (!isElementwiseInt4Producer(generic))
          return "it is not an element-wise producer of i4 values";
        if (llvm::any_of(generic.getDpsInputs(), [](Value input) {
              return holdsInt4(input.getType());
            }))
          return "it reads i4 tensors";
        return "";
      })
      .Default([](Operation *) {
        return std::string("this pass does not store its i4 values packed");
      });
}

/// Refuses, by name, every op the conversion could not pack.
static LogicalResult checkPackable(Operation *root) {
  // Pre-order: a function is named before the ops that use its arguments.
  WalkResult walk = root->walk<WalkOrder::PreOrder>([](Operation *op) {
    auto check = [&](Type type) -> bool {
      if (!holdsInt4(type))
        return true;
      std::string reason = getUnpackableReason(cast<ShapedType>(type));
      if (reason.empty())
        reason = getUnpackableOpReason(op);
      if (reason.empty())
        return true;
      op->emitOpError() << "has " << type
                        << ", which cannot be stored packed, two i4 values "
                           "a byte: "
                        << reason;
      return false;
    };
    for (Type type : op->getOperandTypes())
      if (!check(type))
        return WalkResult::interrupt();
    for (Type type : op->getResultTypes())
      if (!check(type))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          if (!check(argument.getType()))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// The conversion
//===----------------------------------------------------------------------===//

namespace {
/// Tensors and vectors of i4 to those of their bytes; vectors are bitcast
/// back where an op keeps i4 (sage.warp_mma).
struct PackedInt4TypeConverter : TypeConverter {
  PackedInt4TypeConverter() {
    addConversion([](Type type) { return type; });
    addConversion([](ShapedType type) -> std::optional<Type> {
      if (!holdsInt4(type))
        return std::nullopt;
      return Type(getPackedType(type));
    });
    auto bitcast = [](OpBuilder &b, Type type, ValueRange inputs,
                      Location loc) -> Value {
      if (inputs.size() != 1 || !isa<VectorType>(type) ||
          !isa<VectorType>(inputs[0].getType()))
        return Value();
      return vector::BitCastOp::create(b, loc, type, inputs[0]);
    };
    addSourceMaterialization(bitcast);
    addTargetMaterialization(bitcast);
  }
};

struct PackEmpty : OpConversionPattern<tensor::EmptyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tensor::EmptyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getTypeConverter()->convertType<RankedTensorType>(op.getType());
    // The last dimension is static: the dynamic sizes stay.
    rewriter.replaceOpWithNewOp<tensor::EmptyOp>(op, type,
                                                 adaptor.getDynamicSizes());
    return success();
  }
};

struct PackDim : OpConversionPattern<tensor::DimOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tensor::DimOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getSource().getType());
    // checkPackable refused a dynamic index.
    std::optional<int64_t> dim = op.getConstantIndex();
    if (*dim == type.getRank() - 1) {
      rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(
          op, type.getShape().back());
      return success();
    }
    rewriter.replaceOpWithNewOp<tensor::DimOp>(op, adaptor.getSource(), *dim);
    return success();
  }
};

struct PackCast : OpConversionPattern<tensor::CastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tensor::CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    rewriter.replaceOpWithNewOp<tensor::CastOp>(op, type, adaptor.getSource());
    return success();
  }
};

struct PackExtractSlice : OpConversionPattern<tensor::ExtractSliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tensor::ExtractSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getTypeConverter()->convertType<RankedTensorType>(op.getType());
    SmallVector<OpFoldResult> offsets = op.getMixedOffsets();
    SmallVector<OpFoldResult> sizes = op.getMixedSizes();
    offsets.back() = halve(rewriter, op.getLoc(), offsets.back());
    sizes.back() = halve(rewriter, op.getLoc(), sizes.back());
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, type, adaptor.getSource(), offsets, sizes, op.getMixedStrides());
    return success();
  }
};

struct PackPad : OpConversionPattern<tensor::PadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tensor::PadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = getTypeConverter()->convertType<RankedTensorType>(op.getType());
    SmallVector<OpFoldResult> low = op.getMixedLowPad();
    SmallVector<OpFoldResult> high = op.getMixedHighPad();
    low.back() = halve(rewriter, loc, low.back());
    high.back() = halve(rewriter, loc, high.back());
    Value padding =
        createPackedPadding(rewriter, loc, op.getConstantPaddingValue());
    rewriter.replaceOpWithNewOp<tensor::PadOp>(op, type, adaptor.getSource(),
                                               low, high, padding);
    return success();
  }
};

struct PackTransferRead : OpConversionPattern<vector::TransferReadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(vector::TransferReadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = getTypeConverter()->convertType<VectorType>(op.getType());
    SmallVector<Value> indices(adaptor.getIndices());
    indices.back() = getValueOrCreateConstantIndexOp(
        rewriter, loc, halve(rewriter, loc, indices.back()));
    Value padding = createPackedPadding(rewriter, loc, op.getPadding());
    rewriter.replaceOpWithNewOp<vector::TransferReadOp>(
        op, type, adaptor.getBase(), indices, op.getPermutationMapAttr(),
        padding, /*mask=*/Value(), op.getInBoundsAttr());
    return success();
  }
};

struct PackShuffle : OpConversionPattern<vector::ShuffleOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(vector::ShuffleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<int64_t> mask;
    for (int64_t i = 0, e = op.getMask().size(); i < e; i += 2)
      mask.push_back(op.getMask()[i] / 2);
    rewriter.replaceOpWithNewOp<vector::ShuffleOp>(op, adaptor.getV1(),
                                                   adaptor.getV2(), mask);
    return success();
  }
};

/// An element-wise producer of i4 (a quantizer's values) becomes one over
/// the bytes: each input is read at columns 2j and 2j + 1, the body runs
/// for each, and the byte is low | high << 4.
struct PackGeneric : OpConversionPattern<linalg::GenericOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(linalg::GenericOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = op.getContext();
    int64_t loops = op.getNumLoops();
    AffineExpr column = getAffineDimExpr(loops - 1, context);
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (int64_t half : {0, 1}) {
      // Loop j of the packed generic is column 2j + half of the original.
      SmallVector<AffineExpr> dims;
      for (int64_t d = 0; d < loops - 1; ++d)
        dims.push_back(getAffineDimExpr(d, context));
      dims.push_back(column * 2 + half);
      AffineMap columns = AffineMap::get(loops, 0, dims, context);
      for (OpOperand *input : op.getDpsInputOperands()) {
        inputs.push_back(input->get());
        maps.push_back(op.getMatchingIndexingMap(input).compose(columns));
      }
    }
    Value init = adaptor.getOutputs()[0];
    maps.push_back(AffineMap::getMultiDimIdentityMap(loops, context));
    auto type = cast<RankedTensorType>(init.getType());
    Block &body = op.getRegion().front();
    int64_t inputCount = op.getNumDpsInputs();
    auto packed = linalg::GenericOp::create(
        rewriter, loc, type, inputs, init, maps, op.getIteratorTypesArray(),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          SmallVector<Value> nibbles;
          for (int64_t half : {0, 1}) {
            IRMapping mapping;
            for (int64_t i = 0; i < inputCount; ++i)
              mapping.map(body.getArgument(i), args[half * inputCount + i]);
            for (Operation &nested : body.without_terminator())
              b.clone(nested, mapping);
            Value value =
                mapping.lookupOrDefault(body.getTerminator()->getOperand(0));
            nibbles.push_back(
                arith::ExtUIOp::create(b, loc, b.getI8Type(), value));
          }
          Value four = arith::ConstantIntOp::create(b, loc, 4, 8);
          Value high = arith::ShLIOp::create(b, loc, nibbles[1], four);
          Value byte = arith::OrIOp::create(b, loc, nibbles[0], high);
          linalg::YieldOp::create(b, loc, byte);
        });
    rewriter.replaceOp(op, packed.getResults());
    return success();
  }
};

struct SagePackInt4Pass
    : public mlir::sage::impl::SagePackInt4Base<SagePackInt4Pass> {
  void runOnOperation() override {
    Operation *root = getOperation();
    if (failed(checkPackable(root)))
      return signalPassFailure();
    MLIRContext *context = &getContext();
    PackedInt4TypeConverter converter;
    ConversionTarget target(*context);
    // An op is done when it has no i4 tensor or vector left, except the
    // MMAs, which take their registers as i4 (through bitcasts).
    target.markUnknownOpDynamicallyLegal([&](Operation *op) {
      if (isa<sage::WarpMmaOp, vector::BitCastOp>(op))
        return true;
      if (auto func = dyn_cast<func::FuncOp>(op))
        return converter.isSignatureLegal(func.getFunctionType()) &&
               converter.isLegal(&func.getBody());
      return converter.isLegal(op) &&
             llvm::all_of(op->getRegions(), [&](Region &region) {
               return converter.isLegal(&region);
             });
    });
    RewritePatternSet patterns(context);
    patterns.add<PackEmpty, PackDim, PackCast, PackExtractSlice, PackPad,
                 PackTransferRead, PackShuffle, PackGeneric>(converter,
                                                             context);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    if (failed(applyPartialConversion(root, target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
