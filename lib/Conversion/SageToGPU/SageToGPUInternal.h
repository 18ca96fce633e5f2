//===- SageToGPUInternal.h - shared by the kernel families ------*- C++ -*-===//
//
// The SageToGPU conversion turns one sage.quantized_attention (and the
// smoothing / quantization ops that feed it) into a gpu.module of kernels
// and a launch plan. Each kernel family lives in its own file:
//   StatsKernels.cpp     token sums (K, V means) and V channel maxima
//   QuantizeKernels.cpp  Q, K (INT8 per-thread) and V (E4M3 per-channel)
//   AttentionKernel.cpp  the online-softmax loop with its two MMAs
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_LIB_CONVERSION_SAGETOGPU_SAGETOGPUINTERNAL_H
#define SAGE_LIB_CONVERSION_SAGETOGPU_SAGETOGPUINTERNAL_H

#include "KernelBuilder.h"
#include "LaunchPlan.h"

#include "sage/Dialect/Sage/IR/SageOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/StringMap.h"

#include <optional>

namespace mlir::sage {
class ScheduleTable;

/// How the attention's inputs and output lie in memory. Workspaces are
/// always [batch, heads, tokens, features]; Q, K, V and O follow the plan's
/// layout, which may put tokens before heads ([batch, tokens, heads,
/// features], as StableHLO / JAX programs do).
struct IoLayout {
  bool tokensBeforeHeads = false;

