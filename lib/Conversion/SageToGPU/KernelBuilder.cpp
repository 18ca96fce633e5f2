//===- KernelBuilder.cpp - SIMT code emission helpers ---------------------===//

#include "KernelBuilder.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::sage;

KernelBuilder::KernelBuilder(OpBuilder &builder, Location loc)
    : b(builder), loc(loc) {}

static int64_t byteWidth(Type type) { return type.getIntOrFloatBitWidth() / 8; }

Type KernelBuilder::globalPtrType() const {
  return LLVM::LLVMPointerType::get(b.getContext(), /*addressSpace=*/1);
}

Value KernelBuilder::i32(int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 32);
}
Value KernelBuilder::i64(int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 64);
}
Value KernelBuilder::f32(double value) {
  return arith::ConstantFloatOp::create(b, loc, b.getF32Type(),
                                        APFloat(float(value)));
}

Value KernelBuilder::add(Value lhs, Value rhs) {
  return arith::AddIOp::create(b, loc, lhs, rhs);
}
Value KernelBuilder::sub(Value lhs, Value rhs) {
  return arith::SubIOp::create(b, loc, lhs, rhs);
}
Value KernelBuilder::mul(Value lhs, Value rhs) {
  return arith::MulIOp::create(b, loc, lhs, rhs);
}
Value KernelBuilder::divu(Value lhs, Value rhs) {
  return arith::DivUIOp::create(b, loc, lhs, rhs);
}
Value KernelBuilder::remu(Value lhs, Value rhs) {
  return arith::RemUIOp::create(b, loc, lhs, rhs);
}
Value KernelBuilder::minsi(Value lhs, Value rhs) {
  return arith::MinSIOp::create(b, loc, lhs, rhs);
}
Value KernelBuilder::maxsi(Value lhs, Value rhs) {
  return arith::MaxSIOp::create(b, loc, lhs, rhs);
}
Value KernelBuilder::shl(Value lhs, int64_t bits) {
  return arith::ShLIOp::create(b, loc, lhs, i32(bits));
}
Value KernelBuilder::bitOr(Value lhs, Value rhs) {
  return arith::OrIOp::create(b, loc, lhs, rhs);
}
Value KernelBuilder::bitAnd(Value lhs, int64_t mask) {
  return arith::AndIOp::create(b, loc, lhs, i32(mask));
}
Value KernelBuilder::cmp(arith::CmpIPredicate predicate, Value lhs, Value rhs) {
  return arith::CmpIOp::create(b, loc, predicate, lhs, rhs);
}
Value KernelBuilder::toI64(Value value) {
  return arith::ExtSIOp::create(b, loc, i64Type(), value);
}
Value KernelBuilder::ceilDiv(Value value, int64_t divisor) {
  return divu(add(value, i32(divisor - 1)), i32(divisor));
}

Value KernelBuilder::addf(Value lhs, Value rhs) {
  return arith::AddFOp::create(b, loc, lhs, rhs);
}
Value KernelBuilder::subf(Value lhs, Value rhs) {
  return arith::SubFOp::create(b, loc, lhs, rhs);
}
Value KernelBuilder::mulf(Value lhs, Value rhs) {
  return arith::MulFOp::create(b, loc, lhs, rhs);
}
Value KernelBuilder::divf(Value lhs, Value rhs) {
  return arith::DivFOp::create(b, loc, lhs, rhs);
}
// max, abs and rounding avoid math / arith ops and LLVM intrinsics that
// convert-gpu-to-nvvm turns into libdevice calls: those resolve only where
// a CUDA toolkit's libdevice is found at compile time.
Value KernelBuilder::maxf(Value lhs, Value rhs) {
  return select(cmpf(arith::CmpFPredicate::OGT, lhs, rhs), lhs, rhs);
}
Value KernelBuilder::maximumf(Value lhs, Value rhs) {
  // llvm.maximum.f32 is max.NaN.f32 on sm_80+ (arith.maximumf could become
  // a libdevice call).
  return LLVM::MaximumOp::create(b, loc, lhs, rhs);
}
Value KernelBuilder::absf(Value value) {
  Value bits = arith::BitcastOp::create(b, loc, i32Type(), value);
  return arith::BitcastOp::create(b, loc, f32Type(), bitAnd(bits, 0x7fffffff));
}
Value KernelBuilder::cmpf(arith::CmpFPredicate predicate, Value lhs,
                          Value rhs) {
  return arith::CmpFOp::create(b, loc, predicate, lhs, rhs);
}
Value KernelBuilder::exp2(Value value) {
  return LLVM::CallIntrinsicOp::create(
             b, loc, f32Type(), b.getStringAttr("llvm.nvvm.ex2.approx.ftz.f"),
             ValueRange{value})
      .getResult(0);
}
Value KernelBuilder::log2(Value value) {
  return LLVM::CallIntrinsicOp::create(
             b, loc, f32Type(), b.getStringAttr("llvm.nvvm.lg2.approx.f"),
             ValueRange{value})
      .getResult(0);
}
Value KernelBuilder::roundToI32(Value value) {
  // cvt.rni.s32.f32
  return LLVM::CallIntrinsicOp::create(b, loc, i32Type(),
                                       b.getStringAttr("llvm.nvvm.f2i.rn"),
                                       ValueRange{value})
      .getResult(0);
}
Value KernelBuilder::sitofp(Value value) {
  return arith::SIToFPOp::create(b, loc, f32Type(), value);
}
Value KernelBuilder::select(Value condition, Value ifTrue, Value ifFalse) {
  return arith::SelectOp::create(b, loc, condition, ifTrue, ifFalse);
}

