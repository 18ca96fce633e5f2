//===- SageToGPU.cpp - decomposed attention into kernels and a plan -------===//

#include "SageToGPUInternal.h"

#include "sage/Conversion/Passes.h"
#include "sage/Dialect/Sage/IR/KernelSchedules.h"
#include "sage/Dialect/Sage/IR/SageOps.h"
#include "sage/Dialect/Sage/Utils/LayoutChains.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::sage {
#define GEN_PASS_DEF_CONVERTSAGETOGPU
#include "sage/Conversion/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;
using namespace mlir::sage;

/// The plan's spelling of an element type.
static std::string getTypeName(Type type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  os << type;
  return name;
}

namespace {
/// The function arguments a decomposed attention reads, and how.
struct AttentionSources {
  BlockArgument query, key, value, mask;
  SmoothOp querySmooth, keySmooth, valueSmooth;
  QuantizeOp queryQuantize, keyQuantize, valueQuantize;
  /// Q, K, V and O are [batch, tokens, heads, features] in memory.
  bool tokensBeforeHeads = false;
};
} // namespace

/// Walks from `value` up through layout ops (docs/Launchers.md) to the
/// tensor the kernels read, stopping at `stop`; `swapped` says whether a
/// tokens <-> heads transpose was crossed.
static Value skipLayoutOps(Value value, bool &swapped, Value stop = {}) {
  LayoutChain chain = traceLayoutChain(value, stop);
  swapped = chain.swapped;
  return chain.source;
}

/// Follows quantized values back through sage.quantize and sage.smooth to a
/// function argument.
static LogicalResult traceSource(QuantizedAttentionOp op, Value values,
                                 StringRef name, BlockArgument &argument,
                                 QuantizeOp &quantize, SmoothOp &smooth,
                                 bool &swapped) {
  quantize = values.getDefiningOp<QuantizeOp>();
  if (!quantize)
    return op.emitOpError()
           << "expected the " << name << " values to come from sage.quantize";
  // per_tensor f16 values are rounded with the unit scale, which their
  // bound states (the op's verifier).
  QuantAttr quant = quantize.getQuant();
  bool unitScale = quant.getElementType().isF16() &&
                   quant.getGranularity() == Granularity::PerTensor;
  if (quantize.getBound() && !unitScale)
    return op.emitOpError() << "the GPU lowering measures the " << name
                            << " scales; a static bound is not lowered";
  Value input = quantize.getInput();
  if ((smooth = input.getDefiningOp<SmoothOp>()))
    input = smooth.getInput();
  argument = dyn_cast<BlockArgument>(skipLayoutOps(input, swapped));
  if (!argument)
    return op.emitOpError() << "expected " << name
                            << " to be an argument of the function, as the "
                               "launch plan fills it";
  return success();
}

/// Whether the function returns the attention's result as it is or with
/// tokens and heads swapped; failure if it returns something else. With an
/// LSE, the function returns the result and then the LSE ([B, H, Nq], or
/// [B * H, Nq] reshaped), as the plan's `o` and `lse`.
static FailureOr<bool> traceResult(func::FuncOp func, QuantizedAttentionOp op) {
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  unsigned results = op.getLse() ? 2 : 1;
  if (ret.getNumOperands() != results)
    return op.emitOpError() << "expected the function to return the attention "
                            << (op.getLse() ? "and its lse" : "alone");
  bool swapped = false;
  if (skipLayoutOps(ret.getOperand(0), swapped, op.getResult()) !=
      op.getResult())
    return op.emitOpError("expected the function to return the attention "
                          "(reshaped or with tokens and heads swapped)");
  bool lseSwapped = false;
  if (op.getLse() && (skipLayoutOps(ret.getOperand(1), lseSwapped,
                                    op.getLse()) != op.getLse() ||
                      lseSwapped))
    return op.emitOpError("expected the function to return the lse as "
                          "[batch, heads, queries] (or reshaped)");
  return swapped;
}

/// The CTAs of the attention kernel an SM must hold (its nvvm.minctasm; 0
/// asks nothing): `option` if given; else the measured schedule's, when
/// the kernel is the one it was measured on (the row's roles, stages and
/// tiles, V's head dim equal to Q's, none of a mask, the LSE and V
/// smoothing, which take registers or shared memory);
/// else 4 for the mma.sync kernel at D = 64 with 64 x 64 tiles and no
/// causal mask, which fits 128 registers without spilling and ran 8%
/// faster on the H200 (12% slower with the causal mask;
/// benchmarks/results/2026-12-02-h200-fragments.md).
static FailureOr<int64_t> getCtasPerSm(QuantizedAttentionOp op,
                                       const AttentionConfig &config,
                                       int64_t option,
                                       std::optional<KernelSchedule> row) {
  int64_t ctas = option;
  StringRef source = "ctas-per-sm";
  bool measuredForm = !config.maskType && !config.lse && !config.smoothV &&
                      config.valueDim == config.headDim;
  if (!ctas && row && measuredForm && row->ctasPerSm) {
    ctas = row->ctasPerSm;
    source = "the schedule's ctas_per_sm";
  }
  if (!ctas && config.scope == MmaScope::Warp && config.paddedHeadDim == 64 &&
      config.valueDim == 64 && config.blockQ == 64 && config.blockK == 64 &&
      !config.causal)
    ctas = 4;
  // At most what the chips sage targets hold: 2048 threads and 228 KiB of
  // shared memory an SM, of which the driver keeps 1 KiB a CTA (sm_90's
  // figures; smaller chips fit fewer, and ptxas then caps registers for
  // CTAs that never come).
  constexpr int64_t kMaxThreadsPerSm = 2048, kMaxSharedBytesPerSm = 228 * 1024,
                    kReservedBytesPerCta = 1024;
  int64_t threads = config.kernelThreads(),
          bytes = getAttentionSharedBytes(config) + kReservedBytesPerCta;
  if (ctas * threads > kMaxThreadsPerSm)
    return op.emitOpError() << source << " = " << ctas << ": " << ctas
                            << " CTAs of " << threads << " threads exceed the "
                            << kMaxThreadsPerSm << " threads an SM runs";
  if (ctas * bytes > kMaxSharedBytesPerSm)
    return op.emitOpError()
           << source << " = " << ctas << ": " << ctas << " CTAs of " << bytes
           << " bytes of shared memory (1 KiB of it the driver's) exceed the "
           << kMaxSharedBytesPerSm << " bytes an SM has";
  return ctas;
}

