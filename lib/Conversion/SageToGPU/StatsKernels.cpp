//===- StatsKernels.cpp - token sums and channel maxima -------------------===//
//
// One CTA per (chunk of 256 tokens, head, batch), of the attention's CTA
// size or D threads where D is wider; thread c of each group of D threads
// walks the chunk's tokens for channel c, then folds its result
// into the [B, heads, D] buffer atomically. The means of K and V smoothing
// (docs/Algorithm.md section 1) are sum / N where they are used.
//
//===----------------------------------------------------------------------===//

#include "SageToGPUInternal.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::sage;

static constexpr int64_t kTokensPerCta = 256;

static std::string getSumKernelName(int64_t dim) {
  return "sage_sum_tokens_d" + std::to_string(dim);
}

/// Threads of a chunk kernel for `dim` channels: the attention's CTA, or
/// one thread a channel where D is wider (D > 128).
static int64_t getChunkThreads(int64_t ctaThreads, int64_t dim) {
  return std::max(ctaThreads, dim);
}

static std::array<SizeExpr, 3> getChunkGrid(StringRef tokens, StringRef heads) {
  return {getBlockCount(tokens, kTokensPerCta), SizeExpr::symbol(heads),
          SizeExpr::symbol("B")};
}

namespace {
/// Where a thread of a chunk kernel works.
struct ChunkThread {
  Value head;    // batch * heads + head
  Value channel; // the channel this thread reduces
  Value group;   // which of the threads / D token streams it walks
  Value tokens;  // N
  Value heads;
  IoLayout io;
  int64_t dim, threads, streams;

  ChunkThread(KernelBuilder &kb, const KernelFunc &kernel, IoLayout io,
              int64_t dim, int64_t threads, StringRef tokensArg,
              StringRef headsArg)
      : io(io), dim(dim), threads(threads), streams(threads / dim) {
    Value tid = kb.threadId();
    channel = kb.remu(tid, kb.i32(dim));
    group = kb.divu(tid, kb.i32(dim));
    tokens = kernel.arg(tokensArg);
    heads = kernel.arg(headsArg);
    head = kb.add(kb.mul(kb.blockId(gpu::Dimension::z), heads),
                  kb.blockId(gpu::Dimension::y));
  }

  /// Folds `combine` over this thread's tokens of the CTA's chunk; it gets
  /// the element offset of (token, channel).
  Value fold(KernelBuilder &kb, Value init,
             function_ref<Value(Value, Value)> combine) const {
    Value start = kb.mul(kb.blockId(gpu::Dimension::x), kb.i32(kTokensPerCta));
    Value end = kb.minsi(kb.add(start, kb.i32(kTokensPerCta)), tokens);
    // When D does not divide the CTA (D = 96: one stream, 32 threads
    // over), the threads past the last whole stream fold nothing: their
    // channels are another stream's.
    Value first = kb.add(start, group);
    if (streams * dim != threads)
      first =
          kb.select(kb.cmp(arith::CmpIPredicate::ult, group, kb.i32(streams)),
                    first, end);
    return kb.forLoop(first, end, kb.i32(streams), ValueRange{init},
                      [&](Value token, ValueRange acc) -> SmallVector<Value> {
                        Value offset = io.offset(kb, head, heads, tokens, token,
                                                 dim, channel);
                        return {combine(acc[0], offset)};
                      })[0];
  }

  /// Offset of this thread's channel in a [B, heads, D] buffer.
  Value channelOffset(KernelBuilder &kb) const {
    return getChannelOffset(kb, head, dim, channel);
  }
};
} // namespace

void mlir::sage::buildSumTokensKernel(KernelModule &km,
                                      const AttentionConfig &config) {
  SmallVector<int64_t, 2> dims = {config.headDim};
  if (config.valueDim != config.headDim)
    dims.push_back(config.valueDim);
  for (int64_t dim : dims) {
    int64_t threads = getChunkThreads(config.threads(), dim);
    KernelFunc kernel = km.addKernel(
        getSumKernelName(dim),
        {{"src", true}, {"sum", true}, {"tokens", false}, {"heads", false}},
        threads);
    KernelBuilder kb(km.builder, km.loc);
    ChunkThread thread(kb, kernel, config.io, dim, threads, "tokens", "heads");
    Value sum = thread.fold(kb, kb.f32(0), [&](Value acc, Value offset) {
      return kb.addf(acc,
                     kb.loadAsF32(config.inputType, kernel.arg("src"), offset));
    });
    kb.atomicAddF32(kernel.arg("sum"), thread.channelOffset(kb), sum);
  }
}

void mlir::sage::launchSumTokens(KernelModule &km, StringRef source,
                                 StringRef sum, StringRef tokens,
                                 StringRef heads) {
  int64_t dim = source == buffers::kKey ? km.plan.headDim : km.plan.valueDim;
  km.addLaunch(getSumKernelName(dim),
               {{source.str(), true},
                {sum.str(), true},
                {tokens.str(), false},
                {heads.str(), false}},
               getChunkGrid(tokens, heads),
               getChunkThreads(km.plan.warps * 32, dim));
}

void mlir::sage::buildValueAbsMaxKernel(KernelModule &km,
                                        const AttentionConfig &config) {
  SmallVector<KernelParam> params = {{buffers::kValue, true}};
  if (config.smoothV)
    params.push_back({buffers::kValueSum, true});
  params.append({{buffers::kValueAbsMax, true}, {"Nk", false}, {"Hkv", false}});
  int64_t threads = getChunkThreads(config.threads(), config.valueDim);
  KernelFunc kernel = km.addKernel("sage_value_absmax", params, threads);
  KernelBuilder kb(km.builder, km.loc);
  ChunkThread thread(kb, kernel, config.io, config.valueDim, threads, "Nk",
                     "Hkv");

  // max |V - mean(V)| per channel; delta_V = that / V_r (section 3).
  Value mean;
  if (config.smoothV)
    mean = loadChannelMean(kb, kernel.arg(buffers::kValueSum),
                           thread.channelOffset(kb), kb.sitofp(thread.tokens));
  Value absMax = thread.fold(kb, kb.f32(0), [&](Value acc, Value offset) {
    Value value =
        kb.loadAsF32(config.inputType, kernel.arg(buffers::kValue), offset);
    if (mean)
      value = kb.subf(value, mean);
    return kb.maximumf(acc, kb.absf(value));
  });
  kb.atomicMaxNonNegativeF32(kernel.arg(buffers::kValueAbsMax),
                             thread.channelOffset(kb), absMax);
  km.addLaunch("sage_value_absmax", params, getChunkGrid("Nk", "Hkv"), threads);
}
