//===- QuantizeKernels.cpp - Q, K and V into the MMA formats --------------===//
//
// One CTA per (block, head, batch). Q and K blocks: a few consecutive
// threads a token (about 32 channels each, so that the values stay in
// registers without limiting the CTAs an SM); they find the token's max |x|
// with shuffles, the CTA reduces the token maxima over each scale group
// (per thread, warp or block) in shared memory (docs/Algorithm.md section
// 2), and each thread writes its INT8 or INT4 values. V: one thread a channel;
// the block's E4M3 values go through shared memory so that V is read token by
// token and V_hat^T written channel by channel, [D, Nk] in the key order of the
// V layout, which the P V MMA reads. docs/Quantizers.md says why, and what each
// costs.
//
//===----------------------------------------------------------------------===//

#include "SageToGPUInternal.h"

#include "sage/Dialect/Sage/Utils/NvFp4.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::sage;

/// round(x / delta) clamped to [-qmax, qmax]; 0 where delta is 0.
static Value quantizeToInt(KernelBuilder &kb, Value x, Value delta,
                           double qmax) {
  Value zeroDelta = kb.cmpf(arith::CmpFPredicate::OEQ, delta, kb.f32(0));
  Value q = kb.roundToI32(kb.divf(x, kb.select(zeroDelta, kb.f32(1), delta)));
  q = kb.minsi(kb.maxsi(q, kb.i32(-int64_t(qmax))), kb.i32(int64_t(qmax)));
  return kb.select(zeroDelta, kb.i32(0), q);
}

/// values[index] as an i32, for an i32 `index` in [0, values.size()): a
/// layout's storage positions are constants, the thread's place is not.
static Value selectConstant(KernelBuilder &kb, Value index,
                            ArrayRef<int64_t> values) {
  Value result = kb.i32(values.back());
  for (int64_t i = int64_t(values.size()) - 2; i >= 0; --i)
    result = kb.select(kb.cmp(arith::CmpIPredicate::eq, index, kb.i32(i)),
                       kb.i32(values[i]), result);
  return result;
}

/// Threads a token of a Q or K block: about 32 channels each, a power of
/// two (their maxima meet by shuffles) whose channels are whole 16-byte
/// loads of f16.
static int64_t getTokenParts(int64_t paddedDim) {
  int64_t parts =
      std::max<int64_t>(1, llvm::bit_floor(uint64_t(paddedDim / 32)));
  while (parts > 1 && paddedDim % (8 * parts) != 0)
    parts /= 2;
  return parts;
}

namespace {
/// Thread `parts` * r + part of a CTA of `parts` threads a token: token r
/// of the block, part `part` of its channels as they are stored (D padded
/// to whole layout groups; the channels past D are zeros).
struct TokenPart {
  Value tid, row, part, firstChannel;
  int64_t parts, channels; // threads a token, channels a thread

  TokenPart(KernelBuilder &kb, int64_t paddedDim)
      : parts(getTokenParts(paddedDim)), channels(paddedDim / parts) {
    tid = kb.threadId();
    row = kb.divu(tid, kb.i32(parts));
    part = kb.remu(tid, kb.i32(parts));
    firstChannel = kb.mul(part, kb.i32(channels));
  }

  /// Loads this thread's channels of `token` (zeros where !valid or past
  /// `dim`) and subtracts `mean` (shared array of D floats, or null).
  SmallVector<Value> load(KernelBuilder &kb, const AttentionConfig &config,
                          Value buffer, Value head, Value heads, Value tokens,
                          Value token, Value valid, int64_t dim,
                          function_ref<Value(Value)> mean) const {
    Type type = config.inputType;
    Value safeToken = kb.select(valid, token, kb.i32(0));
    int64_t perLoad = 16 / (type.getIntOrFloatBitWidth() / 8);
    SmallVector<Value> values;
    for (int64_t c = 0; c < channels; c += perLoad) {
      Value channel = kb.add(firstChannel, kb.i32(c));
      // D is a multiple of 16, so a load is wholly inside D or past it.
      Value keep = valid;
      if (parts * channels > dim) {
        Value inside = kb.cmp(arith::CmpIPredicate::ult, channel, kb.i32(dim));
        channel = kb.select(inside, channel, kb.i32(0));
        keep = arith::AndIOp::create(kb.b, kb.loc, valid, inside);
      }
      SmallVector<Value> loaded = kb.loadVectorAsF32(
          type, buffer,
          config.io.offset(kb, head, heads, tokens, safeToken, dim, channel),
          perLoad);
      for (int64_t i = 0; i < perLoad; ++i) {
        Value x = loaded[i];
        if (mean)
          x = kb.subf(x, mean(kb.add(channel, kb.i32(i))));
        values.push_back(kb.select(keep, x, kb.f32(0)));
      }
    }
    return values;
  }