/// Everything the kernels are specialized on, or an error naming what the
/// GPU lowering does not implement yet.
static FailureOr<AttentionConfig> getConfig(QuantizedAttentionOp op,
                                            const AttentionSources &sources,
                                            const KernelChoices &choices) {
  QuantAttr queryQuant = op.getQQuant(), keyQuant = op.getKQuant();
  // NVFP4 (the verifier saw Q, K, P and V microscaled together): the
  // block-scaled m16n8k64 mma.sync, whose P V consumes 64 keys an MMA.
  bool microscaled = queryQuant.getGranularity() == Granularity::Microscale;
  if (microscaled)
    for (QuantAttr quant :
         {queryQuant, keyQuant, op.getPQuant(), op.getVQuant()})
      if (!isa<Float4E2M1FNType>(quant.getElementType()) ||
          !isa<Float8E4M3FNType>(quant.getScaleType()) ||
          quant.getBlock() != 16)
        return op.emitOpError()
               << "the GPU lowering implements NVFP4 microscaling (f4E2M1FN "
                  "values, f8E4M3FN scales a 16 elements), not "
               << quant;
  if (microscaled && choices.scope != MmaScope::Warp)
    return op.emitOpError()
           << "wgmma has no FP4 operands; nvfp4 is lowered to the "
              "block-scaled m16n8k64 mma.sync: pass mma-scope=warp";
  if (microscaled && *op.getBlockK() % 64 != 0)
    return op.emitOpError()
           << "nvfp4's P V consumes 64 keys an MMA, which must tile the K/V "
              "block; got block_k = "
           << *op.getBlockK();
  // per_thread, per_warp (K: per_block, a K block is read by every warp),
  // per_block or per_token (docs/Algorithm.md section 2).
  Granularity granularity = queryQuant.getGranularity();
  Granularity keyGranularity =
      granularity == Granularity::PerWarp ? Granularity::PerBlock : granularity;
  if ((granularity != Granularity::PerThread &&
       granularity != Granularity::PerWarp &&
       granularity != Granularity::PerBlock &&
       granularity != Granularity::PerToken && !microscaled) ||
      keyQuant.getGranularity() != keyGranularity)
    return op.emitOpError()
           << "the GPU lowering implements per_thread, per_warp (K per_block), "
              "per_block or per_token Q/K scales; got "
           << queryQuant << " and " << keyQuant;
  // The groups are the tiles: a Q block is one CTA of block-q / 16 warps
  // of 16 rows, a K group's block is the K/V block of one loop step.
  // per_warp and per_token groups name the tiles their tokens are in.
  bool perToken = granularity == Granularity::PerToken;
  if ((granularity == Granularity::PerWarp || perToken) &&
      !queryQuant.getBlock())
    return op.emitOpError()
           << stringifyGranularity(granularity)
           << " Q scales need the Q block their tokens are tiled by (the "
              "CTA's), as 'block'; got "
           << queryQuant;
  if (perToken && !keyQuant.getBlock())
    return op.emitOpError() << "per_token K scales need the K/V block their "
                               "tokens are tiled by, as 'block'; got "
                            << keyQuant;
  bool perBlock = granularity == Granularity::PerBlock;
  int64_t blockQ =
              microscaled ? int64_t(*op.getBlockQ()) : queryQuant.getBlock(),
          warpQ =
              perBlock || perToken || microscaled ? 16 : queryQuant.getWarp(),
          blockK = microscaled ? int64_t(*op.getBlockK()) : keyQuant.getBlock();
  if (warpQ != 16 || (blockQ != 64 && blockQ != 128 && blockQ != 192))
    return op.emitOpError()
           << "the GPU lowering implements Q blocks of block-q = 64, 128 or "
              "192 rows in warps of warp-q = 16; got block-q = "
           << blockQ << ", warp-q = " << warpQ << " (" << queryQuant << ")";
  // Three warpgroups: only the wgmma kernel was built and measured so; the
  // Q quantizer's CTA (getTokenParts threads a row) must stay within
  // 1024 threads; Q smoothing's dS shares a key among threads / block-k
  // lanes, a power of two; a wider V's accumulators were never measured in
  // 384 threads' registers.
  int64_t queryDim = op.getQValues().getType().getDimSize(3),
          valueDim = op.getValueDim();
  if (blockQ == 192 && (choices.scope != MmaScope::Warpgroup ||
                        std::max(queryDim, valueDim) > 128 || op.getQMean()))
    return op.emitOpError()
           << "block-q = 192 (three warpgroups) needs mma-scope=warpgroup "
              "(sm_90a), head dims of at most 128 and no Q smoothing; got "
           << (choices.scope == MmaScope::Warpgroup ? "warpgroup" : "warp")
           << " scope, D = " << queryDim << ", Dv = " << valueDim
           << (op.getQMean() ? ", Q smoothed" : "");
  if (blockK != 32 && blockK != 64 && blockK != 128)
    return op.emitOpError()
           << "the GPU lowering implements K/V blocks of block-k = 32, 64 or "
              "128 tokens; got block-k = "
           << blockK << " (" << keyQuant << ")";
  // INT4 Q/K (int4-fp8) is the m16n8k64 s4 mma.sync row; wgmma has none.
  // (The op's verifier admits i8 and i4 only.)
  Type queryKeyType = queryQuant.getElementType();
  if (queryKeyType.isSignlessInteger(4) && choices.scope != MmaScope::Warp)
    return op.emitOpError()
           << "wgmma has no INT4 operands; INT4 Q/K is lowered to the "
              "m16n8k64 mma.sync: pass mma-scope=warp";
  // SageAttention2++'s f16 accumulator (docs/Algorithm.md section 4) is an
  // mma.sync row; each flush sums `every` MMAs of 32 keys of one block.
  AccumAttr pvAccum = op.getPvAccum();
  if (pvAccum.getAccType().isF16() && choices.scope != MmaScope::Warp)
    return op.emitOpError()
           << "the wgmma kernel implements the f32 P V accumulator; " << pvAccum
           << " (SageAttention2++) is lowered to mma.sync: pass "
              "mma-scope=warp";
  // int8-fp16's P V is the f16 m16n8k16 mma.sync row.
  Type valueType = op.getVValues().getType().getElementType();
  int64_t probValueK = 256 / valueType.getIntOrFloatBitWidth();
  if (pvAccum.getAccType().isF16() &&
      blockK % (probValueK * pvAccum.getEvery()) != 0)
    return op.emitOpError()
           << pvAccum << " flushes every " << pvAccum.getEvery() << " MMAs of "
           << probValueK
           << " keys, which must tile the K/V block; got block-k = " << blockK;
  if (valueType.isF16() && choices.scope != MmaScope::Warp)
    return op.emitOpError()
           << "the wgmma kernel implements E4M3 P and V; f16 P and V "
              "(int8-fp16) are lowered to the m16n8k16 mma.sync: pass "
              "mma-scope=warp";
  // The f16 recipes the CPU model and the plans know: INT8 Q/K, V unscaled
  // with the f32 accumulator or scaled with the f16 one.
  bool scaledF16Values = valueType.isF16() && op.getVQuant().getGranularity() ==
                                                  Granularity::PerChannel;
  if (valueType.isF16() && (!queryKeyType.isSignlessInteger(8) ||
                            scaledF16Values != pvAccum.getAccType().isF16()))
    return op.emitOpError()
           << "the GPU lowering implements f16 P and V as int8-fp16 (i8 Q/K, "
              "unscaled V, f32 accumulator) and int8-fp16-f16acc (i8 Q/K, "
              "per_channel V, f16 accumulator); got "
           << queryKeyType << " Q/K, " << op.getVQuant() << " and " << pvAccum;
  // The V quantizer stages a K/V block of D values a token in its 48 KiB
  // of static shared memory (f32 for NVFP4, whose scales need the block's
  // values first).
  int64_t stagedBits = microscaled ? 32 : valueType.getIntOrFloatBitWidth();
  int64_t quantizerBytes = blockK * (valueDim * stagedBits / 8 + 16);
  if (quantizerBytes > 48 * 1024)
    return op.emitOpError()
           << "the V quantizer needs " << quantizerBytes
           << " bytes of shared memory for block-k = " << blockK
           << " and Dv = " << valueDim << " in " << valueType
           << ", more than the 49152 a kernel may declare; use a smaller "
              "block-k";
  AttentionConfig config;
  config.scope = choices.scope;
  config.valueType = valueType;
  config.scaledValues =
      op.getVQuant().getGranularity() == Granularity::PerChannel;
  config.microscaled = microscaled;
  config.pvAccum = pvAccum;
  config.queryKeyType = queryKeyType;
  config.scaleGranularity = granularity;
  config.blockQ = blockQ;
  config.warpQ = warpQ;
  config.warps = blockQ / warpQ;
  config.blockK = blockK;
  config.headDim = op.getQValues().getType().getDimSize(3);
  config.valueDim = op.getValueDim();
  // The quantizers read D in 16-byte loads (docs/Quantizers.md); Q_hat and
  // K_hat are padded to whole layout groups for the MMA's k.
  for (int64_t dim : {config.headDim, config.valueDim})
    if (dim < 32 || dim > 256 || dim % 16 != 0)
      return op.emitOpError() << "the GPU lowering implements head "
                                 "dimensions that are multiples of 16 from "
                                 "32 to 256, got "
                              << dim;
  FailureOr<OperandLayouts> layouts = getOperandLayouts(
      op, sources.queryQuantize, sources.keyQuantize, sources.valueQuantize,
      config.headDim, config.blockK, choices.scope, choices.tiling);
  if (failed(layouts))
    return failure();
  config.layouts = *layouts;
  config.paddedHeadDim =
      config.layouts.queryKey.getPaddedExtent(config.headDim);
  // More stages and a producer warpgroup stream K/V blocks by bulk copies.
  // A measured schedule for these tiles picks the producer, the stages and
  // the overlap that `choices` leave auto (docs/Tuning.md); without one: a
  // producer for the tiles measured faster with one, or for more stages
  // than the kernel fills without it; no overlap; two stages (three
  // overlapped).
  bool bulkCopies =
      config.layouts.queryKey.getOperandTiling() == OperandTiling::CoreMatrices;
  std::optional<KernelSchedule> schedule;
  if (choices.schedules)
    schedule = choices.schedules->lookup(
        {choices.chip, config.headDim, op.getCausal(), bool(op.getQMean())});
  // The rows were measured with K/V blocks staged by bulk copies.
  if (schedule && (schedule->blockQ != config.blockQ ||
                   schedule->blockK != config.blockK || !bulkCopies))
    schedule.reset();
  // The overlap, a producer and more stages all pace K/V blocks that bulk
  // copies bring into stage tiles.
  auto refuseWithoutBulkCopies = [&](StringRef option) {
    return op.emitOpError()
           << option
           << " needs K/V blocks staged by bulk copies (kv-staging=bulk, "
              "operands in tiling = core_matrices); got "
           << config.layouts.queryKey;
  };
  config.overlapSoftmax =
      choices.overlapSoftmax.value_or(schedule && schedule->overlapSoftmax);
  if (config.overlapSoftmax && choices.scope != MmaScope::Warpgroup)
    return op.emitOpError() << "overlap-softmax overlaps wgmma groups; it "
                               "needs mma-scope=warpgroup (sm_90a)";
  if (config.overlapSoftmax && !bulkCopies)
    return refuseWithoutBulkCopies("overlap-softmax");
  config.warpgroupTurns =
      choices.warpgroupTurns.value_or(schedule && schedule->warpgroupTurns);
  if (config.warpgroupTurns &&
      (choices.scope != MmaScope::Warpgroup || config.warps < 8))
    return op.emitOpError()
           << "warpgroup-turns passes turns between the wgmma kernel's "
              "consumer warpgroups; it needs mma-scope=warpgroup (sm_90a) "
              "and two or more of them (block-q = 128 or 192); got "
           << (choices.scope == MmaScope::Warpgroup ? "warpgroup" : "warp")
           << " scope, block-q = " << config.blockQ;
  if (config.warpgroupTurns && !bulkCopies)
    return refuseWithoutBulkCopies("warpgroup-turns");
  // The row's stages go with its producer, overlap and turns choices: a
  // kernel that overrides any of them was not measured with them.
  bool rowRoles = schedule &&
                  choices.warpSpecialized.value_or(schedule->warpSpecialize) ==
                      schedule->warpSpecialize &&
                  config.overlapSoftmax == schedule->overlapSoftmax &&
                  config.warpgroupTurns == schedule->warpgroupTurns;
  // Without a producer the kernel prefetches one block ahead: two stages,
  // or, overlapped, three (the block before is still being read; with two
  // the copy waits for its P V); taking turns, three (the last warpgroup
  // may still read the block before).
  int64_t prefetchStages =
      config.overlapSoftmax || config.warpgroupTurns ? 3 : 2;
  config.kvStages = choices.kvStages ? choices.kvStages
                    : rowRoles       ? schedule->kvStages
                                     : prefetchStages;
  bool measuredFaster = schedule ? schedule->warpSpecialize
                                 : config.paddedHeadDim >= 128 &&
                                       config.warps == 8 && config.blockK == 64;
  config.warpSpecialized = choices.warpSpecialized.value_or(
      bulkCopies && (measuredFaster || config.kvStages > prefetchStages));
  if (config.warpSpecialized && !bulkCopies)
    return refuseWithoutBulkCopies("warp-specialize");
  if (config.kvStages != 2 && !bulkCopies)
    return refuseWithoutBulkCopies("kv-stages = " +
                                   std::to_string(config.kvStages));
  // Released on mbarriers, stages can be as many as fit; the kernel still
  // prefetches one block ahead.
  if (!config.releasesStages() && config.kvStages != 2 &&
      config.kvStages != prefetchStages)
    return op.emitOpError()
           << "kv-stages = " << config.kvStages
           << " needs warp-specialize=true or warpgroup-turns=true (without "
              "a producer warpgroup or turns the kernel prefetches one K/V "
              "block ahead, into two stages"
           << (config.overlapSoftmax ? ", or three with overlap-softmax" : "")
           << ")";
  config.inputType = getElementTypeOrSelf(sources.query.getType());
  config.io.tokensBeforeHeads = sources.tokensBeforeHeads;
  config.outputType = op.getResult().getType().getElementType();
  config.smoothQ = bool(op.getQMean());
  config.smoothK = bool(sources.keySmooth);
  config.smoothV = bool(sources.valueSmooth);
  config.causal = op.getCausal();
  config.causalTopLeft = isTopLeft(op.getCausalAlignment());
  config.lse = bool(op.getLse());
  if (Value mask = op.getMask()) {
    // A broadcast dimension must be 1 in the type: a dynamic one is read
    // as full-size.
    auto maskType = cast<RankedTensorType>(mask.getType());
    config.maskType = maskType.getElementType();
    config.maskPerBatch = maskType.getDimSize(0) != 1;
    config.maskPerHead = maskType.getDimSize(1) != 1;
  }
  if (config.lse && sources.tokensBeforeHeads)
    return op.emitOpError("the lse of an attention laid out [batch, tokens, "
                          "heads, features] is not lowered yet");
  config.scale = op.getScale().convertToDouble();
  config.qkRange = queryQuant.getRangeValue();
  config.probQuant = op.getPQuant();
  config.pRange = config.probQuant.getRangeValue();
  config.vRange = op.getVQuant().getRangeValue();
  // NVFP4's scales are inside the MMA and s_row: P~ is not prescaled and
  // the epilogue's factor is 1.
  if (microscaled)
    config.pRange = config.vRange = 1;
  // The shared memory a CTA may have: the SM's less the driver's 1 KiB
  // (f16 V's stages are twice E4M3's, so the limit is the chip's).
  std::optional<Chip> target = parseChip(choices.chip);
  int64_t kMaxSharedBytes =
      getSharedBytesPerSm(target ? *target : Chip{90, false}) - 1024;
  if (int64_t bytes = getAttentionSharedBytes(config); bytes > kMaxSharedBytes)
    return op.emitOpError()
           << "the attention kernel needs " << bytes
           << " bytes of shared memory (kv-stages = " << config.kvStages
           << " stages of K/V blocks"
           << (config.scope == MmaScope::Warpgroup ? " and the Q tile" : "")
           << "), more than the " << kMaxSharedBytes << " a CTA may have on "
           << choices.chip;
  FailureOr<int64_t> ctas =
      getCtasPerSm(op, config, choices.ctasPerSm,
                   rowRoles && config.kvStages == schedule->kvStages
                       ? schedule
                       : std::optional<KernelSchedule>());
  if (failed(ctas))
    return failure();
  config.ctasPerSm = *ctas;
  return config;
}

