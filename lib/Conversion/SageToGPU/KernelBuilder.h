//===- KernelBuilder.h - SIMT code emission helpers -------------*- C++ -*-===//
//
// The kernels of the SageToGPU conversion are written thread by thread, the
// way a CUDA kernel is: index arithmetic in i32 (64-bit byte offsets), global
// memory through !llvm.ptr<1>, shared memory through workgroup memrefs, warp
// shuffles, and the sage.warp_mma ops of Mma.cpp. KernelBuilder keeps
// that code short and readable; it holds no state beyond the insertion point.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_LIB_CONVERSION_SAGETOGPU_KERNELBUILDER_H
#define SAGE_LIB_CONVERSION_SAGETOGPU_KERNELBUILDER_H

#include "sage/Dialect/Sage/IR/SageAttrs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

#include <array>
#include <functional>

namespace mlir::sage {

/// Builds the body of one gpu.func.
class KernelBuilder {
public:
  KernelBuilder(OpBuilder &builder, Location loc);

  OpBuilder &b;
  Location loc;

  // Types.
  Type i8Type() const { return b.getI8Type(); }
  Type i16Type() const { return b.getI16Type(); }
  Type i32Type() const { return b.getI32Type(); }
  Type i64Type() const { return b.getI64Type(); }
  Type f32Type() const { return b.getF32Type(); }
  /// !llvm.ptr<1>: a pointer to global memory.
  Type globalPtrType() const;

  // Constants.
  Value i32(int64_t value);
  Value i64(int64_t value);
  Value f32(double value);

  // Integer arithmetic (i32 or i64, by operand type).
  Value add(Value lhs, Value rhs);
  Value sub(Value lhs, Value rhs);
  Value mul(Value lhs, Value rhs);
  Value divu(Value lhs, Value rhs);
  Value remu(Value lhs, Value rhs);
  Value minsi(Value lhs, Value rhs);
  Value maxsi(Value lhs, Value rhs);
  Value shl(Value lhs, int64_t bits);
  Value bitOr(Value lhs, Value rhs);
  Value bitAnd(Value lhs, int64_t mask);
  Value cmp(arith::CmpIPredicate predicate, Value lhs, Value rhs);
  Value toI64(Value value);
  /// ceil(value / divisor) for non-negative i32 values.
  Value ceilDiv(Value value, int64_t divisor);

  // Float arithmetic (f32).
  Value addf(Value lhs, Value rhs);
  Value subf(Value lhs, Value rhs);
  Value mulf(Value lhs, Value rhs);
  Value divf(Value lhs, Value rhs);
  Value maxf(Value lhs, Value rhs);
  /// max that returns NaN if either operand is NaN (max.NaN.f32): the
  /// quantizers' abs-max, so that a non-finite input poisons its group's
  /// scale instead of vanishing (docs/Algorithm.md, "Non-finite inputs").
  Value maximumf(Value lhs, Value rhs);
  Value absf(Value value);
  Value cmpf(arith::CmpFPredicate predicate, Value lhs, Value rhs);
  /// 2^x through ex2.approx.ftz.f32, as the SageAttention kernels do.
  Value exp2(Value value);
  /// log2(x) through lg2.approx.f32 (no libdevice call).
  Value log2(Value value);
  /// Round to nearest even (cvt.rni) and convert to a signed i32.
  Value roundToI32(Value value);
  Value sitofp(Value value);
  Value select(Value condition, Value ifTrue, Value ifFalse);

  // Fragments: vectors of f32 (or i32 words) built from and read back into
  // scalars.
  Value f32Vector(ArrayRef<Value> values);
  Value i32Vector(ArrayRef<Value> values);
  SmallVector<Value> elements(Value vector);

  // Thread geometry, as i32.
  Value threadId();
  Value blockId(gpu::Dimension dim);

  // Global memory; offsets are in bytes (i64).
  Value load(Type type, Value base, Value byteOffset, unsigned alignment);
  void store(Value value, Value base, Value byteOffset, unsigned alignment);
  /// Loads `count` consecutive i32 words (one vector load, `count` * 4-byte
  /// aligned).
  SmallVector<Value> loadWords(Value base, Value byteOffset, int64_t count);
  /// Stores `words` (i32) as one vector (`words.size()` * 4-byte aligned).
  void storeWords(Value base, Value byteOffset, ArrayRef<Value> words);
  /// Loads `count` consecutive elements of `elementType` (one vector load of
  /// up to 16 bytes, aligned to its size) as f32.
  SmallVector<Value> loadVectorAsF32(Type elementType, Value base,
                                     Value elementOffset, int64_t count);
  /// Loads one element of `elementType` (f16, bf16 or f32) as f32.
  Value loadAsF32(Type elementType, Value base, Value elementOffset);
  /// Stores an f32 as `elementType` (f16, bf16 or f32).
  void storeFromF32(Type elementType, Value value, Value base,
                    Value elementOffset);
  /// Stores consecutive f32s as `elementType`s with one store, which
  /// assumes the first element's address aligned to the whole store.
  void storeVectorFromF32(Type elementType, ArrayRef<Value> values, Value base,
                          Value elementOffset);
  void atomicAddF32(Value base, Value elementOffset, Value value);
  /// Atomic max of a non-negative f32, through its bits as u32.
  void atomicMaxNonNegativeF32(Value base, Value elementOffset, Value value);

