//===- AttentionKernel.cpp - the online-softmax loop with two MMAs --------===//
//
// One CTA per (Q block i, head, batch); warp w owns rows 16w..16w+15 of the
// block, and lane (g = lane / 4, t = lane % 4) the accumulator rows g, g+8
// and columns 2t, 2t+1 of every 8-column tile of the m16n8k32 layout. Per
// K/V block j (docs/Algorithm.md sections 1-4):
//
//   S   = (Q_hat K_hat_j^T) * dq * dk * scale * log2(e)   INT8 MMA
//       + qbar_i . K_j * scale * log2(e)                   Q-smoothing dS
//       + mask_ij * log2(e)                                 (-inf for i1)
//   m'  = max(m, rowmax S);  P~ = 2^(S - m');  alpha = 2^(m - m')
//   l   = alpha * l + rowsum P~
//   R   = (P~ * P_r in E4M3, or f16) V_hat_j               FP8 (f16) MMA
//   O   = alpha * O + R                                    FP32 buffer
//
// and at the end O = O * (1 / l) * (delta_V / P_r) (+ mean V).
//
// K_hat_j and V_hat_j^T reach shared memory one block ahead (two stages,
// or more with a producer warpgroup or overlap-softmax): by cp.async, or,
// where they are stored in the stage's tiles (tiling =
// core_matrices, the wgmma default), by one bulk copy each that completes
// on the stage's mbarrier. The MMAs are either mma.sync of each warp, whose
// lanes load their words of a layout group with one 8- or 16-byte load
// (docs/Layouts.md), or (mma-scope=warpgroup, sm_90a) wgmma of each
// warpgroup of four warps, reading Q (copied to shared memory once), K and
// V^T through shared-memory descriptors and P from registers; the
// accumulator of each warp is the same m16n8 fragment either way. The
// MMAs, the masking, the online softmax and the buffer update are sage
// ops on the lane's fragments (sage.warp_mma or sage.warpgroup_mma,
// sage.mask_scores, sage.online_softmax, sage.accumulate; docs/Levels.md,
// L4), which convert-sage-to-nvvm lowers.
//
//===----------------------------------------------------------------------===//

#include "SageToGPUInternal.h"

#include "sage/Dialect/Sage/Utils/NvFp4.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

using namespace mlir;
using namespace mlir::sage;

namespace {
/// The thread's place in the CTA and in the mma.sync layout.
struct Lane {
  Value tid, warp, g, t;
  Lane(KernelBuilder &kb, Value thread) {
    tid = thread;
    warp = kb.divu(tid, kb.i32(32));
    Value lane = kb.remu(tid, kb.i32(32));
    g = kb.divu(lane, kb.i32(4));
    t = kb.remu(lane, kb.i32(4));
  }
};

/// The loop-carried state: running max and sum of the two rows, and the
/// FP32 output buffer (valueDim / 8 tiles of four accumulators).
struct SoftmaxState {
  std::array<Value, 2> max, sum;
  SmallVector<MmaAcc> out;

  SmallVector<Value> flatten() const {
    SmallVector<Value> values = {max[0], max[1], sum[0], sum[1]};
    for (const MmaAcc &tile : out)
      values.append(tile.begin(), tile.end());
    return values;
  }
  static SoftmaxState unflatten(ValueRange values) {
    SoftmaxState state;
    state.max = {values[0], values[1]};
    state.sum = {values[2], values[3]};
    for (size_t i = 4; i < values.size(); i += 4)
      state.out.push_back(
          {values[i], values[i + 1], values[i + 2], values[i + 3]});
    return state;
  }
};
} // namespace

static constexpr const char *kStagingName = "sage_attention_kv";
/// The static shared memory a kernel may declare.
static constexpr int64_t kStaticSharedBytes = 48 * 1024;

/// NVFP4's first level scales each row of P~ so that its max is the largest
/// value an E4M3 scale times an E2M1 code reaches: 448 * 6.
static constexpr double kNvFp4ProbRowRange = 448.0 * 6.0;

namespace {
/// Where a K/V block sits in shared memory: K_hat (blockK rows of padded D
/// bytes), then V_hat^T (Dv rows of blockK values); after the stages and
/// their barriers, for wgmma, the CTA's Q_hat tile.
///  * mma.sync: row after row, each padded by 16 bytes so that the 16-byte
///    fragment loads of the eight rows g = 0..7 of a tile hit distinct
///    banks (8-byte loads at other row pitches may conflict two ways).
///  * wgmma: the no-swizzle K-major layout its descriptors read
///    (docs/Layouts.md): 16-byte column c of row r at c * rows * 16 +
///    r * 16, i.e. core matrices of 8 rows x 16 bytes, 128 bytes apart
///    down the rows and rows * 16 bytes apart along K. Operands stored in
///    that order (tiling = core_matrices) arrive by bulk copies, each
///    stage's on its own mbarrier, kept after the stages. Q_hat's tile is
///    in the same layout: the Q K^T wgmma reads A through descriptors too,
///    so no Q registers live across the loop (ptxas 13 and the CUDA 13.0
///    driver reuse a loop-invariant wgmma A register inside the loop,
///    benchmarks/results/2026-12-03-h200-wgmma-order.md).
///  * cp.async: a copy loop whose chunks do not divide among the threads
///    leaves some threads without a chunk in its last round; each of them
///    zero-fills its own 16 bytes of a sink after the stages instead (one
///    slot a thread: no two threads write the same bytes), so that every
///    thread issues the same copies and a group's tokens need no branch.
struct KVStaging {
  bool coreMatrices, bulkCopies, releases;
  int64_t sinkBytes, stages, keyRow, valueRow, valueStart, stageBytes,
      queryBytes;
  explicit KVStaging(const AttentionConfig &config)
      : coreMatrices(config.scope == MmaScope::Warpgroup),
        bulkCopies(config.layouts.queryKey.getOperandTiling() ==
                   OperandTiling::CoreMatrices),
        releases(config.releasesStages()),
        sinkBytes(!bulkCopies && needsSink(config) ? 16 * config.threads() : 0),
        stages(config.kvStages),
        keyRow(config.getQueryKeyRowBytes() + (coreMatrices ? 0 : 16)),
        valueRow(config.getValueTile().columns + (coreMatrices ? 0 : 16)),
        valueStart(config.blockK * keyRow),
        stageBytes(valueStart + config.valueDim * valueRow),
        queryBytes(coreMatrices ? config.getQueryTile().getBytes() : 0) {}
  /// Whether some cp.async loop (K, V^T, or wgmma's Q tile) has a last
  /// round with fewer 16-byte chunks than threads.
  static bool needsSink(const AttentionConfig &config) {
    int64_t keyChunks = config.blockK * config.getQueryKeyRowBytes() / 16;
    int64_t valueChunks = config.getValueTile().getBytes() / 16;
    int64_t queryChunks = config.scope == MmaScope::Warpgroup
                              ? config.getQueryTile().getBytes() / 16
                              : 0;
    return llvm::any_of(
        ArrayRef<int64_t>{keyChunks, valueChunks, queryChunks},
        [&](int64_t chunks) { return chunks % config.threads() != 0; });
  }
  /// Byte offset of the cp.async sink (16 bytes a thread, written, never
  /// read).
  int64_t getSinkOffset() const { return stages * stageBytes; }
  /// Byte offset of stage `stage`'s "full" mbarrier (8 bytes each), which
  /// its copies complete.
  int64_t getBarrierOffset(int64_t stage) const {
    return stages * stageBytes + 8 * stage;
  }
  /// Byte offset of stage `stage`'s "empty" mbarrier (stages released on
  /// mbarriers), which the consumers arrive on once they have read the
  /// stage.
  int64_t getReleaseOffset(int64_t stage) const {
    return getBarrierOffset(stages + stage);
  }
  /// Byte offset of the mbarrier the Q tile's bulk copy completes.
  int64_t getQueryBarrierOffset() const {
    return getBarrierOffset((releases ? 2 : 1) * stages);
  }
  /// Byte offset of the Q tile (16-byte aligned, as descriptors need).
  int64_t getQueryOffset() const {
    int64_t end =
        bulkCopies ? getQueryBarrierOffset() + 8 : getSinkOffset() + sinkBytes;
    return llvm::alignTo(end, 16);
  }
  /// The stages, their barriers and the Q tile.
  int64_t getBytes() const { return getQueryOffset() + queryBytes; }
  /// Bytes between the core matrices of two 8-row groups.
  static constexpr int64_t kStrideBytes = 128;
};
} // namespace

/// dS of a K/V block, one float a key; double-buffered when no CTA barrier
/// ends an iteration (stages released on mbarriers): block j + 2
/// overwrites block j's only after every consumer passed block j + 1's
/// barrier.
static int64_t getCorrectionLength(const AttentionConfig &config) {
  return (config.releasesStages() ? 2 : 1) * config.blockK;
}

int64_t mlir::sage::getAttentionSharedBytes(const AttentionConfig &config) {
  // The K/V stages, their barriers and (wgmma) the Q tile, then qbar and
  // dS (f32).
  return KVStaging(config).getBytes() +
         4 * (config.headDim + getCorrectionLength(config));
}

/// Accumulator element e of a tile belongs to row g (e < 2) or g + 8.
static int64_t rowOf(int64_t e) { return e < 2 ? 0 : 1; }

static Value sumOverQuad(KernelBuilder &kb, Value value) {
  value = kb.addf(value, kb.shuffleXor(value, 1));
  return kb.addf(value, kb.shuffleXor(value, 2));
}