/// The plan's buffers for `config`; `rank` is that of the function's
/// operands (3: [batch, tokens, features], 4: with heads).
static std::vector<PlanBuffer> getBuffers(const AttentionConfig &config,
                                          int64_t rank) {
  using namespace buffers;
  // Q_hat and K_hat rows are bytes: INT4 values two a byte.
  SizeExpr d = config.headDim, paddedD = config.getQueryKeyRowBytes(),
           dv = config.valueDim;
  SizeExpr batch = SizeExpr::symbol("B"), heads = SizeExpr::symbol("H"),
           kvHeads = SizeExpr::symbol("Hkv");
  std::string input = getTypeName(config.inputType);
  auto io = [&](StringRef headSymbol, StringRef tokenSymbol,
                SizeExpr dim) -> std::vector<SizeExpr> {
    SizeExpr heads = SizeExpr::symbol(headSymbol),
             tokens = SizeExpr::symbol(tokenSymbol);
    if (rank == 3)
      return {batch, tokens, dim};
    if (config.io.tokensBeforeHeads)
      return {batch, tokens, heads, dim};
    return {batch, heads, tokens, dim};
  };
  SizeExpr queryBlocks = getBlockCount("Nq", config.blockQ);
  SizeExpr paddedQ = queryBlocks * config.blockQ;
  SizeExpr keyBlocks = getBlockCount("Nk", config.blockK);
  SizeExpr paddedK = keyBlocks * config.blockK;
  SizeExpr queryGroups = queryBlocks * config.getQueryScalesPerBlock();
  std::vector<PlanBuffer> result = {
      {kQuery, "input", input, io("H", "Nq", d)},
      {kKey, "input", input, io("Hkv", "Nk", d)},
      {kValue, "input", input, io("Hkv", "Nk", dv)},
      {kOutput, "output", getTypeName(config.outputType), io("H", "Nq", dv)},
  };
  if (config.smoothK)
    result.push_back({kKeySum, "workspace", "f32", {batch, kvHeads, d}, true});
  if (config.smoothV)
    result.push_back(
        {kValueSum, "workspace", "f32", {batch, kvHeads, dv}, true});
  if (config.scaledValues)
    result.push_back(
        {kValueAbsMax, "workspace", "f32", {batch, kvHeads, dv}, true});
  // NVFP4: one E4M3 byte a 16 channels of each Q_hat and K_hat row.
  std::vector<SizeExpr> keyScaleShape = {
      batch, kvHeads, keyBlocks * config.getKeyScalesPerBlock()};
  std::vector<SizeExpr> queryScaleShape = {batch, heads, queryGroups};
  std::string scaleType = config.microscaled ? "f8E4M3FN" : "f32";
  if (config.microscaled) {
    keyScaleShape = {batch, kvHeads, paddedK,
                     config.getQueryKeyScaleRowBytes()};
    queryScaleShape = {batch, heads, paddedQ,
                       config.getQueryKeyScaleRowBytes()};
  }
  result.push_back(
      {kKeyInt, "workspace", "i8", {batch, kvHeads, paddedK, paddedD}});
  result.push_back({kKeyScale, "workspace", scaleType, keyScaleShape});
  result.push_back(
      {kQueryInt, "workspace", "i8", {batch, heads, paddedQ, paddedD}});
  result.push_back({kQueryScale, "workspace", scaleType, queryScaleShape});
  if (config.smoothQ)
    result.push_back(
        {kQueryMean, "workspace", "f32", {batch, heads, queryBlocks, d}});
  // V_hat^T rows of every padded key (4-bit values two a byte); NVFP4's
  // E4M3 scales one a 16 keys of a row.
  if (config.microscaled) {
    result.push_back({kValueQuantized,
                      "workspace",
                      "i8",
                      {batch, kvHeads, dv,
                       keyBlocks * config.getValueRowBytes(config.blockK)}});
    result.push_back({kValueScale,
                      "workspace",
                      "f8E4M3FN",
                      {batch, kvHeads, dv, keyBlocks * (config.blockK / 16)}});
  } else {
    result.push_back({kValueQuantized,
                      "workspace",
                      getTypeName(config.valueType),
                      {batch, kvHeads, dv, paddedK}});
  }
  if (config.maskType) {
    std::vector<SizeExpr> shape = {config.maskPerBatch ? batch : SizeExpr(1)};
    if (rank == 4)
      shape.push_back(config.maskPerHead ? heads : SizeExpr(1));
    shape.push_back(SizeExpr::symbol("Nq"));
    shape.push_back(SizeExpr::symbol("Nk"));
    result.push_back(
        {kMask, "input", getTypeName(config.maskType), std::move(shape)});
  }
  if (config.lse) {
    std::vector<SizeExpr> shape = {batch};
    if (rank == 4)
      shape.push_back(heads);
    shape.push_back(SizeExpr::symbol("Nq"));
    result.push_back({kLse, "output", "f32", std::move(shape)});
  }
  return result;
}