  /// i64 element offset of (token, channel) of `head` (= batch * heads +
  /// head index) in a dense [batch, heads | tokens, tokens | heads, dim]
  /// tensor.
  Value offset(KernelBuilder &kb, Value head, Value heads, Value tokens,
               Value token, int64_t dim, Value channel) const;
};

/// Where the quantized operands live: Q and K along their features (one
/// layout, as both feed the Q K^T MMA's contraction), V along its tokens in
/// the order that lets P's accumulator feed the P V MMA. The kernels that
/// quantize and the attention kernel both read them (docs/Layouts.md).
struct OperandLayouts {
  OperandLayoutAttrInterface queryKey, value;
};

/// The layouts of the Q, K and V values that `op` reads (from their
/// sage.quantize, or by default the widest #sage.mma_packed for the warp
/// scope, #sage.mma_ordered for the warpgroup scope), or an error naming
/// one the kernels of `scope` cannot read.
FailureOr<OperandLayouts> getOperandLayouts(QuantizedAttentionOp op,
                                            QuantizeOp query, QuantizeOp key,
                                            QuantizeOp value, int64_t headDim,
                                            int64_t blockK, MmaScope scope,
                                            OperandTiling tiling);

/// A block of a quantized 8-bit operand, `rows` x `columns` bytes: what
/// one K/V stage holds of K (block-k tokens by the padded channels) and of
/// V^T (the channels by block-k keys), and a Q block.
struct OperandTile {
  int64_t rows, columns;
  /// Bytes between the core matrices of two adjacent 16-byte columns: the
  /// leading byte offset of a wgmma descriptor.
  int64_t getLeadingBytes() const { return rows * 16; }
  int64_t getBytes() const { return rows * columns; }
};

/// The pass options that shape the kernels: the MMAs' scope, how operands
/// without a layout are placed (so how K/V blocks are staged), the K/V
/// stages and whether a producer warpgroup streams them.
struct KernelChoices {
  MmaScope scope;
  OperandTiling tiling;
  /// Unset (auto): a producer warpgroup for the bulk-staged wgmma kernel of
  /// two consumer warpgroups and 64-key blocks (block-q = 128, block-k = 64,
  /// the tiles measured) at a padded D >= 128, which the H200 runs about
  /// 1.09x faster (at D = 64 the two are even;
  /// benchmarks/results/2026-12-03-h200-ws-default.md), and for more K/V
  /// stages than the kernel fills without one (getConfig); a measured
  /// schedule for the tiles decides instead.
  std::optional<bool> warpSpecialized;
  /// 0 (auto): the measured schedule's where its producer and overlap
  /// choices are the kernel's, else 3 with overlap-softmax or
  /// warpgroup-turns, else 2.
  int64_t kvStages;
  /// Whether the wgmma kernel overlaps block j's softmax with block j - 1's
  /// P V; unset (auto): as the measured schedule says, else not.
  std::optional<bool> overlapSoftmax;
  /// Whether the wgmma kernel's consumer warpgroups take turns issuing
  /// their wgmmas; unset (auto): as the measured schedule says, else not.
  std::optional<bool> warpgroupTurns;
  /// The CTAs an SM must hold (nvvm.minctasm); 0 (auto): the measured
  /// schedule's for the kernel it was measured on, else getConfig's rule.
  int64_t ctasPerSm;
  /// Measured schedules (producer, stages and overlap, for the tiles they
  /// name) on `chip`: consulted for the choices left auto.
  std::string chip;
  const ScheduleTable *schedules = nullptr;
};

/// Everything the kernels of one attention are specialized on.
struct AttentionConfig {
  int64_t headDim = 0;       // D of Q and K
  int64_t paddedHeadDim = 0; // D as Q_hat and K_hat are stored (whole
                             // layout groups, zeros past D)
  int64_t valueDim = 0;      // D of V and O
  Type queryKeyType; // i8, or i4 or f4E2M1FN (two a byte, low nibble first)
  // V_hat's format: E4M3 scaled per channel, or (int8-fp16) f16, with P in
  // the same format; f16 V is unscaled, or scaled per channel for an f16
  // accumulator (int8-fp16-f16acc).
  Type valueType;
  bool scaledValues = true; // delta_V per channel (a v_amax workspace)
  // NVFP4 (docs/Algorithm.md section 5): Q, K, P and V in E2M1 with one
  // E4M3 scale per 16 elements along each contraction, applied by the
  // block-scaled m16n8k64 mma.sync; P quantized in two levels.
  bool microscaled = false;
  // Q and K scale groups (docs/Algorithm.md section 2): per_thread (the
  // MMA fragments' rows and column pairs), per_warp (Q: a warp's rows; K:
  // its block), per_block (one a tile) or per_token (one a row or key).
  Granularity scaleGranularity = Granularity::PerThread;
  Type inputType; // f16, bf16 or f32
  Type outputType;
  IoLayout io;
  bool smoothQ = false, smoothK = false, smoothV = false;
  bool causal = false;
  bool causalTopLeft = false; // the diagonal from (0, 0), not (Nq, Nk)
  bool lse = false;           // the attention kernel also writes log sum exp
  // The mask, [B | 1, H | 1, Nq, Nk] in memory: i1 (one byte, nonzero
  // keeps) or additive f16 / bf16 / f32; none when null.
  Type maskType;
  bool maskPerBatch = false, maskPerHead = false;
  OperandLayouts layouts;
  double scale = 0;
  double pRange = 448, vRange = 448, qkRange = 127;
  QuantAttr probQuant; // P's format and range (pRange)
  // How P V is summed: f32, or f16 flushed every N MMAs (mma.sync only).
  AccumAttr pvAccum;
  // Who issues the MMAs: each warp (mma.sync) or each warpgroup of four
  // warps (wgmma, K and V^T read from shared memory).
  MmaScope scope = MmaScope::Warp;
  // Tiles: a CTA of `warps` warps owns blockQ = 16 * warps query rows; a
  // K/V block has blockK tokens.
  int64_t blockQ = 64, warpQ = 16, blockK = 64, warps = 4;
  // K/V blocks in flight in shared memory; with warpSpecialized, one more
  // warpgroup (the producer) issues their bulk copies while the `warps`
  // (the consumers) compute.
  int64_t kvStages = 2;
  bool warpSpecialized = false;
  // wgmma: block j's softmax runs while block j - 1's P V does (the loop
  // software-pipelined by one block).
  bool overlapSoftmax = false;
  // wgmma, two or more consumer warpgroups: they take turns issuing their
  // P V wgmmas (FlashAttention-3's ping-pong), in a ring of named barriers,
  // while the others run their softmax.
  bool warpgroupTurns = false;
  // The CTAs an SM must hold: the kernel's nvvm.minctasm above 1, so that
  // ptxas fits a thread's registers to them; a warp-specialized kernel's
  // register budgets follow it. 0: the lowering's rule (none, or the
  // roles' for a warp-specialized kernel).
  int64_t ctasPerSm = 0;
  /// The threads that compute: all of the CTA's but the producer's.
  int64_t threads() const { return warps * 32; }
  /// The consumer warpgroups (wgmma).
  int64_t warpgroups() const { return warps / 4; }
  /// Whether the consumers release each K/V stage on its own mbarrier
  /// (whoever copies the next block into it waits there) instead of
  /// ending each iteration with a barrier of all of them: with a producer,
  /// which is not at such barriers, or with warpgroup turns, which such a
  /// barrier would undo.
  bool releasesStages() const { return warpSpecialized || warpgroupTurns; }
  int64_t kernelThreads() const {
    return threads() + (warpSpecialized ? 128 : 0);
  }
  bool perThreadScales() const {
    return scaleGranularity == Granularity::PerThread;
  }
  bool perBlockScales() const {
    return scaleGranularity == Granularity::PerBlock;
  }
  bool perTokenScales() const {
    return scaleGranularity == Granularity::PerToken;
  }
  /// delta_Q values a Q block: per_thread, 8 row classes a warp; per_warp,
  /// one a warp; per_token, one a row.
  int64_t getQueryScalesPerBlock() const {
    if (perTokenScales())
      return blockQ;
    return perBlockScales() ? 1 : blockQ / warpQ * (perThreadScales() ? 8 : 1);
  }
  /// delta_K values a K/V block: per_thread, 4 column pairs; per_token, one
  /// a key; else one.
  int64_t getKeyScalesPerBlock() const {
    return perTokenScales() ? blockK : perThreadScales() ? 4 : 1;
  }
  /// Bytes of a Q_hat or K_hat row: paddedHeadDim values of 8 or 4 bits.
  int64_t getQueryKeyRowBytes() const {
    return paddedHeadDim * queryKeyType.getIntOrFloatBitWidth() / 8;
  }
  OperandTile getQueryTile() const { return {blockQ, getQueryKeyRowBytes()}; }
  OperandTile getKeyTile() const { return {blockK, getQueryKeyRowBytes()}; }
  /// Whether P and V are f16 (the int8-fp16 recipes): P_r = 1.
  bool hasF16Values() const { return valueType.isF16(); }
  /// Bytes of `keys` elements of a V_hat^T row (4-bit ones two a byte).
  int64_t getValueRowBytes(int64_t keys) const {
    return keys * valueType.getIntOrFloatBitWidth() / 8;
  }
  OperandTile getValueTile() const {
    return {valueDim, getValueRowBytes(blockK)};
  }
  /// NVFP4: bytes of a Q_hat or K_hat row's E4M3 scales, one a 16 channels.
  int64_t getQueryKeyScaleRowBytes() const { return paddedHeadDim / 16; }
};

/// A kernel parameter: a buffer of the plan (a global pointer) or a size
/// symbol of the plan (an i32).
struct KernelParam {
  std::string name;
  bool isBuffer;
};

/// A kernel under construction: its gpu.func, its arguments by name and its
/// shared arrays.
struct KernelFunc {
  gpu::GPUFuncOp func;
  llvm::StringMap<Value> args;
  SmallVector<Value> shared;
  Value arg(StringRef name) const { return args.lookup(name); }
};

/// Creates kernels in a gpu.module and records their launches in a plan.
class KernelModule {
public:
  KernelModule(OpBuilder &builder, Location loc, gpu::GPUModuleOp module,
               LaunchPlan &plan)
      : builder(builder), loc(loc), module(module), plan(plan) {}