/// lse = ln(sum_j exp(scale * q . k_j)) of rows g and g + 8, from the
/// loop's base-2 running max m and sum l: ln 2 * (m + log2 l), plus the
/// shift that smoothing K left in every score of the row, scale * (q -
/// qbar) . mean K (sage.quantized_attention); -inf for a row that saw no
/// key. Lane t of the quad sums D / 4 channels of the shift; lane 0
/// stores.
static void storeLogSumExp(KernelBuilder &kb, const KernelFunc &kernel,
                           const AttentionConfig &config, const Lane &lane,
                           std::array<Value, 2> max, std::array<Value, 2> sum,
                           std::array<Value, 2> empty,
                           std::array<Value, 2> rows, Value queryHead,
                           Value kvHead, Value queryMean) {
  using namespace buffers;
  Value queries = kernel.arg("Nq");
  int64_t dim = config.headDim, perLane = dim / 4;
  for (int64_t row = 0; row < 2; ++row) {
    Value inside = kb.cmp(arith::CmpIPredicate::slt, rows[row], queries);
    Value lse = kb.mulf(kb.addf(max[row], kb.log2(sum[row])),
                        kb.f32(llvm::numbers::ln2));
    if (config.smoothK) {
      Value safeRow = kb.select(inside, rows[row], kb.i32(0));
      Value dot = kb.f32(0);
      for (int64_t c = 0; c < perLane; c += 4) {
        Value channel = kb.add(kb.mul(lane.t, kb.i32(perLane)), kb.i32(c));
        SmallVector<Value> q =
            kb.loadVectorAsF32(config.inputType, kernel.arg(kQuery),
                               config.io.offset(kb, queryHead, kernel.arg("H"),
                                                queries, safeRow, dim, channel),
                               4);
        for (int64_t i = 0; i < 4; ++i) {
          Value index = kb.add(channel, kb.i32(i));
          Value centered = q[i];
          if (config.smoothQ)
            centered = kb.subf(centered, kb.loadShared(queryMean, index));
          Value keyMean = loadChannelMean(
              kb, kernel.arg(kKeySum), getChannelOffset(kb, kvHead, dim, index),
              kb.sitofp(kernel.arg("Nk")));
          dot = kb.addf(dot, kb.mulf(centered, keyMean));
        }
      }
      lse = kb.addf(lse, kb.mulf(sumOverQuad(kb, dot), kb.f32(config.scale)));
    }
    lse = kb.select(empty[row],
                    kb.f32(-std::numeric_limits<double>::infinity()), lse);
    Value writer = arith::AndIOp::create(
        kb.b, kb.loc, inside,
        kb.cmp(arith::CmpIPredicate::eq, lane.t, kb.i32(0)));
    kb.ifThen(writer, [&] {
      kb.storeFromF32(kb.f32Type(), lse, kernel.arg(kLse),
                      linearOffset(kb, queryHead, queries, rows[row], kb.i32(1),
                                   kb.i32(0)));
    });
  }
}

/// The mask's scores of this lane's rows: i64 element offsets of
/// (row, key 0) in the [B | 1, H | 1, Nq, Nk] mask, rows past Nq clamped
/// to the last (their scores are never stored).
static std::array<Value, 2> getMaskRowOffsets(KernelBuilder &kb,
                                              const KernelFunc &kernel,
                                              const AttentionConfig &config,
                                              std::array<Value, 2> rows,
                                              Value batch, Value headIndex) {
  Value queries = kernel.arg("Nq");
  Value slice = kb.i32(0);
  if (config.maskPerBatch)
    slice = config.maskPerHead
                ? kb.add(kb.mul(batch, kernel.arg("H")), headIndex)
                : batch;
  else if (config.maskPerHead)
    slice = headIndex;
  Value lastRow = kb.sub(queries, kb.i32(1));
  std::array<Value, 2> offsets;
  for (int64_t row = 0; row < 2; ++row)
    offsets[row] =
        linearOffset(kb, slice, queries, kb.minsi(rows[row], lastRow),
                     kernel.arg("Nk"), kb.i32(0));
  return offsets;
}

/// Adds the mask to the base-2 scores of one accumulator tile: an i1 mask
/// sends dropped keys to -inf, an additive one adds mask * log2(e) (the
/// scores are scale * log2(e) * q . k). Keys past Nk read the last key;
/// sage.mask_scores sends them to -inf afterwards.
static void addMask(KernelBuilder &kb, const KernelFunc &kernel,
                    const AttentionConfig &config,
                    std::array<Value, 2> rowOffsets, Value firstKey,
                    std::array<Value, 4> &tile) {
  Value lastKey = kb.sub(kernel.arg("Nk"), kb.i32(1));
  for (int64_t e = 0; e < 4; ++e) {
    Value key = kb.minsi(kb.add(firstKey, kb.i32(e % 2)), lastKey);
    Value offset = kb.add(rowOffsets[rowOf(e)], kb.toI64(key));
    // One builder call per statement: the order of a call's arguments is
    // the compiler's, and the IR must not depend on it.
    Value mask = kernel.arg(buffers::kMask);
    if (config.maskType.isInteger(1)) {
      Value byte = kb.load(kb.i8Type(), mask, offset, 1);
      Value zero = arith::ConstantIntOp::create(kb.b, kb.loc, 0, 8);
      Value keep = kb.cmp(arith::CmpIPredicate::ne, byte, zero);
      Value dropped = kb.f32(-std::numeric_limits<double>::infinity());
      tile[e] = kb.select(keep, tile[e], dropped);
    } else {
      Value bias = kb.loadAsF32(config.maskType, mask, offset);
      Value log2e = kb.f32(1.4426950408889634);
      tile[e] = kb.addf(tile[e], kb.mulf(bias, log2e));
    }
  }
}