Value KernelBuilder::f32Vector(ArrayRef<Value> values) {
  return vector::FromElementsOp::create(
      b, loc, VectorType::get({int64_t(values.size())}, f32Type()), values);
}
Value KernelBuilder::i32Vector(ArrayRef<Value> values) {
  return vector::FromElementsOp::create(
      b, loc, VectorType::get({int64_t(values.size())}, i32Type()), values);
}
SmallVector<Value> KernelBuilder::elements(Value vector) {
  SmallVector<Value> values;
  for (int64_t i = 0, e = cast<VectorType>(vector.getType()).getNumElements();
       i < e; ++i)
    values.push_back(vector::ExtractOp::create(b, loc, vector, i));
  return values;
}

Value KernelBuilder::threadId() {
  Value id = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  return arith::IndexCastUIOp::create(b, loc, i32Type(), id);
}
Value KernelBuilder::blockId(gpu::Dimension dim) {
  Value id = gpu::BlockIdOp::create(b, loc, dim);
  return arith::IndexCastUIOp::create(b, loc, i32Type(), id);
}

Value KernelBuilder::load(Type type, Value base, Value byteOffset,
                          unsigned alignment) {
  Value ptr = LLVM::GEPOp::create(b, loc, globalPtrType(), i8Type(), base,
                                  ValueRange{byteOffset});
  return LLVM::LoadOp::create(b, loc, type, ptr, alignment);
}
void KernelBuilder::store(Value value, Value base, Value byteOffset,
                          unsigned alignment) {
  Value ptr = LLVM::GEPOp::create(b, loc, globalPtrType(), i8Type(), base,
                                  ValueRange{byteOffset});
  LLVM::StoreOp::create(b, loc, value, ptr, alignment);
}

void KernelBuilder::storeWords(Value base, Value byteOffset,
                               ArrayRef<Value> words) {
  Value vector = i32Vector(words);
  store(vector, base, byteOffset, 4 * words.size());
}

SmallVector<Value> KernelBuilder::loadWords(Value base, Value byteOffset,
                                            int64_t count) {
  auto vectorType = VectorType::get({count}, i32Type());
  Value vector = load(vectorType, base, byteOffset, 4 * count);
  SmallVector<Value> words;
  for (int64_t i = 0; i < count; ++i)
    words.push_back(LLVM::ExtractElementOp::create(b, loc, vector, i64(i)));
  return words;
}

SmallVector<Value> KernelBuilder::loadVectorAsF32(Type elementType, Value base,
                                                  Value elementOffset,
                                                  int64_t count) {
  int64_t width = byteWidth(elementType);
  auto vectorType = VectorType::get({count}, elementType);
  Value vector =
      load(vectorType, base, mul(elementOffset, i64(width)), width * count);
  SmallVector<Value> values;
  for (int64_t i = 0; i < count; ++i) {
    Value element = LLVM::ExtractElementOp::create(b, loc, vector, i64(i));
    values.push_back(elementType.isF32()
                         ? element
                         : arith::ExtFOp::create(b, loc, f32Type(), element));
  }
  return values;
}