  // Shared memory as raw bytes (an llvm.mlir.global in address space 3):
  // 16-byte asynchronous copies from global memory, and word loads.
  Type sharedPtrType() const;
  /// The bytes at `pointer` (an !llvm.ptr in address space 1 or 3) as a
  /// memref<?xi8> of that memory space, for ops that address memrefs
  /// (nvgpu's async copies). Its size is unknown and never read.
  Value byteMemref(Value pointer);
  // Asynchronous 16-byte copies (cp.async) as nvgpu's ops, whose tokens
  // order them: a copy returns a token, a group closes on the tokens of
  // the thread's copies and returns its own, and a wait names the group
  // it waits for (docs/Levels.md, L4).
  /// nvgpu.device_async_copy of 16 bytes bypassing L1 (cp.async.cg)
  /// between byteMemref views, at i32 / i64 byte offsets. Where `copies`
  /// (i1) is false, no source byte is read and the destination's 16 bytes
  /// are zero-filled.
  Value copyAsync16(Value sharedBytes, Value sharedOffset, Value globalBytes,
                    Value globalOffset, Value copies = {});
  /// Closes a group on `copies` and returns the group's token.
  Value commitAsyncCopies(ValueRange copies);
  /// Waits for `group`, with at most `pending` younger groups in flight.
  void waitAsyncCopies(Value group, int64_t pending);
  /// fence.proxy.async.shared::cta: this thread's writes to shared memory
  /// become visible to the async proxy (wgmma's and bulk copies' reads).
  void fenceProxyAsyncShared();
  /// The shared-memory address `byteOffset` (i32) bytes past `sharedBase`.
  Value sharedPointer(Value sharedBase, Value byteOffset);
  // The TMA unit's bulk copies, completed on an mbarrier of a stage ring
  // (sage.stage_ring, whose ops arm and wait on it).
  /// fence.mbarrier_init: initialized barriers are visible to the async
  /// proxy (and, after a CTA barrier, to the other threads).
  void fenceBarrierInit();
  /// cp.async.bulk of `bytes` bytes from global to shared memory (a
  /// multiple of 16, both ends 16-byte aligned), which completes `bytes`
  /// on `barrier` (an !llvm.ptr<3>, armed by sage.stage_ring_arm).
  void copyBulk(Value sharedBase, Value sharedOffset, Value globalBase,
                Value globalOffset, int64_t bytes, Value barrier);
  /// Loads `count` consecutive i32 words at a byte offset (i32) of shared
  /// memory.
  SmallVector<Value> loadSharedWords(Value sharedBase, Value byteOffset,
                                     int64_t count);

  /// Stores `words` (i32) as one vector at a byte offset (i32) of shared
  /// memory (`words.size()` * 4-byte aligned).
  void storeSharedWords(Value sharedBase, Value byteOffset,
                        ArrayRef<Value> words);
  /// Loads the byte at a byte offset (i32) of shared memory, zero-extended
  /// to an i32.
  Value loadSharedByte(Value sharedBase, Value byteOffset);
  /// Loads the 16 bits at an even byte offset (i32) of shared memory,
  /// zero-extended to an i32.
  Value loadSharedHalfWord(Value sharedBase, Value byteOffset);
  // Shared memory (workgroup memrefs), indexed by i32.
  Value loadShared(Value memref, Value index);
  void storeShared(Value value, Value memref, Value index);
  void barrier();
  /// bar.sync `id`, `threads`: a barrier of `threads` threads (whole warps)
  /// of the CTA; id 0 is barrier()'s.
  void namedBarrier(int64_t id, int64_t threads);
  void namedBarrier(Value id, int64_t threads);
  /// bar.arrive `id`, `threads`: this warp's arrival on the named barrier,
  /// without waiting for it to complete.
  void arriveOnNamedBarrier(Value id, int64_t threads);

  /// Butterfly shuffle within a warp (shfl.sync.bfly).
  Value shuffleXor(Value value, int64_t mask);