  /// The token's max |x| over its threads' `values`, in each of them.
  Value tokenAbsMax(KernelBuilder &kb, ArrayRef<Value> values) const {
    Value result = kb.f32(0);
    for (Value value : values)
      result = kb.maximumf(result, kb.absf(value));
    for (int64_t mask = 1; mask < parts; mask *= 2)
      result = kb.maximumf(result, kb.shuffleXor(result, mask));
    return result;
  }

  /// Stores the token's max |x| at `row` of the shared array `maxima`
  /// (from its first thread).
  void storeTokenMax(KernelBuilder &kb, Value max, Value maxima) const {
    kb.ifThen(kb.cmp(arith::CmpIPredicate::eq, part, kb.i32(0)),
              [&] { kb.storeShared(max, maxima, row); });
  }

  /// Quantizes `values` with `delta` and stores them as packed integers
  /// of `bits` (8, or 4: two a byte) at token `row` of the [head,
  /// paddedTokens, rowBytes] buffer, in `layout` (its rows placed in
  /// `tile`s where it says so).
  void storeInts(KernelBuilder &kb, ArrayRef<Value> values, Value delta,
                 double qmax, int64_t bits, Value buffer, Value head,
                 Value paddedTokens, Value token, int64_t rowBytes,
                 OperandLayoutAttrInterface layout, OperandTile tile) const {
    SmallVector<Value> codes;
    for (Value value : values)
      codes.push_back(quantizeToInt(kb, value, delta, qmax));
    storeCodes(kb, codes, bits, buffer, head, paddedTokens, token, rowBytes,
               layout, tile);
  }

  /// NVFP4 (docs/Algorithm.md section 5): each 16 of the thread's channels
  /// (a 16-channel block: `channels` is a multiple of 16) get the E4M3
  /// scale of their max |x| / 6, stored at byte channel / 16 of the token's
  /// row of `scales` ([head, paddedTokens, scaleRowBytes]), and E2M1 values
  /// of x / scale, stored as `storeInts` stores 4-bit integers.
  void storeMicroscaled(KernelBuilder &kb, ArrayRef<Value> values, Value buffer,
                        Value scales, Value head, Value paddedTokens,
                        Value token, int64_t rowBytes, int64_t scaleRowBytes,
                        OperandLayoutAttrInterface layout,
                        OperandTile tile) const {
    assert(channels % 16 == 0 && "whole 16-channel blocks a thread");
    Value scaleBytes = kb.i32(scaleRowBytes), scaleStart = kb.i32(0);
    Value scaleRow =
        linearOffset(kb, head, paddedTokens, token, scaleBytes, scaleStart);
    Value firstBlock = kb.divu(firstChannel, kb.i32(16));
    SmallVector<Value> codes;
    for (int64_t c0 = 0; c0 < channels; c0 += 16) {
      Value absMax = kb.f32(0);
      for (int64_t i = 0; i < 16; ++i)
        absMax = kb.maximumf(absMax, kb.absf(values[c0 + i]));
      nvfp4::Block quantized =
          nvfp4::quantizeBlock(kb.b, kb.loc, absMax, values.slice(c0, 16));
      llvm::append_range(codes, quantized.codes);
      Value block = c0 ? kb.add(firstBlock, kb.i32(c0 / 16)) : firstBlock;
      Value byte = arith::TruncIOp::create(kb.b, kb.loc, kb.i8Type(),
                                           quantized.scaleBits);
      kb.store(byte, scales, kb.add(scaleRow, kb.toI64(block)), 1);
    }
    storeCodes(kb, codes, 4, buffer, head, paddedTokens, token, rowBytes,
               layout, tile);
  }

  /// Stores `codes` (one an element, `bits` wide) packed two's-complement
  /// at token `row` of the [head, paddedTokens, rowBytes] buffer, in
  /// `layout`.
  void storeCodes(KernelBuilder &kb, ArrayRef<Value> codes, int64_t bits,
                  Value buffer, Value head, Value paddedTokens, Value token,
                  int64_t rowBytes, OperandLayoutAttrInterface layout,
                  OperandTile tile) const {
    OperandRow stored(kb, layout.getOperandTiling(), head, paddedTokens, token,
                      kb.i32(rowBytes), tile);
    int64_t perWord = 32 / bits;
    for (int64_t c = 0; c < channels; c += perWord) {
      Value packed = kb.packInts(codes.slice(c, perWord), bits);
      // This thread's channels start at part * channels; a word's
      // consecutive channels stay together in the layout
      // (getOperandLayouts checks it).
      SmallVector<int64_t, 8> positions;
      for (int64_t p = 0; p < parts; ++p)
        positions.push_back(getStoredIndex(layout, p * channels + c) * bits /
                            8);
      Value position = selectConstant(kb, part, positions);
      kb.store(packed, buffer, stored.getOffset(position), 4);
    }
  }
};
} // namespace