Value KernelBuilder::loadAsF32(Type elementType, Value base,
                               Value elementOffset) {
  int64_t width = byteWidth(elementType);
  Value offset = mul(elementOffset, i64(width));
  Value value = load(elementType, base, offset, width);
  if (elementType.isF32())
    return value;
  return arith::ExtFOp::create(b, loc, f32Type(), value);
}
void KernelBuilder::storeFromF32(Type elementType, Value value, Value base,
                                 Value elementOffset) {
  int64_t width = byteWidth(elementType);
  if (!elementType.isF32())
    value = arith::TruncFOp::create(b, loc, elementType, value);
  store(value, base, mul(elementOffset, i64(width)), width);
}
void KernelBuilder::storeVectorFromF32(Type elementType, ArrayRef<Value> values,
                                       Value base, Value elementOffset) {
  int64_t width = byteWidth(elementType);
  SmallVector<Value> elements;
  for (Value value : values)
    elements.push_back(elementType.isF32() ? value
                                           : arith::TruncFOp::create(
                                                 b, loc, elementType, value));
  Value vector = vector::FromElementsOp::create(
      b, loc, VectorType::get({int64_t(values.size())}, elementType), elements);
  store(vector, base, mul(elementOffset, i64(width)), width * values.size());
}
void KernelBuilder::atomicAddF32(Value base, Value elementOffset, Value value) {
  Value ptr = LLVM::GEPOp::create(b, loc, globalPtrType(), f32Type(), base,
                                  ValueRange{elementOffset});
  LLVM::AtomicRMWOp::create(b, loc, LLVM::AtomicBinOp::fadd, ptr, value,
                            LLVM::AtomicOrdering::monotonic);
}
void KernelBuilder::atomicMaxNonNegativeF32(Value base, Value elementOffset,
                                            Value value) {
  // Non-negative floats order like their bit patterns.
  Value bits = arith::BitcastOp::create(b, loc, i32Type(), value);
  Value ptr = LLVM::GEPOp::create(b, loc, globalPtrType(), i32Type(), base,
                                  ValueRange{elementOffset});
  LLVM::AtomicRMWOp::create(b, loc, LLVM::AtomicBinOp::umax, ptr, bits,
                            LLVM::AtomicOrdering::monotonic);
}

Type KernelBuilder::sharedPtrType() const {
  return LLVM::LLVMPointerType::get(b.getContext(), /*addressSpace=*/3);
}

Value KernelBuilder::byteMemref(Value pointer) {
  auto pointerType = cast<LLVM::LLVMPointerType>(pointer.getType());
  auto space = pointerType.getAddressSpace() == 3 ? gpu::AddressSpace::Workgroup
                                                  : gpu::AddressSpace::Global;
  auto type = MemRefType::get(
      {ShapedType::kDynamic}, i8Type(), MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(b.getContext(), space));
  // The descriptor the LLVM lowering gives such a memref: allocated and
  // aligned pointer, offset 0, size (unknown: the largest), stride 1.
  auto descriptorType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), {pointerType, pointerType, i64Type(),
                       LLVM::LLVMArrayType::get(i64Type(), 1),
                       LLVM::LLVMArrayType::get(i64Type(), 1)});
  Value descriptor = LLVM::PoisonOp::create(b, loc, descriptorType);
  descriptor = LLVM::InsertValueOp::create(b, loc, descriptor, pointer,
                                           ArrayRef<int64_t>{0});
  descriptor = LLVM::InsertValueOp::create(b, loc, descriptor, pointer,
                                           ArrayRef<int64_t>{1});
  auto llvmI64 = [&](int64_t value) -> Value {
    return LLVM::ConstantOp::create(b, loc, i64Type(),
                                    b.getI64IntegerAttr(value));
  };
  descriptor = LLVM::InsertValueOp::create(b, loc, descriptor, llvmI64(0),
                                           ArrayRef<int64_t>{2});
  descriptor = LLVM::InsertValueOp::create(
      b, loc, descriptor, llvmI64(std::numeric_limits<int64_t>::max()),
      ArrayRef<int64_t>{3, 0});
  descriptor = LLVM::InsertValueOp::create(b, loc, descriptor, llvmI64(1),
                                           ArrayRef<int64_t>{4, 0});
  return UnrealizedConversionCastOp::create(b, loc, type, descriptor)
      .getResult(0);
}