  /// Packs four E4M3 values (x0 in the lowest byte) into an i32.
  Value packE4M3x4(Value x0, Value x1, Value x2, Value x3);
  /// Packs two f32 values rounded to f16 (low in the low half) into an i32.
  Value packF16x2(Value low, Value high);
  /// Packs 32 / bits i32 values of `bits` bits (two's complement, 8 or 4)
  /// into an i32, values[0] in the lowest bits, as mma.sync reads them.
  Value packInts(ArrayRef<Value> values, int64_t bits);

  // Control flow.
  /// scf.for over i32 bounds; `body` gets the induction variable and the
  /// iteration values, and returns the values to yield.
  SmallVector<Value>
  forLoop(Value lower, Value upper, Value step, ValueRange inits,
          function_ref<SmallVector<Value>(Value, ValueRange)> body);
  /// scf.if without results.
  void ifThen(Value condition, function_ref<void()> body);
  /// scf.if yielding `thenBody`'s values, else `otherwise` (same types).
  SmallVector<Value> ifThenElse(Value condition,
                                function_ref<SmallVector<Value>()> thenBody,
                                ValueRange otherwise);
};

/// The registers of one m16n8kK mma.sync: four of A, four accumulators.
using MmaA = std::array<Value, 4>;
using MmaAcc = std::array<Value, 4>;

/// The warp-scope m16n8kK row of the MMA table for `operands` (i8 or
/// f8E4M3FN, k = 32; i4, k = 64; f16, k = 16; f4E2M1FN, k = 64 with UE4M3
/// block scales) accumulating in `accumulator`, from registers.
MmaAttr getWarpMma(MLIRContext *ctx, Type operands, Type accumulator);
/// One sage.warp_mma of `mma` on A and B given as packed 32-bit registers
/// and four accumulators; returns the four new accumulators. A
/// block-scaled row takes the lane's scale registers of A and B.
MmaAcc emitWarpMma(KernelBuilder &kb, MmaAttr mma, ArrayRef<Value> a,
                   ArrayRef<Value> b, const MmaAcc &acc, Value aScales = {},
                   Value bScales = {});
/// The same with A given as its fragment (a vector of `mma`'s A format).
MmaAcc emitWarpMma(KernelBuilder &kb, MmaAttr mma, Value a, ArrayRef<Value> b,
                   const MmaAcc &acc, Value aScales = {}, Value bScales = {});

/// The warpgroup-scope m64nNk32 row of the MMA table for `operands`
/// accumulating in `accumulator`, A from `aSource` and B from shared
/// memory (wgmma, sm_90a).
MmaAttr getWarpgroupMma(MLIRContext *ctx, Type operands, Type accumulator,
                        int64_t n, OperandSource aSource);
/// The i64 descriptor (sage.matrix_descriptor) through which `mma` reads
/// a K-major operand tile at byte `offset` of the shared array `base`,
/// stored without swizzle: core matrices of 8 rows x 16 bytes, `leading`
/// bytes apart along K and `stride` bytes apart from one 8-row group to the
/// next (docs/Layouts.md).
Value getMatrixDescriptor(KernelBuilder &kb, MmaAttr mma, Value base,
                          Value offset, int64_t leading, int64_t stride);
/// A committed wgmma group in flight: its accumulator and the A registers it
/// reads (none for A from shared memory), both only to be read through the
/// wait for it.
struct WarpgroupChain {
  Value acc;
  SmallVector<Value> aRegisters;
  /// The token of the chain's commit group (sage.warpgroup_commit).
  Value group;
};
/// A wgmma.fence after the registers `registers` are written: returns them
/// as the wgmmas after it read them.
SmallVector<Value> fenceWarpgroupOperands(KernelBuilder &kb,
                                          ValueRange registers);
/// The wgmmas of `mma` summing A operand i (a descriptor, or each lane's
/// `m * k / 128` elements in registers) times the tile of descriptor i,
/// the first starting the accumulator, committed as one group; fenced
/// first unless `fenced` says A's registers come from
/// fenceWarpgroupOperands.
WarpgroupChain issueWarpgroupMmas(KernelBuilder &kb, MmaAttr mma,
                                  ArrayRef<Value> aOperands,
                                  ArrayRef<Value> bDescriptors,
                                  bool fenced = false);
/// Waits until at most `pending` committed groups still run (those committed
/// after `chain`, which is then done); returns its accumulator as its n / 8
/// tiles of four (row g, g + 8 of each warp's 16 rows: the m16n8 order of each
/// 8 columns).
SmallVector<MmaAcc> waitWarpgroupMmas(KernelBuilder &kb, int64_t pending,
                                      const WarpgroupChain &chain);

} // namespace mlir::sage

#endif // SAGE_LIB_CONVERSION_SAGETOGPU_KERNELBUILDER_H