/// Ops that may share a function with the attention: they only reshape or
/// describe its operands.
static bool isPartOfAttention(Operation *op) {
  return isa<SmoothOp, QuantizeOp, QuantizedAttentionOp, tensor::ExpandShapeOp,
             tensor::CollapseShapeOp, tensor::DimOp, tensor::EmptyOp,
             linalg::TransposeOp, arith::ConstantOp, func::ReturnOp>(op);
}

std::optional<bool> mlir::sage::isWarpgroupScope(StringRef mmaScope,
                                                 StringRef chip) {
  std::optional<Chip> target = parseChip(chip);
  if (!target)
    return std::nullopt;
  // auto: wgmma where the chip runs it (sm_90a), mma.sync elsewhere.
  bool runsWgmma = target->sm == 90 && target->archSpecific;
  return llvm::StringSwitch<std::optional<bool>>(mmaScope)
      .Case("auto", runsWgmma)
      .Case("warp", false)
      .Case("warpgroup", true)
      .Default(std::nullopt);
}

namespace {
struct ConvertSageToGPUPass
    : public sage::impl::ConvertSageToGPUBase<ConvertSageToGPUPass> {
  using Base::Base;

  /// Reads the tuning table once, not once per module the pass runs on.
  LogicalResult initialize(MLIRContext *ctx) override {
    return ScheduleTable::readOption(ctx, tuningTable, table);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<Chip> target = parseChip(chip);
    if (!target) {
      module.emitError() << "unknown chip '" << chip
                         << "'; expected sm_<version>[a], e.g. sm_90";
      return signalPassFailure();
    }
    std::optional<bool> warpgroup = isWarpgroupScope(mmaScope, chip);
    if (!warpgroup) {
      module.emitError() << "unknown mma-scope '" << mmaScope
                         << "'; expected auto, warp or warpgroup";
      return signalPassFailure();
    }
    MmaScope scope = *warpgroup ? MmaScope::Warpgroup : MmaScope::Warp;
    if (scope == MmaScope::Warpgroup &&
        (target->sm != 90 || !target->archSpecific)) {
      module.emitError() << "mma-scope=warpgroup issues wgmma, which only "
                            "sm_90a runs; got chip="
                         << chip;
      return signalPassFailure();
    }
    // Operands without a layout of their own are placed for the staging
    // asked for: stage tiles for bulk copies, rows for cp.async.
    std::optional<OperandTiling> tiling =
        llvm::StringSwitch<std::optional<OperandTiling>>(kvStaging)
            .Case("auto", scope == MmaScope::Warpgroup
                              ? OperandTiling::CoreMatrices
                              : OperandTiling::Rows)
            .Case("cp-async", OperandTiling::Rows)
            .Case("bulk", OperandTiling::CoreMatrices)
            .Default(std::nullopt);
    if (!tiling) {
      module.emitError() << "unknown kv-staging '" << kvStaging
                         << "'; expected auto, cp-async or bulk";
      return signalPassFailure();
    }
    if (*tiling == OperandTiling::CoreMatrices &&
        scope != MmaScope::Warpgroup) {
      module.emitError() << "kv-staging=bulk copies the core-matrix tiles "
                            "that only the wgmma kernel reads; got "
                            "mma-scope="
                         << mmaScope << " on " << chip;
      return signalPassFailure();
    }
    if (kvStages != 0 && kvStages < 2) {
      module.emitError() << "kv-stages must be at least 2 (one K/V block in "
                            "use while the next arrives), or 0 for auto; got "
                         << int64_t(kvStages);
      return signalPassFailure();
    }
    if (ctasPerSm < 0) {
      module.emitError() << "ctas-per-sm must be at least 1, or 0 for auto; "
                            "got "
                         << int64_t(ctasPerSm);
      return signalPassFailure();
    }
    // Unset: auto, resolved per attention (getConfig).
    std::optional<bool> roles;
    if (warpSpecialize == "true" || warpSpecialize == "false") {
      roles = warpSpecialize == "true";
    } else if (warpSpecialize != "auto") {
      module.emitError() << "unknown warp-specialize '" << warpSpecialize
                         << "'; expected auto, true or false";
      return signalPassFailure();
    }
    KernelChoices choices;
    choices.scope = scope;
    choices.tiling = *tiling;
    choices.warpSpecialized = roles;
    choices.kvStages = kvStages;
    choices.ctasPerSm = ctasPerSm;
    choices.chip = chip.getValue();
    choices.schedules = &ScheduleTable::getBuiltin();
    if (overlapSoftmax == "true" || overlapSoftmax == "false") {
      choices.overlapSoftmax = overlapSoftmax == "true";
    } else if (overlapSoftmax != "auto") {
      module.emitError() << "unknown overlap-softmax '" << overlapSoftmax
                         << "'; expected auto, true or false";
      return signalPassFailure();
    }
    if (warpgroupTurns == "true" || warpgroupTurns == "false") {
      choices.warpgroupTurns = warpgroupTurns == "true";
    } else if (warpgroupTurns != "auto") {
      module.emitError() << "unknown warpgroup-turns '" << warpgroupTurns
                         << "'; expected auto, true or false";
      return signalPassFailure();
    }
    if (table)
      choices.schedules = &*table;
    SmallVector<func::FuncOp> functions;
    module.walk([&](func::FuncOp func) {
      if (!func.getOps<QuantizedAttentionOp>().empty())
        functions.push_back(func);
    });
    SmallVector<NamedAttribute> plans;
    for (func::FuncOp func : functions) {
      FailureOr<NamedAttribute> plan =
          convertFunction(func, target->sm, choices);
      if (failed(plan))
        return signalPassFailure();
      plans.push_back(*plan);
    }
    if (plans.empty())
      return;
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(&getContext()));
    if (auto existing =
            module->getAttrOfType<DictionaryAttr>("sage.launch_plans"))
      plans.append(existing.begin(), existing.end());
    module->setAttr("sage.launch_plans",
                    DictionaryAttr::get(&getContext(), plans));
  }