void mlir::sage::buildAttentionKernel(KernelModule &km,
                                      const AttentionConfig &config) {
  using namespace buffers;
  SmallVector<KernelParam> params = {{kQueryInt, true}, {kQueryScale, true}};
  if (config.smoothQ)
    params.append({{kQueryMean, true}, {kKey, true}});
  params.append({{kKeyInt, true}, {kKeyScale, true}, {kValueQuantized, true}});
  if (config.microscaled)
    params.push_back({kValueScale, true});
  if (config.scaledValues)
    params.push_back({kValueAbsMax, true});
  if (config.smoothV)
    params.push_back({kValueSum, true});
  if (config.maskType)
    params.push_back({kMask, true});
  if (config.lse) {
    params.push_back({kLse, true});
    if (config.smoothK)
      params.append({{kQuery, true}, {kKeySum, true}});
  }
  params.append({{kOutput, true},
                 {"Nq", false},
                 {"Nk", false},
                 {"H", false},
                 {"Hkv", false}});
  // Q_hat and K_hat rows hold paddedDim channels (zeros past D); dS and
  // qbar use the D channels of Q and K.
  // (queryKeyRowBytes of them: INT4 values are two a byte.)
  int64_t dim = config.headDim, paddedDim = config.paddedHeadDim,
          queryKeyRowBytes = config.getQueryKeyRowBytes(),
          valueDim = config.valueDim;
  // P V consumes a K/V block in chunks of the MMA's k keys (32 for E4M3,
  // 16 for f16).
  int64_t keyTiles = config.blockK / 8,
          keyChunks = config.blockK / config.layouts.value.getMmaK();
  KernelFunc kernel =
      km.addKernel("sage_attention", params, config.kernelThreads(),
                   /*sharedF32=*/{dim, getCorrectionLength(config)});
  // getConfig chose the CTAs an SM holds; a warp-specialized kernel's
  // come from its roles' budgets (sage.warp_specialize).
  if (config.ctasPerSm > 1 && !config.warpSpecialized)
    kernel.func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                         km.builder.getI32IntegerAttr(config.ctasPerSm));
  KVStaging layout(config);
  assert((!layout.coreMatrices || config.warps % 4 == 0) &&
         "wgmma is issued by whole warpgroups");
  assert((!layout.bulkCopies || layout.coreMatrices) &&
         "only the wgmma kernel reads stage tiles (getOperandLayouts)");
  assert((!config.warpSpecialized || layout.bulkCopies) &&
         (layout.stages == 2 || layout.bulkCopies) &&
         "a producer and more stages need bulk copies (getConfig)");
  // The stages of K_hat and V_hat^T blocks (and their mbarriers): static
  // shared memory while the kernel's fits the 48 KiB a kernel may declare
  // (D <= 128), else dynamic, which the plan asks for and the runtime opts
  // in to (D up to 256 needs 74 KiB).
  int64_t stagingBytes = layout.getBytes();
  bool dynamicStaging = getAttentionSharedBytes(config) > kStaticSharedBytes;
  {
    OpBuilder::InsertionGuard guard(km.builder);
    km.builder.setInsertionPoint(kernel.func);
    auto bytes = LLVM::LLVMArrayType::get(km.builder.getI8Type(),
                                          dynamicStaging ? 0 : stagingBytes);
    LLVM::GlobalOp::create(
        km.builder, km.loc, bytes, /*isConstant=*/false,
        dynamicStaging ? LLVM::Linkage::External : LLVM::Linkage::Internal,
        kStagingName, Attribute(), /*alignment=*/16, /*addrSpace=*/3);
  }
  KernelBuilder kb(km.builder, km.loc);
  // The computing threads: the CTA's, or (warp-specialized) the consumers'
  // from their role's thread index, below.
  std::optional<Lane> computeLane;
  if (!config.warpSpecialized)
    computeLane.emplace(kb, kb.threadId());
  MLIRContext *ctx = km.builder.getContext();
  // Integer Q K^T sums in i32; NVFP4's block-scaled one in f32.
  Type scoreType = config.microscaled ? Type(km.builder.getF32Type())
                                      : Type(km.builder.getI32Type());
  MmaAttr queryKeyMma = getWarpMma(ctx, config.queryKeyType, scoreType);
  // P V accumulates in f32, or (SageAttention2++) in f16 flushed into O
  // every pvAccum.every MMAs.
  MmaAttr probValueMma =
      getWarpMma(ctx, config.valueType, config.pvAccum.getAccType());
  // wgmma: the warpgroup's products, B from the stage; A (Q_hat) from its
  // tile in shared memory, then (P) from registers.
  MmaAttr queryKeyGroupMma, probValueGroupMma;
  if (layout.coreMatrices) {
    queryKeyGroupMma =
        getWarpgroupMma(ctx, km.builder.getI8Type(), km.builder.getI32Type(),
                        config.blockK, OperandSource::Shared);
    probValueGroupMma =
        getWarpgroupMma(ctx, config.valueType, km.builder.getF32Type(),
                        valueDim, OperandSource::Registers);
  }
  Value queries = kernel.arg("Nq"), keys = kernel.arg("Nk");
  Value staging =
      LLVM::AddressOfOp::create(kb.b, kb.loc, kb.sharedPtrType(), kStagingName);
  Value block = kb.blockId(gpu::Dimension::x);
  Value headIndex = kb.blockId(gpu::Dimension::y);
  Value batch = kb.blockId(gpu::Dimension::z);
  Value headRatio = kb.divu(kernel.arg("H"), kernel.arg("Hkv"));
  Value queryHead = kb.add(kb.mul(batch, kernel.arg("H")), headIndex);
  Value kvHead =
      kb.add(kb.mul(batch, kernel.arg("Hkv")), kb.divu(headIndex, headRatio));
  Value queryBlocks = kb.ceilDiv(queries, config.blockQ);
  Value keyBlocks = kb.ceilDiv(keys, config.blockK);
  // With the causal mask a Q block's work grows with its index: CTAs start
  // in blockIdx order, so the last Q block comes first and the grid ends
  // on the shortest ones, not on a tail of the longest.
  if (config.causal)
    block = kb.sub(kb.sub(queryBlocks, kb.i32(1)), block);
  Value paddedQueries = kb.mul(queryBlocks, kb.i32(config.blockQ));
  Value paddedKeys = kb.mul(keyBlocks, kb.i32(config.blockK));

  // Causal: row r sees keys <= r + diagonal: Nk - Nq aligned bottom-right,
  // 0 aligned top-left.
  auto causalDiagonal = [&] {
    return config.causalTopLeft ? kb.i32(0) : kb.sub(keys, queries);
  };
  // The last key block any row of this Q block sees.
  Value blockEnd;
  auto getBlockEnd = [&] {
    if (blockEnd)
      return blockEnd;
    blockEnd = keyBlocks;
    // One builder call per statement where two arguments build ops: the
    // order of a call's arguments is the compiler's, and the IR must not
    // depend on it.
    Value diagonal = causalDiagonal();
    if (config.causal) {
      Value visible = kb.add(
          kb.mul(kb.add(block, kb.i32(1)), kb.i32(config.blockQ)), diagonal);
      visible = kb.minsi(kb.maxsi(visible, kb.i32(0)), keys);
      blockEnd = kb.ceilDiv(visible, config.blockK);
    }
    return blockEnd;
  };

  // K/V block j lives in stage j % stages, whose barriers complete their
  // phase j / stages with it.
  auto stageIndex = [&](Value keyBlock) {
    return llvm::isPowerOf2_64(layout.stages)
               ? kb.bitAnd(keyBlock, layout.stages - 1)
               : kb.remu(keyBlock, kb.i32(layout.stages));
  };
  auto stageOffset = [&](Value keyBlock) {
    return kb.mul(stageIndex(keyBlock), kb.i32(layout.stageBytes));
  };
  // The stages' mbarriers (bulk copies), and the Q tile's: rings of
  // stages, whose ops find block j's stage and phase.
  Value kvRing, queryRing;
  if (layout.bulkCopies) {
    kvRing = StageRingOp::create(
        kb.b, kb.loc,
        StageRingType::get(ctx, layout.stages,
                           layout.releases ? config.threads() : 0),
        staging, kb.i32(layout.getBarrierOffset(0)));
    queryRing = StageRingOp::create(
        kb.b, kb.loc, StageRingType::get(ctx, /*stages=*/1, /*consumers=*/0),
        staging, kb.i32(layout.getQueryBarrierOffset()));
  }
  // Arms the full barrier of block `keyBlock`'s stage with the tiles' bytes
  // and issues their two bulk copies, which complete them (one thread).
  OperandTile keyTile = config.getKeyTile(), valueTile = config.getValueTile();
  auto copyBlock = [&](Value keyBlock) {
    Value stage = stageOffset(keyBlock);
    Value barrier = StageRingArmOp::create(
        kb.b, kb.loc, kb.sharedPtrType(), kvRing, keyBlock,
        keyTile.getBytes() + valueTile.getBytes());
    Value firstKey = kb.mul(keyBlock, kb.i32(config.blockK));
    kb.copyBulk(staging, stage, kernel.arg(kKeyInt),
                OperandRow(kb, OperandTiling::CoreMatrices, kvHead, paddedKeys,
                           firstKey, kb.i32(queryKeyRowBytes), keyTile)
                    .getOffset(kb.i32(0)),
                keyTile.getBytes(), barrier);
    kb.copyBulk(staging, kb.add(stage, kb.i32(layout.valueStart)),
                kernel.arg(kValueQuantized),
                OperandRow(kb, OperandTiling::CoreMatrices, kvHead,
                           kb.i32(valueDim), kb.i32(0), paddedKeys, valueTile)
                    .getOffset(firstKey),
                valueTile.getBytes(), barrier);
  };
  // Stages released on mbarriers: the block that used block `keyBlock`'s
  // stage before it must be released before the copy overwrites it.
  auto waitForRelease = [&](Value keyBlock) {
    StageRingAcquireOp::create(kb.b, kb.loc, kvRing, keyBlock);
  };
  // One arrival (the issuer's) and the copies' bytes complete a full
  // barrier's phase; all consumers' arrivals an empty one's.
  auto initBarriers = [&] {
    kb.ifThen(kb.cmp(arith::CmpIPredicate::eq, kb.threadId(), kb.i32(0)), [&] {
      StageRingInitOp::create(kb.b, kb.loc, kvRing);
      StageRingInitOp::create(kb.b, kb.loc, queryRing);
      kb.fenceBarrierInit();
    });
    kb.barrier();
  };

  // Warp-specialized: a producer warpgroup, whose thread 0 streams the K/V
  // blocks into the stages as the consumers release them, and the
  // consumer warpgroups, which run the rest of this kernel. Registers go
  // from the producer to the consumers.
  WarpSpecializeOp roles;
  if (config.warpSpecialized) {
    initBarriers();
    Value end = getBlockEnd();
    // D <= 64 with 64-key blocks fits two CTAs an SM (the consumers in 104
    // registers), which hides more latency than one with more registers;
    // wider heads or blocks take the SM's registers for one (ptxas cannot
    // fit 128 keys' scores in 104). The producer's registers go to the
    // consumers, within what the CTA's threads start with (setmaxnreg
    // moves registers inside a CTA only).
    int64_t ctasPerSm =
        config.ctasPerSm
            ? config.ctasPerSm
            : (config.paddedHeadDim <= 64 && config.blockK <= 64 ? 2 : 1);
    int32_t producerRegisters = ctasPerSm > 1 ? 24 : 40;
    int32_t consumerRegisters = int32_t(WarpSpecializeOp::getLargestBudget(
        config.kernelThreads(), ctasPerSm, config.threads(),
        128 * producerRegisters));
    roles = WarpSpecializeOp::create(
        kb.b, kb.loc, kb.b.getDenseI32ArrayAttr({4, int32_t(config.warps)}),
        kb.b.getDenseI32ArrayAttr({producerRegisters, consumerRegisters}),
        /*rolesCount=*/2);
    Block *producer = kb.b.createBlock(&roles.getRoles()[0], {},
                                       {kb.b.getI32Type()}, {kb.loc});
    kb.ifThen(
        kb.cmp(arith::CmpIPredicate::eq, producer->getArgument(0), kb.i32(0)),
        [&] {
          kb.forLoop(kb.i32(0), end, kb.i32(1), {},
                     [&](Value keyBlock, ValueRange) -> SmallVector<Value> {
                       waitForRelease(keyBlock);
                       copyBlock(keyBlock);
                       return {};
                     });
        });
    Block *consumer = kb.b.createBlock(&roles.getRoles()[1], {},
                                       {kb.b.getI32Type()}, {kb.loc});
    computeLane.emplace(kb, consumer->getArgument(0));
  }
  Lane &lane = *computeLane;
  // A barrier of the computing threads.
  auto computeBarrier = [&] {
    if (config.warpSpecialized)
      kb.namedBarrier(1, config.threads());
    else
      kb.barrier();
  };
  // Warpgroup turns: the consumer warpgroups issue their wgmmas in a ring.
  // Warpgroup w waits for its turn on named barrier kFirstTurnBarrier + w
  // (bar.sync) and passes it to w + 1 by arriving on w + 1's (bar.arrive):
  // each such barrier completes with the 256 threads of those two. One
  // turn circulates: the last warpgroup hands warpgroup 0 the first, and
  // every warpgroup waits for a turn before it passes one on, so no
  // warpgroup arrives twice on a barrier before its owner waits there
  // (which would complete it with one warpgroup's arrivals), and every
  // turn passed is waited for.
  constexpr int64_t kFirstTurnBarrier = 2; // after barrier() and the
                                           // consumers' computeBarrier
  Value warpgroup, lastWarpgroup;
  auto awaitTurn = [&] {
    kb.namedBarrier(kb.add(kb.i32(kFirstTurnBarrier), warpgroup), 2 * 128);
  };
  auto passTurn = [&] {
    Value next = kb.add(warpgroup, kb.i32(1));
    next = kb.remu(next, kb.i32(config.warpgroups()));
    kb.arriveOnNamedBarrier(kb.add(kb.i32(kFirstTurnBarrier), next), 2 * 128);
  };
  if (config.warpgroupTurns) {
    warpgroup = kb.divu(lane.warp, kb.i32(4));
    lastWarpgroup = kb.cmp(arith::CmpIPredicate::eq, warpgroup,
                           kb.i32(config.warpgroups() - 1));
  }
  Value firstRow = kb.add(kb.mul(block, kb.i32(config.blockQ)),
                          kb.mul(lane.warp, kb.i32(config.warpQ)));
  std::array<Value, 2> rows = {kb.add(firstRow, lane.g),
                               kb.add(firstRow, kb.add(lane.g, kb.i32(8)))};
  Value quad2 = kb.mul(lane.t, kb.i32(2));
  std::array<Value, 2> maskRows;
  if (config.maskType)
    maskRows = getMaskRowOffsets(kb, kernel, config, rows, batch, headIndex);

  // mma.sync: Q_hat fragments stay in registers for the whole loop. Q and
  // K are stored in one operand layout (docs/Layouts.md): per group of
  // channels, lane t loads its two words of every k-chunk with one load.
  OperandLayoutAttrInterface qkLayout = config.layouts.queryKey;
  int64_t group = qkLayout.getGroupSize(),
          groupChunks = group / qkLayout.getMmaK(),
          groupBytes = group * config.queryKeyType.getIntOrFloatBitWidth() / 8,
          laneBytes = qkLayout.getLaneBytes();
  Value groupOffset = kb.toI64(kb.mul(lane.t, kb.i32(laneBytes)));
  auto loadRowWords = [&](Value buffer, Value rowStart,
                          int64_t g) -> SmallVector<Value> {
    Value offset =
        kb.add(rowStart, kb.add(kb.i64(g * groupBytes), groupOffset));
    return kb.loadWords(buffer, offset, laneBytes / 4);
  };
  SmallVector<MmaA> queryFragments;
  OperandTile queryTile = config.getQueryTile();
  if (config.scope == MmaScope::Warp) {
    for (int64_t g = 0; g < paddedDim / group; ++g) {
      std::array<SmallVector<Value>, 2> words;
      for (int64_t row = 0; row < 2; ++row)
        words[row] =
            loadRowWords(kernel.arg(kQueryInt),
                         linearOffset(kb, queryHead, paddedQueries, rows[row],
                                      kb.i32(queryKeyRowBytes), kb.i32(0)),
                         g);
      for (int64_t c = 0; c < groupChunks; ++c)
        queryFragments.push_back({words[0][2 * c], words[1][2 * c],
                                  words[0][2 * c + 1], words[1][2 * c + 1]});
    }
  }

  // Rows g and g + 8 of a warp segment share one delta_Q (per_thread), the
  // warp's rows do (per_warp), or the whole block does (per_block); per_token
  // each row has its own.
  auto loadQueryScale = [&](Value group) {
    return kb.loadAsF32(kb.f32Type(), kernel.arg(kQueryScale),
                        linearOffset(kb, queryHead, queryBlocks, block,
                                     kb.i32(config.getQueryScalesPerBlock()),
                                     group));
  };
  std::array<Value, 2> queryScales;
  // NVFP4: a UE4M3 scale a 16 channels, applied by the MMA from lanes t = 0
  // (row g) and t = 1 (row g + 8): a word of four a 64-channel slice.
  int64_t scaleRowBytes = config.getQueryKeyScaleRowBytes();
  SmallVector<Value> queryScaleWords;
  if (config.microscaled) {
    Value secondRow = kb.cmp(arith::CmpIPredicate::eq, lane.t, kb.i32(1));
    Value scaleRow = kb.select(secondRow, rows[1], rows[0]);
    for (int64_t c = 0; c < paddedDim / 64; ++c) {
      Value rowBytes = kb.i32(scaleRowBytes), sliceByte = kb.i32(4 * c);
      Value offset = linearOffset(kb, queryHead, paddedQueries, scaleRow,
                                  rowBytes, sliceByte);
      queryScaleWords.push_back(
          kb.loadWords(kernel.arg(kQueryScale), offset, 1)[0]);
    }
  } else if (config.perTokenScales()) {
    Value warpRow = kb.mul(lane.warp, kb.i32(config.warpQ));
    for (int64_t row = 0; row < 2; ++row)
      queryScales[row] =
          loadQueryScale(kb.add(warpRow, kb.add(lane.g, kb.i32(8 * row))));
  } else {
    Value queryGroup = config.perBlockScales() ? kb.i32(0)
                       : config.perThreadScales()
                           ? kb.add(kb.mul(lane.warp, kb.i32(8)), lane.g)
                           : lane.warp;
    queryScales[0] = queryScales[1] = loadQueryScale(queryGroup);
  }

  Value queryMean = kernel.shared[0], correction = kernel.shared[1];
  if (config.smoothQ) {
    // Channel c by thread c mod CTA size (D wider than the CTA: rounds).
    for (int64_t c0 = 0; c0 < dim; c0 += config.threads()) {
      Value channel = c0 ? kb.add(lane.tid, kb.i32(c0)) : lane.tid;
      kb.ifThen(kb.cmp(arith::CmpIPredicate::ult, channel, kb.i32(dim)), [&] {
        kb.storeShared(kb.loadAsF32(kb.f32Type(), kernel.arg(kQueryMean),
                                    linearOffset(kb, queryHead, queryBlocks,
                                                 block, kb.i32(dim), channel)),
                       queryMean, channel);
      });
    }
    // The first block's dS reads qbar before the loop's first barrier.
    computeBarrier();
  }

  getBlockEnd();

  double log2e = 1.4426950408889634;
  Value scaleLog2 = kb.f32(config.scale * log2e);
  Value negInf = kb.f32(-std::numeric_limits<double>::infinity());
  SoftmaxState init;
  init.max = {negInf, negInf};
  init.sum = {kb.f32(0), kb.f32(0)};
  for (int64_t dt = 0; dt < valueDim / 8; ++dt)
    init.out.push_back({kb.f32(0), kb.f32(0), kb.f32(0), kb.f32(0)});

  // cp.async's operands as byte memrefs: nvgpu's copies address memrefs.
  Value stagingMemref, keyMemref, valueMemref, queryMemref;
  if (!layout.bulkCopies) {
    stagingMemref = kb.byteMemref(staging);
    keyMemref = kb.byteMemref(kernel.arg(kKeyInt));
    valueMemref = kb.byteMemref(kernel.arg(kValueQuantized));
    if (layout.coreMatrices)
      queryMemref = kb.byteMemref(kernel.arg(kQueryInt));
  }
  // `chunks` 16-byte cp.async copies from `source`, chunk c by thread c
  // mod the CTA's threads to the stage offset and source offset `place`
  // gives, none where `copies` (i1, if given) is false: those zero-fill
  // their destination. A thread without a chunk in the last round
  // zero-fills its sink slot. Returns the thread's copies' tokens.
  auto copyChunks = [&](int64_t chunks, Value copies, Value source,
                        function_ref<std::pair<Value, Value>(Value)> place) {
    SmallVector<Value> tokens;
    for (int64_t i = 0; i < chunks; i += config.threads()) {
      Value chunk = kb.add(lane.tid, kb.i32(i));
      auto [destination, sourceOffset] = place(chunk);
      Value copiesChunk = copies;
      if (i + config.threads() > chunks) {
        Value hasChunk =
            kb.cmp(arith::CmpIPredicate::ult, chunk, kb.i32(chunks));
        // One op a statement: the IR must not depend on the order in
        // which the compiler evaluates a call's arguments.
        Value slotStart = kb.mul(lane.tid, kb.i32(16));
        Value sinkStart = kb.i32(layout.getSinkOffset());
        Value sinkSlot = kb.add(sinkStart, slotStart);
        destination = kb.select(hasChunk, destination, sinkSlot);
        copiesChunk =
            copies
                ? Value(arith::AndIOp::create(kb.b, kb.loc, copies, hasChunk))
                : hasChunk;
      }
      tokens.push_back(kb.copyAsync16(stagingMemref, destination, source,
                                      sourceOffset, copiesChunk));
    }
    return tokens;
  };

  // Copies K/V block `keyBlock` into its stage, if it exists:
  // thread 0 by two bulk copies that complete on the stage's barrier, or
  // all threads 16 bytes a copy (coalesced) in a cp.async group, whose
  // token it returns: a block past the end copies nothing (each thread's
  // copies zero-fill the stage, which no block uses), so that every
  // thread closes a group per block.
  // (Warp-specialized, the producer copies.)
  auto issueBlock = [&](Value keyBlock) -> Value {
    if (config.warpSpecialized)
      return {};
    Value exists = kb.cmp(arith::CmpIPredicate::slt, keyBlock, blockEnd);
    if (layout.bulkCopies) {
      Value issuer = arith::AndIOp::create(
          kb.b, kb.loc, kb.cmp(arith::CmpIPredicate::eq, lane.tid, kb.i32(0)),
          exists);
      kb.ifThen(issuer, [&] {
        if (layout.releases)
          waitForRelease(keyBlock);
        copyBlock(keyBlock);
      });
      return {};
    }
    Value stage = stageOffset(keyBlock);
    Value firstKey = kb.mul(keyBlock, kb.i32(config.blockK));
    // `rows` rows of `rowBytes`, stored `smemRow` bytes apart (or in core
    // matrices) from `smemStart` in the stage.
    auto copyRows = [&](int64_t rows, int64_t rowBytes, int64_t smemRow,
                        int64_t smemStart, Value source,
                        function_ref<Value(Value)> rowOffset) {
      int64_t perRow = rowBytes / 16;
      return copyChunks(rows * perRow, exists, source, [&](Value chunk) {
        Value row = kb.divu(chunk, kb.i32(perRow));
        Value sixteen = kb.i32(16);
        Value chunkInRow = kb.remu(chunk, kb.i32(perRow));
        Value column = kb.mul(chunkInRow, sixteen);
        Value inTile;
        if (layout.coreMatrices) {
          Value rowStart = kb.mul(row, kb.i32(16));
          Value columnStart = kb.mul(chunkInRow, kb.i32(rows * 16));
          inTile = kb.add(columnStart, rowStart);
        } else {
          inTile = kb.add(kb.mul(row, kb.i32(smemRow)), column);
        }
        Value destination = kb.add(kb.add(stage, kb.i32(smemStart)), inTile);
        Value columnOffset = kb.toI64(column);
        Value source = rowOffset(row);
        return std::pair(destination, kb.add(source, columnOffset));
      });
    };
    SmallVector<Value> copies = copyRows(
        config.blockK, queryKeyRowBytes, layout.keyRow, 0, keyMemref,
        [&](Value row) {
          return linearOffset(kb, kvHead, paddedKeys, kb.add(firstKey, row),
                              kb.i32(queryKeyRowBytes), kb.i32(0));
        });
    // Bytes of a number of keys of a V^T row (even: whole blocks).
    int64_t valueBits = config.valueType.getIntOrFloatBitWidth();
    auto keyBytesOfV = [&](Value keys) {
      return valueBits == 4 ? kb.divu(keys, kb.i32(2))
                            : kb.mul(keys, kb.i32(valueBits / 8));
    };
    llvm::append_range(
        copies, copyRows(valueDim, valueTile.columns, layout.valueRow,
                         layout.valueStart, valueMemref, [&](Value channel) {
                           Value channels = kb.i32(valueDim);
                           Value rowBytes = keyBytesOfV(paddedKeys);
                           Value start = keyBytesOfV(firstKey);
                           return linearOffset(kb, kvHead, channels, channel,
                                               rowBytes, start);
                         }));
    return kb.commitAsyncCopies(copies);
  };
  if (layout.bulkCopies && !config.warpSpecialized)
    initBarriers();
  // wgmma: the CTA's Q_hat tile goes to shared memory in core matrices
  // (16-byte column c of row r at c * blockQ * 16 + r * 16), where Q K^T
  // reads it: stored so (tiling = core_matrices), by one bulk copy that
  // completes on its own mbarrier; else 16 bytes a copy, consecutive
  // threads on consecutive rows, published to the async proxy.
  if (layout.coreMatrices) {
    Value firstQuery = kb.mul(block, kb.i32(config.blockQ));
    Value queryStart = kb.i32(layout.getQueryOffset());
    if (layout.bulkCopies) {
      kb.ifThen(kb.cmp(arith::CmpIPredicate::eq, lane.tid, kb.i32(0)), [&] {
        Value barrier =
            StageRingArmOp::create(kb.b, kb.loc, kb.sharedPtrType(), queryRing,
                                   kb.i32(0), queryTile.getBytes());
        kb.copyBulk(staging, queryStart, kernel.arg(kQueryInt),
                    OperandRow(kb, OperandTiling::CoreMatrices, queryHead,
                               paddedQueries, firstQuery,
                               kb.i32(queryKeyRowBytes), queryTile)
                        .getOffset(kb.i32(0)),
                    queryTile.getBytes(), barrier);
      });
      StageRingWaitOp::create(kb.b, kb.loc, queryRing, kb.i32(0));
    } else {
      SmallVector<Value> copies = copyChunks(
          queryTile.getBytes() / 16, /*copies=*/Value(), queryMemref,
          [&](Value chunk) {
            Value row = kb.remu(chunk, kb.i32(config.blockQ));
            Value column = kb.divu(chunk, kb.i32(config.blockQ));
            Value query = kb.add(firstQuery, row);
            OperandRow source(kb, qkLayout.getOperandTiling(), queryHead,
                              paddedQueries, query, kb.i32(queryKeyRowBytes),
                              queryTile);
            Value sourceOffset = source.getOffset(kb.mul(column, kb.i32(16)));
            Value destination = kb.add(queryStart, kb.mul(chunk, kb.i32(16)));
            return std::pair(destination, sourceOffset);
          });
      kb.waitAsyncCopies(kb.commitAsyncCopies(copies), /*pending=*/0);
      kb.fenceProxyAsyncShared();
      computeBarrier();
    }
  }
  Value firstCopies = issueBlock(kb.i32(0));

  // Block j once its stage holds it: dS (Q smoothing) computed and
  // published, the stage waited for, the scores' dequantization factor.
  // Both loop forms below read blocks through it.
  struct BlockView {
    Value keyBlock, blockStart, stage, correctionStart, factor;
    // per_token: delta_K of the lane's keys 8 nt + 2t + e, at 2 nt + e.
    SmallVector<Value> keyScales;
  };
  // One factor for all of a lane's scores, unless per_token scales make
  // each (row, key) its own.
  bool foldFactor =
      !config.smoothQ && !config.maskType && !config.perTokenScales();
  // `copies`: the cp.async group that copied the block (cp.async staging).
  auto enterBlock = [&](Value keyBlock, Value copies = {}) -> BlockView {
    Value blockStart = kb.mul(keyBlock, kb.i32(config.blockK));
    Value stage = stageOffset(keyBlock);
    // Block j's dS: buffer j % 2 when double-buffered.
    Value correctionStart =
        config.releasesStages()
            ? kb.mul(kb.bitAnd(keyBlock, 1), kb.i32(config.blockK))
            : kb.i32(0);

    // dS_j = qbar_i . K_j in f32, threads / blockK lanes a key, from K in
    // global memory while the copies are in flight. (qbar_i . mean K is
    // the same for every key of a row: softmax-invariant, dropped.) The
    // previous block's readers of `correction` passed the barrier that
    // ends its iteration (stages released on mbarriers: they read the
    // other buffer);
    // the barrier below publishes the new values.
    if (config.smoothQ) {
      // threads / blockK adjacent lanes share a key, each summing an equal
      // share of its channels (a power of two: getConfig's tiles).
      int64_t lanesPerKey = config.threads() / config.blockK;
      int64_t channels = dim / lanesPerKey;
      assert(llvm::isPowerOf2_64(lanesPerKey) && lanesPerKey <= 32 &&
             dim % lanesPerKey == 0 && "a key's lanes share a warp");
      Value key = kb.divu(lane.tid, kb.i32(lanesPerKey));
      Value part = kb.remu(lane.tid, kb.i32(lanesPerKey));
      Value token = kb.add(blockStart, key);
      Value valid = kb.cmp(arith::CmpIPredicate::slt, token, keys);
      Value safeToken = kb.select(valid, token, kb.i32(0));
      Value firstChannel = kb.mul(part, kb.i32(channels));
      // Loads of up to 16 bytes that tile the share (D = 48 over 8 lanes:
      // 6 channels, in loads of 2).
      int64_t perLoad = 16 / (config.inputType.getIntOrFloatBitWidth() / 8);
      while (channels % perLoad != 0)
        perLoad /= 2;
      Value dot = kb.f32(0);
      for (int64_t c = 0; c < channels; c += perLoad) {
        Value channel = kb.add(firstChannel, kb.i32(c));
        SmallVector<Value> k =
            kb.loadVectorAsF32(config.inputType, kernel.arg(kKey),
                               config.io.offset(kb, kvHead, kernel.arg("Hkv"),
                                                keys, safeToken, dim, channel),
                               perLoad);
        for (int64_t i = 0; i < perLoad; ++i)
          dot = kb.addf(
              dot, kb.mulf(kb.loadShared(queryMean, kb.add(channel, kb.i32(i))),
                           k[i]));
      }
      dot = kb.select(valid, dot, kb.f32(0));
      for (int64_t mask = 1; mask < lanesPerKey; mask *= 2)
        dot = kb.addf(dot, kb.shuffleXor(dot, mask));
      kb.ifThen(kb.cmp(arith::CmpIPredicate::eq, part, kb.i32(0)), [&] {
        kb.storeShared(dot, correction, kb.add(correctionStart, key));
      });
    }
    if (layout.bulkCopies) {
      // The stage's full barrier completes its phase keyBlock / stages with
      // this block: the parity alternates. The bulk copies write through
      // the async proxy that wgmma reads through.
      StageRingWaitOp::create(kb.b, kb.loc, kvRing, keyBlock);
    } else {
      // The next block's group may stay in flight.
      kb.waitAsyncCopies(copies, /*pending=*/1);
      // wgmma reads the stage through the async proxy: the copies' writes
      // are made visible to it before the barrier.
      if (layout.coreMatrices)
        kb.fenceProxyAsyncShared();
    }
    // Publishes dS, and cp.async's stage, to every computing thread (a
    // bulk-copied stage is published by its mbarrier).
    if (!layout.bulkCopies)
      kb.barrier();
    else if (config.smoothQ)
      computeBarrier();

    // S = Q_hat K_hat^T with one delta_K per thread: group t of the block
    // (per_thread), or the block's (per_warp, per_block); per_token, one a
    // key of the lane's.
    auto loadKeyScale = [&](Value group) {
      return kb.loadAsF32(kb.f32Type(), kernel.arg(kKeyScale),
                          linearOffset(kb, kvHead, keyBlocks, keyBlock,
                                       kb.i32(config.getKeyScalesPerBlock()),
                                       group));
    };
    // NVFP4: the MMA applied the scales; the scores need scale log2 e
    // (positive where the softmax applies it, as below).
    if (config.microscaled) {
      Value factor =
          foldFactor ? kb.maximumf(scaleLog2,
                                   kb.f32(std::numeric_limits<float>::min()))
                     : scaleLog2;
      return {keyBlock, blockStart, stage, correctionStart, factor, {}};
    }
    if (config.perTokenScales()) {
      SmallVector<Value> keyScales;
      for (int64_t nt = 0; nt < keyTiles; ++nt)
        for (int64_t e = 0; e < 2; ++e)
          keyScales.push_back(loadKeyScale(kb.add(kb.i32(nt * 8 + e), quad2)));
      return {keyBlock,        blockStart, stage,
              correctionStart, scaleLog2,  keyScales};
    }
    Value keyScale =
        loadKeyScale(config.perThreadScales() ? lane.t : kb.i32(0));
    Value factor = kb.mulf(kb.mulf(queryScales[0], keyScale), scaleLog2);
    // Without dS or a mask bias to add, the scores stay the MMA's integers
    // and sage.online_softmax applies the factor, in the fma that also
    // subtracts the max. It must be positive there, so that a masked -inf
    // stays -inf: a factor below the smallest normal f32 (zero for an
    // all-zero group, whose integers are 0; else one whose scores are all
    // within 1e-38 of 0 either way) becomes it; NaN stays NaN.
    if (foldFactor)
      factor = kb.maximumf(factor, kb.f32(std::numeric_limits<float>::min()));
    return {keyBlock, blockStart, stage, correctionStart, factor};
  };

  // wgmma: each warpgroup's [64, blockK] tile at once, one k-step
  // of 32 bytes (two core matrices along K) per descriptor; the
  // warpgroup's 64 rows of the Q tile start 64 * 16 bytes apart.
  struct ScoreOperands {
    SmallVector<Value> queryDescriptors, keyDescriptors;
  };
  auto getScoreOperands = [&](const BlockView &view) {
    Value stage = view.stage;
    ScoreOperands operands;
    SmallVector<Value> &queryDescriptors = operands.queryDescriptors,
                       &keyDescriptors = operands.keyDescriptors;
    int64_t keyLeading = keyTile.getLeadingBytes(),
            queryLeading = queryTile.getLeadingBytes();
    Value warpgroup = kb.divu(lane.warp, kb.i32(4));
    Value groupRows = kb.mul(warpgroup, kb.i32(64 * 16));
    Value queryRows = kb.add(kb.i32(layout.getQueryOffset()), groupRows);
    for (int64_t c = 0; c < paddedDim / 32; ++c) {
      queryDescriptors.push_back(
          getMatrixDescriptor(kb, queryKeyGroupMma, staging,
                              kb.add(queryRows, kb.i32(2 * c * queryLeading)),
                              queryLeading, KVStaging::kStrideBytes));
      keyDescriptors.push_back(
          getMatrixDescriptor(kb, queryKeyGroupMma, staging,
                              kb.add(stage, kb.i32(2 * c * keyLeading)),
                              keyLeading, KVStaging::kStrideBytes));
    }
    return operands;
  };
  auto issueScores = [&](const ScoreOperands &operands, bool fenced = false) {
    return issueWarpgroupMmas(kb, queryKeyGroupMma, operands.queryDescriptors,
                              operands.keyDescriptors, fenced);
  };

  OperandLayoutAttrInterface vLayout = config.layouts.value;
  // NVFP4's P of the current block (docs/Algorithm.md section 5), from
  // sage.quantize in two levels on the accumulator fragment: s_row of rows g
  // and g + 8, and per 64-key chunk the P V MMA's A scale register.
  std::array<Value, 2> probRowScales;
  SmallVector<Value> probScaleWords;
  auto microscaleProbs = [&](Value probs) -> Value {
    int64_t elements = keyTiles * 4;
    auto quantize = QuantizeOp::create(
        kb.b, kb.loc,
        VectorType::get({elements}, config.probQuant.getElementType()),
        VectorType::get({elements / 8}, config.probQuant.getScaleType()),
        VectorType::get({2}, kb.f32Type()), probs, config.probQuant,
        /*bound=*/nullptr, /*layout=*/nullptr, queryKeyMma,
        kb.b.getF64FloatAttr(kNvFp4ProbRowRange));
    SmallVector<Value> rowScales = kb.elements(quantize.getRowScales());
    probRowScales = {rowScales[0], rowScales[1]};
    Value words = vector::BitCastOp::create(
        kb.b, kb.loc, VectorType::get({elements / 32}, kb.i32Type()),
        quantize.getScales());
    probScaleWords = kb.elements(words);
    return quantize.getValues();
  };
  // The softmax of block j's scores (wgmma: `groupScores`; mma.sync: its
  // own MMAs) in `state`: returns alpha and P_hat on the accumulator
  // fragment; getProbOperands makes that the P V MMA's A operand, a
  // fragment per chunk of the MMA's k keys.
  auto softmaxBlock = [&](const BlockView &view, ArrayRef<MmaAcc> groupScores,
                          SoftmaxState &state) -> std::pair<Value, Value> {
    Value stage = view.stage, blockStart = view.blockStart,
          correctionStart = view.correctionStart, factor = view.factor;
    // mma.sync: tile nt of each warp's 16 rows, K read a layout group at a
    // time.
    auto warpScoreTile = [&](int64_t nt) {
      Value zero = arith::ConstantOp::create(
          kb.b, kb.loc, kb.b.getZeroAttr(queryKeyMma.getAcc()));
      MmaAcc acc = {zero, zero, zero, zero};
      Value keyRow = kb.add(kb.i32(nt * 8), lane.g);
      Value rowStart = kb.add(stage, kb.mul(keyRow, kb.i32(layout.keyRow)));
      for (int64_t g = 0; g < paddedDim / group; ++g) {
        SmallVector<Value> words = kb.loadSharedWords(
            staging,
            kb.add(rowStart, kb.add(kb.i32(g * groupBytes),
                                    kb.mul(lane.t, kb.i32(laneBytes)))),
            laneBytes / 4);
        for (int64_t c = 0; c < groupChunks; ++c) {
          // NVFP4: key g of the tile's scales of this 64-channel slice,
          // used from lane t = 0 (L2-cached global loads).
          Value queryScaleWord, keyScales;
          if (config.microscaled) {
            int64_t slice = g * groupChunks + c;
            queryScaleWord = queryScaleWords[slice];
            Value key = kb.add(blockStart, keyRow);
            Value rowBytes = kb.i32(scaleRowBytes),
                  sliceByte = kb.i32(4 * slice);
            Value offset =
                linearOffset(kb, kvHead, paddedKeys, key, rowBytes, sliceByte);
            keyScales = kb.loadWords(kernel.arg(kKeyScale), offset, 1)[0];
          }
          acc = emitWarpMma(
              kb, queryKeyMma, queryFragments[g * groupChunks + c],
              {words[2 * c], words[2 * c + 1]}, acc, queryScaleWord, keyScales);
        }
      }
      return acc;
    };
    SmallVector<std::array<Value, 4>> scores;
    for (int64_t nt = 0; nt < keyTiles; ++nt) {
      MmaAcc acc = layout.coreMatrices ? groupScores[nt] : warpScoreTile(nt);
      std::array<Value, 4> tile;
      for (int64_t e = 0; e < 4; ++e) {
        Value column = kb.add(kb.i32(nt * 8 + e % 2), quad2);
        tile[e] = config.microscaled ? acc[e] : kb.sitofp(acc[e]);
        // per_token: (delta_Q of the row * delta_K of the key) * scale
        // log2 e, associated as the CPU model does.
        if (config.perTokenScales())
          tile[e] =
              kb.mulf(tile[e], kb.mulf(kb.mulf(queryScales[rowOf(e)],
                                               view.keyScales[2 * nt + e % 2]),
                                       factor));
        else if (!foldFactor)
          tile[e] = kb.mulf(tile[e], factor);
        if (config.smoothQ)
          tile[e] = kb.addf(
              tile[e], kb.mulf(kb.loadShared(correction,
                                             kb.add(correctionStart, column)),
                               scaleLog2));
      }
      if (config.maskType)
        addMask(kb, kernel, config, maskRows,
                kb.add(blockStart, kb.add(kb.i32(nt * 8), quad2)), tile);
      scores.push_back(tile);
    }

    // Padded keys, and with causal the keys right of the diagonal, are
    // -inf (sage.mask_scores on the warp's rows and this block's keys);
    // then the online softmax in base 2 (sage.online_softmax; a row with
    // no visible key gets P~ = 0 and alpha = 1). m is the row's, l the
    // lane's part of it.
    SmallVector<Value> scoreValues;
    for (const auto &tile : scores)
      scoreValues.append(tile.begin(), tile.end());
    Value scoreFragment = kb.f32Vector(scoreValues);
    auto maskScores = [&] {
      return MaskScoresOp::create(
                 kb.b, kb.loc, scoreFragment.getType(), scoreFragment, firstRow,
                 blockStart, queries, keys,
                 config.causal ? kb.b.getUnitAttr() : nullptr,
                 config.causalTopLeft
                     ? CausalAlignmentAttr::get(kb.b.getContext(),
                                                CausalAlignment::TopLeft)
                     : nullptr,
                 queryKeyMma)
          .getResult();
    };
    if (layout.coreMatrices) {
      // wgmma: only a block that holds padded keys, or (causal) keys right
      // of the diagonal of the warp's first row, which sees the fewest, has
      // anything to mask; the others skip it (a warp-uniform branch): on
      // the H200 1.02-1.04x without a mask, 1.04-1.14x causal. mma.sync,
      // bound by its emulated FP8 MMA there, gains nothing and masks every
      // block (benchmarks/results/2026-12-03-h200-wgmma-order.md).
      Value lastKey = kb.add(blockStart, kb.i32(config.blockK - 1));
      Value masked = kb.cmp(arith::CmpIPredicate::sge, lastKey, keys);
      if (config.causal) {
        Value limit = kb.add(firstRow, causalDiagonal());
        masked = arith::OrIOp::create(
            kb.b, kb.loc, masked,
            kb.cmp(arith::CmpIPredicate::sgt, lastKey, limit));
      }
      auto maskIf = scf::IfOp::create(kb.b, kb.loc, scoreFragment.getType(),
                                      masked, /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard guard(kb.b);
        kb.b.setInsertionPointToStart(&maskIf.getThenRegion().front());
        scf::YieldOp::create(kb.b, kb.loc, maskScores());
        kb.b.setInsertionPointToStart(&maskIf.getElseRegion().front());
        scf::YieldOp::create(kb.b, kb.loc, scoreFragment);
      }
      scoreFragment = maskIf.getResult(0);
    } else {
      scoreFragment = maskScores();
    }
    Value maxFragment = kb.f32Vector({state.max[0], state.max[1]});
    Type rowType = maxFragment.getType();
    // P~ comes out already scaled by P_r, the range P is quantized to
    // (NVFP4 scales it in two levels below).
    double probRange =
        config.microscaled ? 1.0 : config.probQuant.getRangeValue();
    auto softmax = OnlineSoftmaxOp::create(
        kb.b, kb.loc, scoreFragment.getType(), rowType, rowType, rowType,
        scoreFragment, maxFragment, kb.f32Vector({state.sum[0], state.sum[1]}),
        foldFactor ? kb.f32Vector({factor}) : Value(), queryKeyMma,
        /*base2=*/true, kb.b.getF64FloatAttr(probRange));
    Value alpha = softmax.getRescale();
    SmallVector<Value> newMax = kb.elements(softmax.getNewMax());
    SmallVector<Value> newSum = kb.elements(softmax.getNewSum());
    state.max = {newMax[0], newMax[1]};
    state.sum = {newSum[0], newSum[1]};

    // P_hat = P~ * P_r in E4M3 (f16: P_r = 1) on the accumulator fragment
    // (sage.quantize with bound P_r: P~ <= 1, up to the fma's rounding,
    // which the conversion's satfinite absorbs), then the A operand of
    // chunk c of k keys by a shuffle within the lane: register r holds row
    // g (r even) or g + 8 of MMA positions (k / 2) (r / 2) + e t + i, i.e.
    // the keys the V layout puts there, which this lane holds in its
    // accumulator tiles (getOperandLayouts checks it).
    if (config.microscaled)
      return std::make_pair(alpha, microscaleProbs(softmax.getProbs()));
    auto probQuant = QuantizeOp::create(
        kb.b, kb.loc,
        VectorType::get({keyTiles * 4}, config.probQuant.getElementType()),
        VectorType::get({1}, kb.f32Type()), /*row_scales=*/Type(),
        softmax.getProbs(), config.probQuant, kb.b.getF64FloatAttr(probRange),
        /*layout=*/nullptr, queryKeyMma, /*row_range=*/nullptr);
    return std::make_pair(alpha, probQuant.getValues());
  };
  // Register r of a chunk of k keys holds `perRegister` elements (four
  // E4M3, two f16): MMA positions (k / 2) (r / 2) + perRegister t + i.
  int64_t valueK = vLayout.getMmaK(), perRegister = valueK / 8;
  auto getProbOperands = [&](Value quantizedProbs) {
    SmallVector<Value> probFragments;
    for (int64_t c = 0; c < keyChunks; ++c) {
      SmallVector<int64_t> positions;
      for (int64_t r = 0; r < 4; ++r)
        for (int64_t i = 0; i < perRegister; ++i) {
          // Lane t = 0's key; lane t's is 2t further, in the same tile.
          int64_t key =
              vLayout.getIndexAt(valueK * c + valueK / 2 * (r / 2) + i);
          positions.push_back(4 * (key / 8) + 2 * (r % 2) + key % 8);
        }
      probFragments.push_back(vector::ShuffleOp::create(
          kb.b, kb.loc, quantizedProbs, quantizedProbs, positions));
    }
    return probFragments;
  };

  // R_ij = P_hat V_hat_j in a fresh accumulator, then O = alpha O + R
  // (sage.accumulate, two-level: the FP8 MMA keeps about 22 bits, the
  // buffer 24). wgmma: block j's V^T tile from the stage at `stage`.
  auto getValueDescriptors = [&](Value stage) {
    SmallVector<Value> descriptors;
    int64_t leading = valueTile.getLeadingBytes();
    for (int64_t c = 0; c < keyChunks; ++c)
      descriptors.push_back(getMatrixDescriptor(
          kb, probValueGroupMma, staging,
          kb.add(stage, kb.i32(layout.valueStart + 2 * c * leading)), leading,
          KVStaging::kStrideBytes));
    return descriptors;
  };
  auto issueValues = [&](ArrayRef<Value> descriptors,
                         ArrayRef<Value> probFragments, bool fenced = false) {
    return issueWarpgroupMmas(kb, probValueGroupMma, probFragments, descriptors,
                              fenced);
  };
  auto accumulateTile = [&](SoftmaxState &state, Value rescale, int64_t dt,
                            const MmaAcc &partial) {
    Value buffer = kb.f32Vector(state.out[dt]);
    Value out = AccumulateOp::create(
        kb.b, kb.loc, buffer.getType(),
        vector::FromElementsOp::create(
            kb.b, kb.loc, VectorType::get({4}, config.pvAccum.getAccType()),
            partial),
        buffer, rescale, config.pvAccum, probValueMma);
    SmallVector<Value> outValues = kb.elements(out);
    state.out[dt] = {outValues[0], outValues[1], outValues[2], outValues[3]};
  };
  // mma.sync: channel tile dt, each V^T row read a layout group of keys at
  // a time, its MMAs flushed into O every `every` of them (f16) or once
  // (f32); the block's first flush rescales O by alpha, the others add.
  int64_t valueGroup = vLayout.getGroupSize(),
          valueLaneBytes = vLayout.getLaneBytes();
  int64_t flushEvery = config.pvAccum.getAccType().isF16()
                           ? int64_t(config.pvAccum.getEvery())
                           : keyChunks;
  auto warpValueTile = [&](SoftmaxState &state, Value alpha, Value keyOffset,
                           Value blockStart, ArrayRef<Value> probFragments,
                           int64_t dt) {
    Value zero = arith::ConstantOp::create(
        kb.b, kb.loc, kb.b.getZeroAttr(config.pvAccum.getAccType()));
    MmaAcc partial = {zero, zero, zero, zero};
    Value rescale = alpha;
    Value channel = kb.add(kb.i32(dt * 8), lane.g);
    Value rowOffset =
        kb.add(keyOffset, kb.mul(channel, kb.i32(layout.valueRow)));
    SmallVector<Value> words;
    int64_t groupBytes = config.getValueRowBytes(valueGroup);
    for (int64_t g = 0; g < config.blockK / valueGroup; ++g)
      llvm::append_range(
          words,
          kb.loadSharedWords(staging, kb.add(rowOffset, kb.i32(g * groupBytes)),
                             valueLaneBytes / 4));
    // NVFP4: channel g's V scales of the block's 64-key chunk c, used
    // from lane t = 0 (an L2-cached global load).
    Value valueScaleRow;
    if (config.microscaled) {
      Value channels = kb.i32(valueDim);
      Value rowBytes = kb.divu(paddedKeys, kb.i32(16));
      Value blockByte = kb.divu(blockStart, kb.i32(16));
      valueScaleRow =
          linearOffset(kb, kvHead, channels, channel, rowBytes, blockByte);
    }
    for (int64_t c = 0; c < keyChunks; ++c) {
      Value probScales, valueScales;
      if (config.microscaled) {
        probScales = probScaleWords[c];
        valueScales = kb.loadWords(kernel.arg(kValueScale),
                                   kb.add(valueScaleRow, kb.i64(4 * c)), 1)[0];
      }
      partial = emitWarpMma(kb, probValueMma, probFragments[c],
                            {words[2 * c], words[2 * c + 1]}, partial,
                            probScales, valueScales);
      if ((c + 1) % flushEvery != 0)
        continue;
      // NVFP4: R * s_row of the lane's rows, then O = alpha O + R.
      if (config.microscaled)
        for (int64_t e = 0; e < 4; ++e)
          partial[e] = kb.mulf(partial[e], probRowScales[rowOf(e)]);
      accumulateTile(state, rescale, dt, partial);
      partial = {zero, zero, zero, zero};
      rescale = kb.f32Vector({kb.f32(1), kb.f32(1)});
    }
  };
  auto accumulateOut = [&](SoftmaxState &state, Value alpha,
                           ArrayRef<MmaAcc> partials) {
    for (auto [dt, partial] : llvm::enumerate(partials))
      accumulateTile(state, alpha, dt, partial);
  };
  // The next prefetch into block j's stage overwrites it; with stages
  // released on mbarriers, its copier (the producer, or thread 0) waits for
  // every consumer's release of it.
  auto releaseStage = [&](Value keyBlock) {
    if (layout.releases)
      StageRingReleaseOp::create(kb.b, kb.loc, kvRing, keyBlock);
    else
      kb.barrier();
  };

  // Taking turns, the last iteration's turn goes to no one from the last
  // warpgroup (which handed out the first before the loop).
  Value lastIteration;
  auto passTurnUnlessLast = [&](Value keyBlock) {
    Value notLastBlock =
        kb.cmp(arith::CmpIPredicate::ne, keyBlock, lastIteration);
    Value notLastGroup = kb.cmp(arith::CmpIPredicate::ne, warpgroup,
                                kb.i32(config.warpgroups() - 1));
    kb.ifThen(arith::OrIOp::create(kb.b, kb.loc, notLastBlock, notLastGroup),
              passTurn);
  };

  // One K/V block an iteration: its scores, softmax, P V and O. Taking
  // turns, the warpgroups issue their P V in turn.
  // With cp.async staging the loop also carries the group that copies the
  // iteration's block, issued by the iteration before.
  auto step = [&](Value keyBlock, ValueRange carried) -> SmallVector<Value> {
    Value copies = firstCopies ? carried.back() : Value();
    SoftmaxState state =
        SoftmaxState::unflatten(firstCopies ? carried.drop_back() : carried);
    // Prefetch the next block while this one is used.
    Value nextCopies = issueBlock(kb.add(keyBlock, kb.i32(1)));
    BlockView view = enterBlock(keyBlock, copies);
    SmallVector<MmaAcc> groupScores;
    if (layout.coreMatrices)
      groupScores = waitWarpgroupMmas(kb, /*pending=*/0,
                                      issueScores(getScoreOperands(view)));
    auto [alpha, quantizedProbs] = softmaxBlock(view, groupScores, state);
    SmallVector<Value> probFragments = getProbOperands(quantizedProbs);
    if (layout.coreMatrices) {
      if (config.warpgroupTurns)
        awaitTurn();
      WarpgroupChain products =
          issueValues(getValueDescriptors(view.stage), probFragments);
      if (config.warpgroupTurns)
        passTurnUnlessLast(keyBlock);
      accumulateOut(state, alpha,
                    waitWarpgroupMmas(kb, /*pending=*/0, products));
    } else {
      Value keyOffset = kb.add(kb.add(view.stage, kb.i32(layout.valueStart)),
                               kb.mul(lane.t, kb.i32(valueLaneBytes)));
      for (int64_t dt = 0; dt < valueDim / 8; ++dt)
        warpValueTile(state, alpha, keyOffset, view.blockStart, probFragments,
                      dt);
    }
    releaseStage(keyBlock);
    SmallVector<Value> results = state.flatten();
    if (nextCopies)
      results.push_back(nextCopies);
    return results;
  };

  // wgmma with the softmax overlapped (docs/Levels.md, L4): `step`'s
  // arithmetic in the same order, software-pipelined by one block. An
  // iteration issues block j's Q K^T and then block j - 1's P V, waits for
  // the first only, runs block j's softmax while the tensor cores work on
  // the second, then waits for it and adds it to O. The loop carries
  // block j - 1's alpha and P_hat, whose registers the P V reads until that
  // wait; block 0's scores come before the loop, the last P V after it.
  // Without a producer, block j + 1 is copied into the stage of block j - 2
  // (three stages) before the iteration, else of block j - 1 once its P V
  // is done.
  auto overlappedLoop = [&]() -> SmallVector<Value> {
    SoftmaxState state = init;
    issueBlock(kb.i32(1));
    BlockView first = enterBlock(kb.i32(0));
    auto [firstAlpha, firstProbs] =
        softmaxBlock(first,
                     waitWarpgroupMmas(kb, /*pending=*/0,
                                       issueScores(getScoreOperands(first))),
                     state);
    // Block 1's dS overwrites block 0's single buffer: every warp's
    // softmax has read it first (in the loop, the barrier that ends the
    // iteration before sees to it; with stages released on mbarriers dS is
    // double-buffered).
    if (config.smoothQ && !layout.releases)
      computeBarrier();
    // Taking turns, an iteration's two wgmma groups are issued in the
    // warpgroup's turn. The last warpgroup hands warpgroup 0 its first
    // turn here and passes none after its last iteration's issue, so that
    // every turn passed is waited for.
    if (config.warpgroupTurns)
      kb.ifThen(arith::AndIOp::create(
                    kb.b, kb.loc, lastWarpgroup,
                    kb.cmp(arith::CmpIPredicate::sgt, blockEnd, kb.i32(1))),
                passTurn);
    SmallVector<Value> carried = state.flatten();
    size_t stateSize = carried.size();
    carried.append({firstAlpha, firstProbs});
    auto iteration = [&](Value keyBlock,
                         ValueRange values) -> SmallVector<Value> {
      SoftmaxState state =
          SoftmaxState::unflatten(values.take_front(stateSize));
      Value alpha = values[stateSize];
      // P_hat becomes A's registers here, after the last iteration's wait:
      // ptxas serializes the wgmmas (C7513) when they are written while a
      // wgmma that reads registers is in flight.
      SmallVector<Value> probs = getProbOperands(values[stateSize + 1]);
      Value previous = kb.sub(keyBlock, kb.i32(1));
      Value next = kb.add(keyBlock, kb.i32(1));
      if (layout.stages > 2)
        issueBlock(next);
      BlockView view = enterBlock(keyBlock);
      if (config.warpgroupTurns)
        awaitTurn();
      // Both groups' operands, then one fence, before the first wgmma:
      // ptxas serializes wgmmas (C7513) when an instruction between them
      // defines their registers, descriptors included.
      ScoreOperands scoreOperands = getScoreOperands(view);
      SmallVector<Value> valueDescriptors =
          getValueDescriptors(stageOffset(previous));
      probs = fenceWarpgroupOperands(kb, probs);
      WarpgroupChain scores = issueScores(scoreOperands, /*fenced=*/true);
      WarpgroupChain products =
          issueValues(valueDescriptors, probs, /*fenced=*/true);
      if (config.warpgroupTurns)
        passTurnUnlessLast(keyBlock);
      auto [nextAlpha, nextProbs] = softmaxBlock(
          view, waitWarpgroupMmas(kb, /*pending=*/1, scores), state);
      accumulateOut(state, alpha,
                    waitWarpgroupMmas(kb, /*pending=*/0, products));
      releaseStage(previous);
      if (layout.stages == 2)
        issueBlock(next);
      SmallVector<Value> results = state.flatten();
      results.append({nextAlpha, nextProbs});
      return results;
    };
    SmallVector<Value> last =
        kb.forLoop(kb.i32(1), blockEnd, kb.i32(1), carried, iteration);
    state = SoftmaxState::unflatten(ValueRange(last).take_front(stateSize));
    SmallVector<Value> lastProbs = getProbOperands(last[stateSize + 1]);
    Value lastStage = stageOffset(kb.sub(blockEnd, kb.i32(1)));
    accumulateOut(state, last[stateSize],
                  waitWarpgroupMmas(
                      kb, /*pending=*/0,
                      issueValues(getValueDescriptors(lastStage), lastProbs)));
    return state.flatten();
  };

  // Taking turns: the loop's last iteration passes no turn from the last
  // warpgroup, which hands out the first before the loop (the overlapped
  // loop's P V of its last block goes after it, in no turn).
  Value anyBlock = kb.cmp(arith::CmpIPredicate::sgt, blockEnd, kb.i32(0));
  if (config.warpgroupTurns) {
    lastIteration = kb.sub(blockEnd, kb.i32(1));
    if (!config.overlapSoftmax)
      kb.ifThen(arith::AndIOp::create(kb.b, kb.loc, lastWarpgroup, anyBlock),
                passTurn);
  }
  assert((!config.overlapSoftmax || !firstCopies) &&
         "the overlapped loop stages by bulk copies (getConfig)");
  SmallVector<Value> loopInit = init.flatten();
  size_t stateSize = loopInit.size();
  if (firstCopies)
    loopInit.push_back(firstCopies);
  SmallVector<Value> loopResults =
      config.overlapSoftmax
          ? kb.ifThenElse(anyBlock, overlappedLoop, init.flatten())
          : kb.forLoop(kb.i32(0), blockEnd, kb.i32(1), loopInit, step);
  // The loop's last group copies no block: nothing waits for it.
  SoftmaxState final =
      SoftmaxState::unflatten(ValueRange(loopResults).take_front(stateSize));

  // O = O * (1 / l) * (delta_V / P_r) (+ mean V), as the CPU model
  // rounds it; rows that see no key are 0.
  std::array<Value, 2> sum, empty, inverseSum;
  for (int64_t row = 0; row < 2; ++row) {
    sum[row] = sumOverQuad(kb, final.sum[row]);
    empty[row] = kb.cmpf(arith::CmpFPredicate::OEQ, sum[row], kb.f32(0));
    sum[row] = kb.select(empty[row], kb.f32(1), sum[row]);
  }
  if (config.lse)
    storeLogSumExp(kb, kernel, config, lane, final.max, sum, empty, rows,
                   queryHead, kvHead, queryMean);
  for (int64_t row = 0; row < 2; ++row)
    inverseSum[row] = kb.divf(kb.f32(1), sum[row]);
  // The lane's channels are 2t and 2t + 1 of each 8-channel tile, for both
  // of its rows: their factors are loaded once.
  int64_t channelTiles = valueDim / 8;
  SmallVector<std::array<Value, 2>> factors(channelTiles), means(channelTiles);
  for (int64_t dt = 0; dt < channelTiles; ++dt)
    for (int64_t pair = 0; pair < 2; ++pair) {
      Value channel = kb.add(kb.i32(dt * 8 + pair), quad2);
      Value channelOffset = getChannelOffset(kb, kvHead, valueDim, channel);
      // Unscaled f16 V: delta_V = 1 (and P_r = 1).
      factors[dt][pair] =
          !config.scaledValues
              ? kb.f32(1 / config.pRange)
              : kb.divf(loadValueDelta(kb, kernel.arg(kValueAbsMax),
                                       channelOffset, config.vRange),
                        kb.f32(config.pRange));
      if (config.smoothV)
        means[dt][pair] = loadChannelMean(kb, kernel.arg(kValueSum),
                                          channelOffset, kb.sitofp(keys));
    }
  // Each row's two adjacent channels of a tile leave by one store (4 bytes
  // of f16 / bf16, 8 of f32: D is even, so they are aligned).
  for (int64_t row = 0; row < 2; ++row)
    kb.ifThen(kb.cmp(arith::CmpIPredicate::slt, rows[row], queries), [&] {
      Value rowStart = config.io.offset(kb, queryHead, kernel.arg("H"), queries,
                                        rows[row], valueDim, quad2);
      for (int64_t dt = 0; dt < channelTiles; ++dt) {
        std::array<Value, 2> pairOut;
        for (int64_t pair = 0; pair < 2; ++pair) {
          Value out =
              kb.mulf(kb.mulf(final.out[dt][2 * row + pair], inverseSum[row]),
                      factors[dt][pair]);
          if (config.smoothV)
            out = kb.addf(out, means[dt][pair]);
          pairOut[pair] = kb.select(empty[row], kb.f32(0), out);
        }
        kb.storeVectorFromF32(config.outputType, pairOut, kernel.arg(kOutput),
                              kb.add(rowStart, kb.i64(dt * 8)));
      }
    });
  if (roles)
    kb.b.setInsertionPointAfter(roles);
  km.addLaunch("sage_attention", params,
               {getBlockCount("Nq", config.blockQ), SizeExpr::symbol("H"),
                SizeExpr::symbol("B")},
               config.kernelThreads(), dynamicStaging ? stagingBytes : 0);
}