static Value maxOfShared(KernelBuilder &kb, Value shared,
                         ArrayRef<Value> indices) {
  Value result = kb.f32(0);
  for (Value index : indices)
    result = kb.maximumf(result, kb.loadShared(shared, index));
  return result;
}

/// Rows 0 .. rows - 1 of a block: a per_block group's members.
static SmallVector<Value> getBlockRows(KernelBuilder &kb, int64_t rows) {
  SmallVector<Value> result;
  for (int64_t row = 0; row < rows; ++row)
    result.push_back(kb.i32(row));
  return result;
}

void mlir::sage::buildQuantizeKeyKernel(KernelModule &km,
                                        const AttentionConfig &config) {
  using namespace buffers;
  SmallVector<KernelParam> params = {{kKey, true}};
  if (config.smoothK)
    params.push_back({kKeySum, true});
  params.append(
      {{kKeyInt, true}, {kKeyScale, true}, {"Nk", false}, {"Hkv", false}});
  // getTokenParts threads a token of the block, whatever the attention's
  // CTA.
  int64_t threads = getTokenParts(config.paddedHeadDim) * config.blockK;
  int64_t dim = config.headDim;
  // Shared: each token's max |x|, then (K smoothing) the channel means.
  SmallVector<int64_t, 2> sharedF32 = {config.blockK};
  if (config.smoothK)
    sharedF32.push_back(dim);
  KernelFunc kernel =
      km.addKernel("sage_quantize_k", params, threads, sharedF32);
  KernelBuilder kb(km.builder, km.loc);
  TokenPart thread(kb, config.paddedHeadDim);
  Value tokens = kernel.arg("Nk");
  Value block = kb.blockId(gpu::Dimension::x);
  Value head = kb.add(kb.mul(kb.blockId(gpu::Dimension::z), kernel.arg("Hkv")),
                      kb.blockId(gpu::Dimension::y));
  Value blocks = kb.ceilDiv(tokens, config.blockK);
  Value token = kb.add(kb.mul(block, kb.i32(config.blockK)), thread.row);
  Value valid = kb.cmp(arith::CmpIPredicate::slt, token, tokens);

  // gamma(K) = K - mean(K), the mean over all tokens of the head, computed
  // once a channel into shared memory (each thread reads its channels').
  Value meanShared;
  if (config.smoothK) {
    meanShared = kernel.shared[1];
    Value tokenCount = kb.sitofp(tokens);
    for (int64_t first = 0; first < dim; first += threads) {
      Value channel = kb.add(thread.tid, kb.i32(first));
      auto storeMean = [&] {
        kb.storeShared(loadChannelMean(kb, kernel.arg(kKeySum),
                                       getChannelOffset(kb, head, dim, channel),
                                       tokenCount),
                       meanShared, channel);
      };
      if (first + threads > dim)
        kb.ifThen(kb.cmp(arith::CmpIPredicate::ult, channel, kb.i32(dim)),
                  storeMean);
      else
        storeMean();
    }
    kb.barrier();
  }
  auto mean = [&](Value channel) { return kb.loadShared(meanShared, channel); };
  SmallVector<Value> values =
      thread.load(kb, config, kernel.arg(kKey), head, kernel.arg("Hkv"), tokens,
                  token, valid, dim,
                  config.smoothK ? function_ref<Value(Value)>(mean)
                                 : function_ref<Value(Value)>());

  auto launch = [&] {
    km.addLaunch("sage_quantize_k", params,
                 {getBlockCount("Nk", config.blockK), SizeExpr::symbol("Hkv"),
                  SizeExpr::symbol("B")},
                 threads);
  };
  if (config.microscaled) {
    thread.storeMicroscaled(
        kb, values, kernel.arg(kKeyInt), kernel.arg(kKeyScale), head,
        kb.mul(blocks, kb.i32(config.blockK)), token,
        config.getQueryKeyRowBytes(), config.getQueryKeyScaleRowBytes(),
        config.layouts.queryKey, config.getKeyTile());
    return launch();
  }

  // Per-thread groups of K (operand b): tokens 8k + 2t and 8k + 2t + 1 of
  // the block share delta_K, t = (r mod 8) / 2; per_token, each token has
  // its own; otherwise every token does (per_block, and per_warp: a K
  // block is read by every warp).
  Value tokenMaxima = kernel.shared[0];
  thread.storeTokenMax(kb, thread.tokenAbsMax(kb, values), tokenMaxima);
  kb.barrier();
  Value group = config.perThreadScales()
                    ? kb.divu(kb.remu(thread.row, kb.i32(8)), kb.i32(2))
                : config.perTokenScales() ? thread.row
                                          : kb.i32(0);
  SmallVector<Value> members;
  if (config.perTokenScales())
    members = {thread.row};
  else if (!config.perThreadScales())
    members = getBlockRows(kb, config.blockK);
  else
    for (int64_t k = 0; k < config.blockK / 8; ++k)
      for (int64_t e = 0; e < 2; ++e)
        members.push_back(kb.add(kb.mul(group, kb.i32(2)), kb.i32(8 * k + e)));
  // (One op a statement: the IR must not depend on the compiler's order of
  // evaluating arguments.)
  Value groupMax = maxOfShared(kb, tokenMaxima, members);
  Value delta = kb.divf(groupMax, kb.f32(config.qkRange));
  // The first thread of token 2t writes group t's scale (one a block: of
  // token 0; per_token: of each token).
  Value writer = kb.cmp(arith::CmpIPredicate::eq, thread.part, kb.i32(0));
  if (!config.perTokenScales()) {
    writer =
        arith::AndIOp::create(kb.b, kb.loc, writer,
                              kb.cmp(arith::CmpIPredicate::ult, thread.row,
                                     kb.i32(config.perThreadScales() ? 8 : 1)));
    writer = arith::AndIOp::create(
        kb.b, kb.loc, writer,
        kb.cmp(arith::CmpIPredicate::eq, kb.bitAnd(thread.row, 1), kb.i32(0)));
  }
  kb.ifThen(writer, [&] {
    Value offset = linearOffset(kb, head, blocks, block,
                                kb.i32(config.getKeyScalesPerBlock()), group);
    kb.storeFromF32(kb.f32Type(), delta, kernel.arg(kKeyScale), offset);
  });
  thread.storeInts(kb, values, delta, config.qkRange,
                   config.queryKeyType.getIntOrFloatBitWidth(),
                   kernel.arg(kKeyInt), head,
                   kb.mul(blocks, kb.i32(config.blockK)), token,
                   config.getQueryKeyRowBytes(), config.layouts.queryKey,
                   config.getKeyTile());
  launch();
}