  FailureOr<NamedAttribute> convertFunction(func::FuncOp func, int sm,
                                            const KernelChoices &choices) {
    auto ops = func.getOps<QuantizedAttentionOp>();
    if (std::next(ops.begin()) != ops.end())
      return func.emitOpError("computes more than one attention; the GPU "
                              "lowering takes one per function");
    QuantizedAttentionOp op = *ops.begin();
    for (Operation &other : func.getBody().getOps())
      if (!isPartOfAttention(&other))
        return other.emitOpError("is not part of the attention; the GPU "
                                 "lowering compiles functions that only "
                                 "compute attention");
    // Its kernels quantize V themselves, from the sage.quantize that makes
    // it; a V already stored for the MMA is the levels' input.
    if (op.getVLayout())
      return op.emitOpError()
             << "takes V stored in " << op.getVLayoutAttr()
             << " only through --sage-levels; this lowering quantizes V "
                "itself from the sage.quantize that makes it";
    // P V: FP8 mma.sync from sm_89; f16 (int8-fp16) from sm_80.
    bool f16Values = op.getVQuant().getElementType().isF16();
    if (sm < (f16Values ? 80 : 89))
      return op.emitOpError()
             << "needs " << (f16Values ? "f16" : "FP8 (e4m3)")
             << " mma.sync for P*V, which " << chip << " lacks; use sm_"
             << (f16Values ? "80" : "89") << " or newer"
             << (sm >= 80 ? " (int8-fp16 for sm_80/86)" : "");

    AttentionSources sources;
    std::array<bool, 3> swapped;
    if (failed(traceSource(op, op.getQValues(), "query", sources.query,
                           sources.queryQuantize, sources.querySmooth,
                           swapped[0])) ||
        failed(traceSource(op, op.getKValues(), "key", sources.key,
                           sources.keyQuantize, sources.keySmooth,
                           swapped[1])) ||
        failed(traceSource(op, op.getVValues(), "value", sources.value,
                           sources.valueQuantize, sources.valueSmooth,
                           swapped[2])))
      return failure();
    FailureOr<bool> resultSwapped = traceResult(func, op);
    if (failed(resultSwapped))
      return failure();
    if (swapped[1] != swapped[0] || swapped[2] != swapped[0] ||
        *resultSwapped != swapped[0])
      return op.emitOpError("expected Q, K, V and the result in one layout, "
                            "[batch, heads, tokens, features] or [batch, "
                            "tokens, heads, features]");
    sources.tokensBeforeHeads = swapped[0];
    // The kernel reads Q for the LSE's smoothing shift from the plan's `q`:
    // lse_query must be that same query.
    if (Value lseQuery = op.getQuery()) {
      bool lseSwapped = false;
      if (skipLayoutOps(lseQuery, lseSwapped) != sources.query ||
          lseSwapped != swapped[0])
        return op.emitOpError("expected lse_query to be the query the "
                              "attention quantizes (the kernel reads it from "
                              "the plan's q)");
    }
    // The kernel reads the mask from the plan's `mask`, in the memory order
    // of the attention's [batch | 1, heads | 1, Nq, Nk].
    if (Value mask = op.getMask()) {
      bool maskSwapped = false;
      sources.mask = dyn_cast<BlockArgument>(skipLayoutOps(mask, maskSwapped));
      if (!sources.mask || maskSwapped)
        return op.emitOpError("expected the mask to be an argument of the "
                              "function laid out [batch | 1, heads | 1, "
                              "queries, keys] (or reshaped), as the launch "
                              "plan fills it");
    }
    FailureOr<AttentionConfig> config = getConfig(op, sources, choices);
    if (failed(config))
      return failure();
    for (Type type : {config->inputType, config->outputType})
      if (!type.isF16() && !type.isBF16() && !type.isF32())
        return op.emitOpError()
               << "expected f16, bf16 or f32 operands, got " << type;
    for (BlockArgument argument : {sources.key, sources.value})
      if (getElementTypeOrSelf(argument.getType()) != config->inputType)
        return op.emitOpError()
               << "expected Q, K and V of one element type, got "
               << config->inputType << " and "
               << getElementTypeOrSelf(argument.getType());

    // The plan describes the function's arguments: [tokens, features] is a
    // batch of one, rank 3 folds heads into batch.
    int64_t rank = cast<RankedTensorType>(sources.query.getType()).getRank();
    if (rank > 4 || (rank != 4 && sources.tokensBeforeHeads))
      return op.emitOpError() << "expected function arguments of rank 2 to 4 "
                                 "([batch, heads, tokens, features] or a "
                                 "prefix), got rank "
                              << rank;
    rank = std::max<int64_t>(rank, 3);
    LaunchPlan plan;
    plan.name = func.getSymName().str();
    plan.chip = chip;
    // The recipe the config implements (its ranges below).
    plan.variant =
        config->microscaled
            ? "nvfp4"
            : (Twine(config->queryKeyType.isSignlessInteger(4) ? "int4"
                                                               : "int8") +
               (config->hasF16Values() ? "-fp16" : "-fp8") +
               (config->pvAccum.getAccType().isF16() ? "-f16acc" : ""))
                  .str();
    plan.queryKeyGranularity =
        stringifyGranularity(config->scaleGranularity).str();
    if (config->pvAccum.getAccType().isF16())
      plan.f16FlushEvery = config->pvAccum.getEvery();
    plan.probRange = config->pRange;
    plan.valueRange = config->vRange;
    if (rank == 3)
      plan.layout = {"batch", "tokens", "features"};
    else if (config->io.tokensBeforeHeads)
      plan.layout = {"batch", "tokens", "heads", "features"};
    else
      plan.layout = {"batch", "heads", "tokens", "features"};
    plan.headDim = config->headDim;
    plan.valueDim = config->valueDim;
    plan.inputType = getTypeName(config->inputType);
    plan.outputType = getTypeName(config->outputType);
    plan.causal = config->causal;
    plan.causalTopLeft = config->causalTopLeft;
    plan.scale = config->scale;
    plan.smoothQ = config->smoothQ;
    plan.smoothK = config->smoothK;
    plan.smoothV = config->smoothV;
    plan.blockQ = config->blockQ;
    plan.warpQ = config->warpQ;
    plan.blockK = config->blockK;
    plan.warps = config->warps;
    plan.buffers = getBuffers(*config, rank);

    OpBuilder builder(func);
    Location loc = op.getLoc();
    auto gpuModule = gpu::GPUModuleOp::create(builder, loc, plan.name);
    KernelModule km(builder, loc, gpuModule, plan);
    using namespace buffers;
    if (config->smoothK || config->smoothV)
      buildSumTokensKernel(km, *config);
    if (config->smoothK)
      launchSumTokens(km, kKey, kKeySum, "Nk", "Hkv");
    if (config->smoothV)
      launchSumTokens(km, kValue, kValueSum, "Nk", "Hkv");
    if (config->scaledValues)
      buildValueAbsMaxKernel(km, *config);
    buildQuantizeKeyKernel(km, *config);
    buildQuantizeValueKernel(km, *config);
    buildQuantizeQueryKernel(km, *config);
    buildAttentionKernel(km, *config);

    builder.setInsertionPoint(func);
    buildHostLaunchers(builder, loc, func->getParentOfType<ModuleOp>(), plan);
    StringAttr name = gpuModule.getSymNameAttr();
    func.erase();
    return NamedAttribute(name, plan.toAttribute(&getContext()));
  }

  /// The table of `tuning-table`, when one is named.
  std::optional<ScheduleTable> table;
};
} // namespace