Value KernelBuilder::copyAsync16(Value sharedBytes, Value sharedOffset,
                                 Value globalBytes, Value globalOffset,
                                 Value copies) {
  auto index = [&](Value offset) -> Value {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), offset);
  };
  Value sourceOffset = index(globalOffset);
  Value sourceElements;
  if (copies) {
    // Nothing is read, from a source address that exists.
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    sourceOffset = arith::SelectOp::create(b, loc, copies, sourceOffset, zero);
    Value sixteen = arith::ConstantIndexOp::create(b, loc, 16);
    sourceElements = arith::SelectOp::create(b, loc, copies, sixteen, zero);
  }
  return nvgpu::DeviceAsyncCopyOp::create(
      b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), sharedBytes,
      ValueRange{index(sharedOffset)}, globalBytes, ValueRange{sourceOffset},
      b.getIndexAttr(16), sourceElements, /*bypassL1=*/b.getUnitAttr());
}

Value KernelBuilder::sharedPointer(Value sharedBase, Value byteOffset) {
  return LLVM::GEPOp::create(b, loc, sharedPtrType(), i8Type(), sharedBase,
                             ValueRange{byteOffset});
}

void KernelBuilder::fenceBarrierInit() {
  NVVM::FenceMbarrierInitOp::create(b, loc);
}

void KernelBuilder::copyBulk(Value sharedBase, Value sharedOffset,
                             Value globalBase, Value globalOffset,
                             int64_t bytes, Value barrier) {
  Value dst = sharedPointer(sharedBase, sharedOffset);
  // The instruction names the CTA's own shared memory as shared::cluster
  // (a CTA is a cluster of one), address space 7.
  dst = LLVM::AddrSpaceCastOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 7), dst);
  Value src = LLVM::GEPOp::create(b, loc, globalPtrType(), i8Type(), globalBase,
                                  ValueRange{globalOffset});
  NVVM::CpAsyncBulkGlobalToSharedClusterOp::create(
      b, loc, dst, src, barrier, i32(bytes), /*multicastMask=*/Value(),
      /*l2CacheHint=*/Value());
}

Value KernelBuilder::commitAsyncCopies(ValueRange copies) {
  return nvgpu::DeviceAsyncCreateGroupOp::create(
      b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), copies);
}

void KernelBuilder::waitAsyncCopies(Value group, int64_t pending) {
  nvgpu::DeviceAsyncWaitOp::create(b, loc, group, b.getI32IntegerAttr(pending));
}

void KernelBuilder::fenceProxyAsyncShared() {
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
}

SmallVector<Value> KernelBuilder::loadSharedWords(Value sharedBase,
                                                  Value byteOffset,
                                                  int64_t count) {
  Value ptr = sharedPointer(sharedBase, byteOffset);
  auto vectorType = VectorType::get({count}, i32Type());
  Value vector = LLVM::LoadOp::create(b, loc, vectorType, ptr, 4 * count);
  SmallVector<Value> words;
  for (int64_t i = 0; i < count; ++i)
    words.push_back(LLVM::ExtractElementOp::create(b, loc, vector, i64(i)));
  return words;
}

void KernelBuilder::storeSharedWords(Value sharedBase, Value byteOffset,
                                     ArrayRef<Value> words) {
  Value vector = i32Vector(words);
  LLVM::StoreOp::create(b, loc, vector, sharedPointer(sharedBase, byteOffset),
                        4 * words.size());
}

Value KernelBuilder::loadSharedByte(Value sharedBase, Value byteOffset) {
  Value byte = LLVM::LoadOp::create(b, loc, i8Type(),
                                    sharedPointer(sharedBase, byteOffset), 1);
  return arith::ExtUIOp::create(b, loc, i32Type(), byte);
}

Value KernelBuilder::loadSharedHalfWord(Value sharedBase, Value byteOffset) {
  Value half = LLVM::LoadOp::create(b, loc, i16Type(),
                                    sharedPointer(sharedBase, byteOffset), 2);
  return arith::ExtUIOp::create(b, loc, i32Type(), half);
}

Value KernelBuilder::loadShared(Value memref, Value index) {
  Value idx = arith::IndexCastOp::create(b, loc, b.getIndexType(), index);
  return memref::LoadOp::create(b, loc, memref, ValueRange{idx});
}
void KernelBuilder::storeShared(Value value, Value memref, Value index) {
  Value idx = arith::IndexCastOp::create(b, loc, b.getIndexType(), index);
  memref::StoreOp::create(b, loc, value, memref, ValueRange{idx});
}
void KernelBuilder::barrier() { gpu::BarrierOp::create(b, loc); }