void mlir::sage::buildQuantizeQueryKernel(KernelModule &km,
                                          const AttentionConfig &config) {
  using namespace buffers;
  SmallVector<KernelParam> params = {
      {kQuery, true}, {kQueryInt, true}, {kQueryScale, true}};
  if (config.smoothQ)
    params.push_back({kQueryMean, true});
  params.append({{"Nq", false}, {"H", false}});
  int64_t dim = config.headDim;
  // getTokenParts threads a token of the block, whatever the attention's
  // CTA; shared: each token's max |x|, the threads' partial sums of qbar
  // and its channels.
  int64_t threads = getTokenParts(config.paddedHeadDim) * config.blockQ;
  KernelFunc kernel = km.addKernel("sage_quantize_q", params, threads,
                                   /*sharedF32=*/{config.blockQ, threads, dim});
  KernelBuilder kb(km.builder, km.loc);
  TokenPart thread(kb, config.paddedHeadDim);
  Value tokens = kernel.arg("Nq");
  Value block = kb.blockId(gpu::Dimension::x);
  Value head = kb.add(kb.mul(kb.blockId(gpu::Dimension::z), kernel.arg("H")),
                      kb.blockId(gpu::Dimension::y));
  Value blocks = kb.ceilDiv(tokens, config.blockQ);
  Value first = kb.mul(block, kb.i32(config.blockQ));
  Value token = kb.add(first, thread.row);
  Value valid = kb.cmp(arith::CmpIPredicate::slt, token, tokens);
  Value tokenMaxima = kernel.shared[0], partial = kernel.shared[1],
        meanShared = kernel.shared[2];

  // qbar_i: mean of the valid rows of the block, thread (stream, c) summing
  // channel c over every (threads / D)-th row; where D is wider than the
  // CTA, thread t sums channels t, t + threads, ... over every row.
  if (config.smoothQ) {
    // Channel `channel` summed over rows `firstRow`, + `step`, ... of the
    // block's `validRows`; a mean stored for the quantizer and the plan.
    auto sumRows = [&](Value channel, Value firstRow, Value step,
                       Value validRows) {
      return kb.forLoop(
          firstRow, validRows, step, ValueRange{kb.f32(0)},
          [&](Value row, ValueRange acc) -> SmallVector<Value> {
            Value offset = config.io.offset(kb, head, kernel.arg("H"), tokens,
                                            kb.add(first, row), dim, channel);
            return {kb.addf(acc[0], kb.loadAsF32(config.inputType,
                                                 kernel.arg(kQuery), offset))};
          })[0];
    };
    auto storeMean = [&](Value channel, Value mean) {
      kb.storeShared(mean, meanShared, channel);
      kb.storeFromF32(
          kb.f32Type(), mean, kernel.arg(kQueryMean),
          linearOffset(kb, head, blocks, block, kb.i32(dim), channel));
    };
    if (dim > threads) {
      Value validRows = kb.minsi(kb.i32(config.blockQ), kb.sub(tokens, first));
      for (int64_t c0 = 0; c0 < dim; c0 += threads) {
        Value channel = kb.add(thread.tid, kb.i32(c0));
        kb.ifThen(kb.cmp(arith::CmpIPredicate::ult, channel, kb.i32(dim)), [&] {
          Value sum = sumRows(channel, kb.i32(0), kb.i32(1), validRows);
          storeMean(channel, kb.divf(sum, kb.sitofp(validRows)));
        });
      }
    } else {
      Value channel = kb.remu(thread.tid, kb.i32(dim));
      Value stream = kb.divu(thread.tid, kb.i32(dim));
      Value validRows = kb.minsi(kb.i32(config.blockQ), kb.sub(tokens, first));
      Value sum = sumRows(channel, stream, kb.i32(threads / dim), validRows);
      kb.storeShared(sum, partial, thread.tid);
      kb.barrier();
      kb.ifThen(
          kb.cmp(arith::CmpIPredicate::ult, thread.tid, kb.i32(dim)), [&] {
            Value total = kb.f32(0);
            for (int64_t s = 0; s < threads / dim; ++s)
              total = kb.addf(
                  total,
                  kb.loadShared(partial, kb.add(thread.tid, kb.i32(s * dim))));
            storeMean(thread.tid, kb.divf(total, kb.sitofp(validRows)));
          });
    }
    kb.barrier();
  }
  auto mean = [&](Value channel) { return kb.loadShared(meanShared, channel); };
  SmallVector<Value> values =
      thread.load(kb, config, kernel.arg(kQuery), head, kernel.arg("H"), tokens,
                  token, valid, dim,
                  config.smoothQ ? function_ref<Value(Value)>(mean)
                                 : function_ref<Value(Value)>());

  auto launch = [&] {
    km.addLaunch("sage_quantize_q", params,
                 {getBlockCount("Nq", config.blockQ), SizeExpr::symbol("H"),
                  SizeExpr::symbol("B")},
                 threads);
  };
  if (config.microscaled) {
    thread.storeMicroscaled(
        kb, values, kernel.arg(kQueryInt), kernel.arg(kQueryScale), head,
        kb.mul(blocks, kb.i32(config.blockQ)), token,
        config.getQueryKeyRowBytes(), config.getQueryKeyScaleRowBytes(),
        config.layouts.queryKey, config.getQueryTile());
    return launch();
  }

  // Per-thread groups of Q (operand a): rows of warp segment w with the same
  // r mod 8, i.e. rows 16w + g and 16w + g + 8.
  thread.storeTokenMax(kb, thread.tokenAbsMax(kb, values), tokenMaxima);
  kb.barrier();
  // per_warp: the warp's rows; per_block: every row of the block;
  // per_token: the row. The group's first row's first thread writes the
  // scale.
  Value warp = kb.divu(thread.row, kb.i32(config.warpQ));
  Value g = kb.remu(thread.row, kb.i32(8));
  Value top = kb.add(kb.mul(warp, kb.i32(config.warpQ)), g);
  Value bottom = kb.add(top, kb.i32(8));
  SmallVector<Value> members = {top, bottom};
  if (config.perTokenScales()) {
    members = {thread.row};
  } else if (config.perBlockScales()) {
    members = getBlockRows(kb, config.blockQ);
  } else if (!config.perThreadScales()) {
    members.clear();
    for (int64_t r = 0; r < config.warpQ; ++r)
      members.push_back(kb.add(kb.mul(warp, kb.i32(config.warpQ)), kb.i32(r)));
  }
  // (One op a statement: the IR must not depend on the compiler's order of
  // evaluating arguments.)
  Value groupMax = maxOfShared(kb, tokenMaxima, members);
  Value delta = kb.divf(groupMax, kb.f32(config.qkRange));
  Value writer = kb.cmp(arith::CmpIPredicate::eq, thread.part, kb.i32(0));
  if (!config.perTokenScales()) {
    Value writerRow =
        config.perBlockScales() ? thread.row : kb.remu(thread.row, kb.i32(16));
    writer =
        arith::AndIOp::create(kb.b, kb.loc, writer,
                              kb.cmp(arith::CmpIPredicate::ult, writerRow,
                                     kb.i32(config.perThreadScales() ? 8 : 1)));
  }
  kb.ifThen(writer, [&] {
    Value group = config.perTokenScales()   ? thread.row
                  : config.perBlockScales() ? kb.i32(0)
                  : config.perThreadScales()
                      ? kb.add(kb.mul(warp, kb.i32(8)), g)
                      : warp;
    kb.storeFromF32(kb.f32Type(), delta, kernel.arg(kQueryScale),
                    linearOffset(kb, head, blocks, block,
                                 kb.i32(config.getQueryScalesPerBlock()),
                                 group));
  });
  thread.storeInts(kb, values, delta, config.qkRange,
                   config.queryKeyType.getIntOrFloatBitWidth(),
                   kernel.arg(kQueryInt), head,
                   kb.mul(blocks, kb.i32(config.blockQ)), token,
                   config.getQueryKeyRowBytes(), config.layouts.queryKey,
                   config.getQueryTile());
  launch();
}