  /// Creates kernel `name` with `params` and shared f32 arrays of the
  /// lengths `sharedF32`, for blocks of `threads`. The builder is left at
  /// the start of the body.
  KernelFunc addKernel(StringRef name, ArrayRef<KernelParam> params,
                       int64_t threads, ArrayRef<int64_t> sharedF32 = {});
  /// Declares `bytes` bytes of static shared memory (16-byte aligned, at
  /// most the 48 KiB a kernel may declare) named `symbol` for `kernel`, and
  /// returns their address at `kb`'s insertion point.
  Value addSharedBytes(KernelBuilder &kb, const KernelFunc &kernel,
                       StringRef symbol, int64_t bytes);
  /// Records a launch of kernel `name` with `params` (plan buffer names and
  /// size expressions, in the kernel's parameter order).
  void addLaunch(StringRef name, ArrayRef<KernelParam> params,
                 std::array<SizeExpr, 3> grid, int64_t threads,
                 int64_t sharedBytes = 0);

  OpBuilder &builder;
  Location loc;
  gpu::GPUModuleOp module;
  LaunchPlan &plan;
};

/// Builds @NAME_workspace_size and @NAME_launch, the attention's host side
/// (docs/Launchers.md), at `builder`'s insertion point in `module`.
void buildHostLaunchers(OpBuilder &builder, Location loc, ModuleOp module,
                        const LaunchPlan &plan);

/// Buffer names shared by the kernels and the plan.
namespace buffers {
inline constexpr const char *kQuery = "q", *kKey = "k", *kValue = "v",
                            *kOutput = "o", *kKeySum = "k_sum",
                            *kValueSum = "v_sum", *kValueAbsMax = "v_amax",
                            *kQueryInt = "q_q", *kQueryScale = "q_scale",
                            *kQueryMean = "q_mean", *kKeyInt = "k_q",
                            *kKeyScale = "k_scale", *kValueQuantized = "v_q",
                            *kValueScale = "v_scale", *kLse = "lse",
                            *kMask = "mask";
} // namespace buffers

/// sum over tokens of src[b, h, :, d] into sum[b, h, d] (atomics).
void buildSumTokensKernel(KernelModule &km, const AttentionConfig &config);
void launchSumTokens(KernelModule &km, StringRef source, StringRef sum,
                     StringRef tokens, StringRef heads);
/// max over tokens of |v - mean(v)| into v_amax[b, h, d] (atomics).
void buildValueAbsMaxKernel(KernelModule &km, const AttentionConfig &config);
void buildQuantizeKeyKernel(KernelModule &km, const AttentionConfig &config);
void buildQuantizeQueryKernel(KernelModule &km, const AttentionConfig &config);
void buildQuantizeValueKernel(KernelModule &km, const AttentionConfig &config);
void buildAttentionKernel(KernelModule &km, const AttentionConfig &config);
/// The shared memory the attention kernel declares: its K/V stages with
/// their mbarriers, qbar and dS.
int64_t getAttentionSharedBytes(const AttentionConfig &config);

/// Where element `index` of an operand's contraction axis is stored
/// (elements from the start of the axis): its MMA position in `layout`,
/// stored where the layout puts that position.
int64_t getStoredIndex(OperandLayoutAttrInterface layout, int64_t index);

/// The per-channel statistics ([B, heads, D] f32 workspaces: token sums and
/// V channel maxima) are read through these by the kernels that quantize and
/// the attention epilogue that dequantizes, so the two cannot drift apart.
/// i64 element offset of (head, channel).
Value getChannelOffset(KernelBuilder &kb, Value head, int64_t dim,
                       Value channel);
/// The channel's mean: its token sum / `tokenCount` (f32).
Value loadChannelMean(KernelBuilder &kb, Value sums, Value offset,
                      Value tokenCount);
/// delta_V of the channel: max |V - mean| / V_r.
Value loadValueDelta(KernelBuilder &kb, Value absMax, Value offset,
                     double vRange);

/// i64 element offset of ((outer * inner0 + i0) * inner1 + i1) from i32s.
Value linearOffset(KernelBuilder &kb, Value outer, Value inner0, Value i0,
                   Value inner1, Value i1);

/// Where row `row` of head `head` of an 8-bit operand stored as [heads,
/// rows, columns] keeps its bytes: row after row, or (`tiling` =
/// core_matrices) tile after tile, each in the stage's core-matrix order
/// (docs/Layouts.md). The quantizers store through it and the attention
/// kernel loads and stages through it; the row's part of the arithmetic is
/// done once, at construction.
class OperandRow {
public:
  OperandRow(KernelBuilder &kb, OperandTiling tiling, Value head, Value rows,
             Value row, Value columns, OperandTile tile);
  /// i64 byte offset of the row's stored column `storedColumn` (i32).
  Value getOffset(Value storedColumn) const;

private:
  KernelBuilder &kb;
  OperandTiling tiling;
  OperandTile tile;
  // Rows: the row's start. Core matrices: the start of the row's block of
  // tiles (i64) and the row's offset in a tile (i32).
  Value start, inTile;
};

} // namespace mlir::sage

#endif // SAGE_LIB_CONVERSION_SAGETOGPU_SAGETOGPUINTERNAL_H