void KernelBuilder::namedBarrier(int64_t id, int64_t threads) {
  namedBarrier(i32(id), threads);
}

void KernelBuilder::namedBarrier(Value id, int64_t threads) {
  NVVM::BarrierOp::create(b, loc, /*res=*/Type(), id, i32(threads),
                          /*reductionOp=*/NVVM::BarrierReductionAttr(),
                          /*reductionPredicate=*/Value());
}

void KernelBuilder::arriveOnNamedBarrier(Value id, int64_t threads) {
  NVVM::BarrierArriveOp::create(b, loc, id, i32(threads));
}

Value KernelBuilder::shuffleXor(Value value, int64_t mask) {
  return gpu::ShuffleOp::create(b, loc, value, mask, /*width=*/32,
                                gpu::ShuffleMode::XOR)
      .getShuffleResult();
}

Value KernelBuilder::packE4M3x4(Value x0, Value x1, Value x2, Value x3) {
  // cvt.rn.satfinite.e4m3x2.f32 d, a, b puts a in the upper byte.
  auto pair = [&](Value low, Value high) -> Value {
    MLIRContext *ctx = b.getContext();
    Value packed = NVVM::ConvertF32x2ToF8x2Op::create(
        b, loc, i16Type(), high, low,
        NVVM::FPRoundingModeAttr::get(ctx, NVVM::FPRoundingMode::RN),
        NVVM::SaturationModeAttr::get(ctx, NVVM::SaturationMode::SATFINITE),
        b.getBoolAttr(false), TypeAttr::get(Float8E4M3FNType::get(ctx)));
    return arith::ExtUIOp::create(b, loc, i32Type(), packed);
  };
  return bitOr(pair(x0, x1), shl(pair(x2, x3), 16));
}

Value KernelBuilder::packF16x2(Value low, Value high) {
  auto bits = [&](Value x) -> Value {
    Value half = arith::TruncFOp::create(b, loc, b.getF16Type(), x);
    Value word = arith::BitcastOp::create(b, loc, i16Type(), half);
    return arith::ExtUIOp::create(b, loc, i32Type(), word);
  };
  return bitOr(bits(low), shl(bits(high), 16));
}

Value KernelBuilder::packInts(ArrayRef<Value> values, int64_t bits) {
  assert(int64_t(values.size()) * bits == 32 && "one word of values");
  int64_t mask = (int64_t(1) << bits) - 1;
  Value packed = bitAnd(values[0], mask);
  for (int64_t i = 1; i < int64_t(values.size()); ++i) {
    // The top field needs no mask: the shift drops the sign bits above.
    Value field =
        i + 1 == int64_t(values.size()) ? values[i] : bitAnd(values[i], mask);
    packed = bitOr(packed, shl(field, i * bits));
  }
  return packed;
}

SmallVector<Value> KernelBuilder::forLoop(
    Value lower, Value upper, Value step, ValueRange inits,
    function_ref<SmallVector<Value>(Value, ValueRange)> body) {
  auto loop = scf::ForOp::create(b, loc, lower, upper, step, inits);
  // Without loop-carried values the builder already ended the body with
  // an empty scf.yield; the one below replaces it.
  if (!loop.getBody()->empty())
    loop.getBody()->getTerminator()->erase();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  SmallVector<Value> results =
      body(loop.getInductionVar(), loop.getRegionIterArgs());
  scf::YieldOp::create(b, loc, results);
  return SmallVector<Value>(loop.getResults());
}

SmallVector<Value>
KernelBuilder::ifThenElse(Value condition,
                          function_ref<SmallVector<Value>()> thenBody,
                          ValueRange otherwise) {
  auto ifOp = scf::IfOp::create(b, loc, otherwise.getTypes(), condition,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  scf::YieldOp::create(b, loc, thenBody());
  b.setInsertionPointToStart(&ifOp.getElseRegion().front());
  scf::YieldOp::create(b, loc, otherwise);
  return SmallVector<Value>(ifOp.getResults());
}

void KernelBuilder::ifThen(Value condition, function_ref<void()> body) {
  auto ifOp = scf::IfOp::create(b, loc, condition, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  body();
}