/// NVFP4's V (docs/Algorithm.md section 5), thread `channel` of the V
/// quantizer once the block's f32 values are in `tile` (token r at r *
/// rowBytes): each 16 MMA positions of the V layout (a block of the P V
/// MMA's scales; the keys tokenAt does not say, getIndexAt does) get the
/// E4M3 scale of their max |v| / 6, stored a byte each at position / 16 of
/// the channel's row of v_scale ([head, D, paddedTokens / 16]); V^T gets
/// the E2M1 values, two a byte, in the layout's stored order.
static void storeMicroscaledValues(KernelBuilder &kb,
                                   const AttentionConfig &config,
                                   const KernelFunc &kernel, Value tile,
                                   int64_t rowBytes, ArrayRef<int64_t> tokenAt,
                                   Value head, Value channel, Value blockStart,
                                   Value paddedTokens) {
  using namespace buffers;
  OperandLayoutAttrInterface layout = config.layouts.value;
  int64_t dim = config.valueDim, blockK = config.blockK;
  Value channelBytes = kb.mul(channel, kb.i32(4));
  auto loadValue = [&](int64_t key) {
    Value word = kb.loadSharedWords(
        tile, kb.add(kb.i32(key * rowBytes), channelBytes), 1)[0];
    return arith::BitcastOp::create(kb.b, kb.loc, kb.f32Type(), word)
        .getResult();
  };
  SmallVector<Value> codeOfKey(blockK), scaleBytes;
  for (int64_t first = 0; first < blockK; first += 16) {
    SmallVector<int64_t> keys;
    for (int64_t position = first; position < first + 16; ++position)
      keys.push_back(layout.getIndexAt(position));
    SmallVector<Value> values;
    Value absMax = kb.f32(0);
    for (int64_t key : keys) {
      values.push_back(loadValue(key));
      absMax = kb.maximumf(absMax, kb.absf(values.back()));
    }
    nvfp4::Block quantized = nvfp4::quantizeBlock(kb.b, kb.loc, absMax, values);
    scaleBytes.push_back(quantized.scaleBits);
    for (auto [key, code] : llvm::zip_equal(keys, quantized.codes))
      codeOfKey[key] = code;
  }
  // The block's blockK / 16 scale bytes, whole words (blockK is a multiple
  // of 64), at its first key / 16 of the row.
  SmallVector<Value> scaleWords;
  for (int64_t i = 0; i < int64_t(scaleBytes.size()); i += 4)
    scaleWords.push_back(kb.packInts(ArrayRef(scaleBytes).slice(i, 4), 8));
  Value channels = kb.i32(dim);
  Value scaleRowBytes = kb.divu(paddedTokens, kb.i32(16));
  Value blockByte = kb.divu(blockStart, kb.i32(16));
  Value scaleRow =
      linearOffset(kb, head, channels, channel, scaleRowBytes, blockByte);
  kb.storeWords(kernel.arg(kValueScale), scaleRow, scaleWords);
  // Values: eight a word, 16 bytes (32 keys) a store.
  Value valueRowBytes = kb.divu(paddedTokens, kb.i32(2));
  OperandRow stored(kb, layout.getOperandTiling(), head, channels, channel,
                    valueRowBytes, config.getValueTile());
  for (int64_t first = 0; first < blockK; first += 32) {
    SmallVector<Value> words;
    for (int64_t s = first; s < first + 32; s += 8) {
      SmallVector<Value> codes;
      for (int64_t i = 0; i < 8; ++i)
        codes.push_back(codeOfKey[tokenAt[s + i]]);
      words.push_back(kb.packInts(codes, 4));
    }
    Value key = first ? kb.add(blockStart, kb.i32(first)) : blockStart;
    Value byte = kb.divu(key, kb.i32(2));
    kb.storeWords(kernel.arg(kValueQuantized), stored.getOffset(byte), words);
  }
}

void mlir::sage::buildQuantizeValueKernel(KernelModule &km,
                                          const AttentionConfig &config) {
  using namespace buffers;
  // V_hat is E4M3 or f16 of V / delta_V per channel, or (int8-fp16) f16
  // of V, rounded only, or (NVFP4) E2M1 with an E4M3 scale a 16 keys,
  // which the block's values are staged for in f32.
  bool f16 = config.hasF16Values(), scaledValues = config.scaledValues,
       microscaled = config.microscaled;
  int64_t elementBytes =
      microscaled ? 4 : config.valueType.getIntOrFloatBitWidth() / 8;
  SmallVector<KernelParam> params = {{kValue, true}};
  if (config.smoothV)
    params.push_back({kValueSum, true});
  if (scaledValues)
    params.push_back({kValueAbsMax, true});
  params.push_back({kValueQuantized, true});
  if (microscaled)
    params.push_back({kValueScale, true});
  params.append({{"Nk", false}, {"Hkv", false}});
  // One thread a channel; the block's values pass through shared memory,
  // token by token in, channel by channel out, so that both the loads of V
  // and the stores of V_hat^T are whole 16-byte vectors.
  int64_t dim = config.valueDim, blockK = config.blockK;
  assert(dim % 8 == 0 && blockK % 16 == 0 && "whole 16-byte vectors");
  KernelFunc kernel = km.addKernel("sage_quantize_v", params, dim);
  KernelBuilder kb(km.builder, km.loc);
  // Rows of a token's D values, D + 16 bytes apart. (The stores below are
  // linear in the thread index, so unpadded rows would do, and would avoid
  // the 2-way bank conflicts this padding causes at D <= 96: to change
  // with a GPU run.)
  int64_t rowBytes = dim * elementBytes + 16;
  // The byte offset of `elements` values.
  auto bytesOf = [&](Value elements) {
    return elementBytes == 1 ? elements
                             : kb.mul(elements, kb.i32(elementBytes));
  };
  Value tile =
      km.addSharedBytes(kb, kernel, "sage_quantize_v_tile", blockK * rowBytes);
  Value tid = kb.threadId();
  Value tokens = kernel.arg("Nk");
  Value block = kb.blockId(gpu::Dimension::x);
  Value head = kb.add(kb.mul(kb.blockId(gpu::Dimension::z), kernel.arg("Hkv")),
                      kb.blockId(gpu::Dimension::y));
  Value blockStart = kb.mul(block, kb.i32(blockK));

  // In: thread t loads channels 8 (t mod D/8) ... + 7 of tokens t / (D/8),
  // + 8, + 16, ... of the block (consecutive threads, consecutive vectors)
  // and writes them to the tile as E4M3 or f16 of (V - mean) / delta_V, or
  // as f16 of V - mean.
  int64_t vectorsPerToken = dim / 8;
  Value firstChannel = kb.mul(kb.remu(tid, kb.i32(vectorsPerToken)), kb.i32(8));
  Value firstToken = kb.divu(tid, kb.i32(vectorsPerToken));
  SmallVector<Value> means, deltas, zeroDeltas;
  for (int64_t i = 0; i < 8; ++i) {
    Value channelOffset =
        getChannelOffset(kb, head, dim, kb.add(firstChannel, kb.i32(i)));
    if (scaledValues) {
      Value delta = loadValueDelta(kb, kernel.arg(kValueAbsMax), channelOffset,
                                   config.vRange);
      zeroDeltas.push_back(
          kb.cmpf(arith::CmpFPredicate::OEQ, delta, kb.f32(0)));
      deltas.push_back(kb.select(zeroDeltas.back(), kb.f32(1), delta));
    }
    if (config.smoothV)
      means.push_back(loadChannelMean(kb, kernel.arg(kValueSum), channelOffset,
                                      kb.sitofp(tokens)));
  }
  for (int64_t row = 0; row < blockK; row += 8) {
    Value inBlock = kb.add(firstToken, kb.i32(row));
    Value token = kb.add(blockStart, inBlock);
    Value valid = kb.cmp(arith::CmpIPredicate::slt, token, tokens);
    Value safeToken = kb.select(valid, token, kb.i32(0));
    // 16-byte loads: one of f16 / bf16, two of f32.
    int64_t perLoad = 16 / (config.inputType.getIntOrFloatBitWidth() / 8);
    SmallVector<Value> values;
    for (int64_t c = 0; c < 8; c += perLoad)
      llvm::append_range(
          values,
          kb.loadVectorAsF32(config.inputType, kernel.arg(kValue),
                             config.io.offset(kb, head, kernel.arg("Hkv"),
                                              tokens, safeToken, dim,
                                              kb.add(firstChannel, kb.i32(c))),
                             perLoad));
    SmallVector<Value> scaled;
    for (int64_t i = 0; i < 8; ++i) {
      Value x = values[i];
      if (config.smoothV)
        x = kb.subf(x, means[i]);
      if (scaledValues)
        x = kb.select(zeroDeltas[i], kb.f32(0), kb.divf(x, deltas[i]));
      scaled.push_back(kb.select(valid, x, kb.f32(0)));
    }
    SmallVector<Value> words;
    for (int64_t i = 0; i < 8 && microscaled; ++i)
      words.push_back(
          arith::BitcastOp::create(kb.b, kb.loc, kb.i32Type(), scaled[i]));
    for (int64_t i = 0; i < 8 && !microscaled; i += 4)
      if (f16) {
        words.push_back(kb.packF16x2(scaled[i], scaled[i + 1]));
        words.push_back(kb.packF16x2(scaled[i + 2], scaled[i + 3]));
      } else {
        words.push_back(kb.packE4M3x4(scaled[i], scaled[i + 1], scaled[i + 2],
                                      scaled[i + 3]));
      }
    // 16 bytes a store: rows are 16-byte aligned.
    Value rowOffset = kb.mul(inBlock, kb.i32(rowBytes));
    Value rowStart = kb.add(rowOffset, bytesOf(firstChannel));
    for (int64_t w = 0; w < int64_t(words.size()); w += 4)
      kb.storeSharedWords(
          tile, w ? kb.add(rowStart, kb.i32(4 * w)) : rowStart,
          ArrayRef(words).slice(w, std::min<int64_t>(4, words.size() - w)));
  }
  kb.barrier();

  // Out: thread t writes channel t's row of the block, 16 bytes of stored
  // key positions a vector. Stored position s holds MMA position p (s =
  // getStorageIndex(p)), which is the block's token getIndexAt(p).
  SmallVector<int64_t> tokenAt(blockK, -1);
  for (int64_t position = 0; position < blockK; ++position) {
    int64_t stored = config.layouts.value.getStorageIndex(position);
    assert(stored >= 0 && stored < blockK && tokenAt[stored] < 0 &&
           "a layout stores a block's positions within the block");
    tokenAt[stored] = config.layouts.value.getIndexAt(position);
  }
  Value paddedTokens = kb.mul(kb.ceilDiv(tokens, blockK), kb.i32(blockK));
  auto launch = [&] {
    km.addLaunch("sage_quantize_v", params,
                 {getBlockCount("Nk", blockK), SizeExpr::symbol("Hkv"),
                  SizeExpr::symbol("B")},
                 dim);
  };
  if (microscaled) {
    storeMicroscaledValues(kb, config, kernel, tile, rowBytes, tokenAt, head,
                           tid, blockStart, paddedTokens);
    return launch();
  }
  // A V^T row holds every (padded) key of the head.
  OperandRow stored(kb, config.layouts.value.getOperandTiling(), head,
                    kb.i32(dim), tid, bytesOf(paddedTokens),
                    config.getValueTile());
  int64_t perWord = 4 / elementBytes, perVector = 4 * perWord;
  Value channelBytes = bytesOf(tid);
  for (int64_t first = 0; first < blockK; first += perVector) {
    SmallVector<Value> words;
    for (int64_t s = first; s < first + perVector; s += perWord) {
      SmallVector<Value> elements;
      for (int64_t i = 0; i < perWord; ++i) {
        Value offset = kb.add(kb.i32(tokenAt[s + i] * rowBytes), channelBytes);
        elements.push_back(f16 ? kb.loadSharedHalfWord(tile, offset)
                               : kb.loadSharedByte(tile, offset));
      }
      words.push_back(kb.packInts(elements, 8 * elementBytes));
    }
    // 16 stored bytes are adjacent in either tiling (docs/Layouts.md).
    kb.storeWords(kernel.arg(kValueQuantized),
                  stored.getOffset(bytesOf(kb.add(blockStart, kb.i32(first)))),
                  words);
  }
  launch();
}
