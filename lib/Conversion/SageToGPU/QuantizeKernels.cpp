//===- QuantizeKernels.cpp - Q, K and V into the MMA formats --------------===//
//
// One CTA per (block, head, batch). Q and K blocks: two threads a token
// (for Q, the attention's CTA); thread 2r + half owns half of the channels
// of token r, finds its max |x|, the CTA reduces the maxima over each
// per-thread group in shared memory (docs/Algorithm.md section 2), and the
// thread writes its INT8 values. V: one
// thread per (channel, 32 keys) writes E4M3 values transposed, [D, Nk], in
// the key order of the V layout, which the P V MMA reads.
//
//===----------------------------------------------------------------------===//

#include "SageToGPUInternal.h"

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

namespace {
/// Thread 2r + half of a CTA of two threads a token: token r of the block,
/// half of its channels as they are stored (D padded to whole layout groups;
/// the channels past D are zeros).
struct TokenHalf {
  Value tid, row, half, firstChannel;
  int64_t channels; // per thread

  TokenHalf(KernelBuilder &kb, int64_t paddedDim) : channels(paddedDim / 2) {
    tid = kb.threadId();
    row = kb.divu(tid, kb.i32(2));
    half = kb.remu(tid, kb.i32(2));
    firstChannel = kb.mul(half, kb.i32(channels));
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
      if (2 * channels > dim) {
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

  /// Quantizes `values` with `delta` and stores them as packed INT8 at
  /// token `row` of the [head, paddedTokens, dim] buffer, in `layout` (its
  /// rows placed in `tile`s where it says so).
  void storeInt8(KernelBuilder &kb, ArrayRef<Value> values, Value delta,
                 double qmax, Value buffer, Value head, Value paddedTokens,
                 Value token, int64_t dim, OperandLayoutAttrInterface layout,
                 OperandTile tile) const {
    OperandRow stored(kb, layout.getOperandTiling(), head, paddedTokens, token,
                      kb.i32(dim), tile);
    for (int64_t c = 0; c < channels; c += 4) {
      Value packed = kb.packI8x4(quantizeToInt(kb, values[c], delta, qmax),
                                 quantizeToInt(kb, values[c + 1], delta, qmax),
                                 quantizeToInt(kb, values[c + 2], delta, qmax),
                                 quantizeToInt(kb, values[c + 3], delta, qmax));
      // This thread's channels start at half * channels; 4 consecutive
      // channels stay together in the layout (getOperandLayouts checks it).
      Value position = selectConstant(
          kb, half,
          {getStoredIndex(layout, c), getStoredIndex(layout, channels + c)});
      kb.store(packed, buffer, stored.getOffset(position), 4);
    }
  }
};
} // namespace

static Value absMax(KernelBuilder &kb, ArrayRef<Value> values) {
  Value result = kb.f32(0);
  for (Value value : values)
    result = kb.maximumf(result, kb.absf(value));
  return result;
}

static Value maxOfShared(KernelBuilder &kb, Value shared,
                         ArrayRef<Value> indices) {
  Value result = kb.f32(0);
  for (Value index : indices)
    result = kb.maximumf(result, kb.loadShared(shared, index));
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
  // Two threads a token of the block, whatever the attention's CTA.
  int64_t threads = 2 * config.blockK;
  KernelFunc kernel = km.addKernel("sage_quantize_k", params, threads,
                                   /*sharedF32=*/{threads});
  KernelBuilder kb(km.builder, km.loc);
  int64_t dim = config.headDim;
  TokenHalf thread(kb, config.paddedHeadDim);
  Value tokens = kernel.arg("Nk");
  Value block = kb.blockId(gpu::Dimension::x);
  Value head = kb.add(kb.mul(kb.blockId(gpu::Dimension::z), kernel.arg("Hkv")),
                      kb.blockId(gpu::Dimension::y));
  Value blocks = kb.ceilDiv(tokens, config.blockK);
  Value token = kb.add(kb.mul(block, kb.i32(config.blockK)), thread.row);
  Value valid = kb.cmp(arith::CmpIPredicate::slt, token, tokens);

  // gamma(K) = K - mean(K), the mean over all tokens of the head.
  Value tokenCount = kb.sitofp(tokens);
  auto mean = [&](Value channel) {
    return loadChannelMean(kb, kernel.arg(kKeySum),
                           getChannelOffset(kb, head, dim, channel),
                           tokenCount);
  };
  SmallVector<Value> values =
      thread.load(kb, config, kernel.arg(kKey), head, kernel.arg("Hkv"), tokens,
                  token, valid, dim,
                  config.smoothK ? function_ref<Value(Value)>(mean)
                                 : function_ref<Value(Value)>());

  // Per-thread groups of K (operand b): tokens 8k + 2t and 8k + 2t + 1 of
  // the block share delta_K, t = (r mod 8) / 2.
  Value shared = kernel.shared[0];
  kb.storeShared(absMax(kb, values), shared, thread.tid);
  kb.barrier();
  Value group = kb.divu(kb.remu(thread.row, kb.i32(8)), kb.i32(2));
  SmallVector<Value> members;
  for (int64_t k = 0; k < config.blockK / 8; ++k)
    for (int64_t e = 0; e < 4; ++e) // two tokens x two halves
      members.push_back(kb.add(kb.mul(group, kb.i32(4)), kb.i32(16 * k + e)));
  Value delta =
      kb.divf(maxOfShared(kb, shared, members), kb.f32(config.qkRange));
  // Thread 4t (token 2t, first half) writes group t's scale.
  Value writer = kb.cmp(arith::CmpIPredicate::ult, thread.tid, kb.i32(16));
  writer = arith::AndIOp::create(
      kb.b, kb.loc, writer,
      kb.cmp(arith::CmpIPredicate::eq, kb.bitAnd(thread.tid, 3), kb.i32(0)));
  kb.ifThen(writer, [&] {
    Value offset = linearOffset(kb, head, blocks, block, kb.i32(4), group);
    kb.storeFromF32(kb.f32Type(), delta, kernel.arg(kKeyScale), offset);
  });
  thread.storeInt8(kb, values, delta, config.qkRange, kernel.arg(kKeyInt), head,
                   kb.mul(blocks, kb.i32(config.blockK)), token,
                   config.paddedHeadDim, config.layouts.queryKey,
                   config.getKeyTile());
  km.addLaunch("sage_quantize_k", params,
               {getBlockCountExpr("Nk", config.blockK), "Hkv", "B"}, threads);
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
  KernelFunc kernel =
      km.addKernel("sage_quantize_q", params, config.threads(),
                   /*sharedF32=*/{config.threads(), config.threads(), dim});
  KernelBuilder kb(km.builder, km.loc);
  TokenHalf thread(kb, config.paddedHeadDim);
  Value tokens = kernel.arg("Nq");
  Value block = kb.blockId(gpu::Dimension::x);
  Value head = kb.add(kb.mul(kb.blockId(gpu::Dimension::z), kernel.arg("H")),
                      kb.blockId(gpu::Dimension::y));
  Value blocks = kb.ceilDiv(tokens, config.blockQ);
  Value first = kb.mul(block, kb.i32(config.blockQ));
  Value token = kb.add(first, thread.row);
  Value valid = kb.cmp(arith::CmpIPredicate::slt, token, tokens);
  Value absMaxShared = kernel.shared[0], partial = kernel.shared[1],
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
    if (dim > config.threads()) {
      Value validRows = kb.minsi(kb.i32(config.blockQ), kb.sub(tokens, first));
      for (int64_t c0 = 0; c0 < dim; c0 += config.threads()) {
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
      Value sum =
          sumRows(channel, stream, kb.i32(config.threads() / dim), validRows);
      kb.storeShared(sum, partial, thread.tid);
      kb.barrier();
      kb.ifThen(
          kb.cmp(arith::CmpIPredicate::ult, thread.tid, kb.i32(dim)), [&] {
            Value total = kb.f32(0);
            for (int64_t s = 0; s < config.threads() / dim; ++s)
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

  // Per-thread groups of Q (operand a): rows of warp segment w with the same
  // r mod 8, i.e. rows 16w + g and 16w + g + 8.
  kb.storeShared(absMax(kb, values), absMaxShared, thread.tid);
  kb.barrier();
  Value warp = kb.divu(thread.row, kb.i32(config.warpQ));
  Value g = kb.remu(thread.row, kb.i32(8));
  Value top = kb.add(kb.mul(warp, kb.i32(config.warpQ)), g);
  Value bottom = kb.add(top, kb.i32(8));
  Value delta =
      kb.divf(maxOfShared(kb, absMaxShared,
                          {kb.mul(top, kb.i32(2)),
                           kb.add(kb.mul(top, kb.i32(2)), kb.i32(1)),
                           kb.mul(bottom, kb.i32(2)),
                           kb.add(kb.mul(bottom, kb.i32(2)), kb.i32(1))}),
              kb.f32(config.qkRange));
  int64_t groupsPerBlock = config.blockQ / config.warpQ * 8;
  Value writer = arith::AndIOp::create(
      kb.b, kb.loc, kb.cmp(arith::CmpIPredicate::eq, thread.half, kb.i32(0)),
      kb.cmp(arith::CmpIPredicate::ult, kb.remu(thread.row, kb.i32(16)),
             kb.i32(8)));
  kb.ifThen(writer, [&] {
    Value group = kb.add(kb.mul(warp, kb.i32(8)), g);
    kb.storeFromF32(
        kb.f32Type(), delta, kernel.arg(kQueryScale),
        linearOffset(kb, head, blocks, block, kb.i32(groupsPerBlock), group));
  });
  thread.storeInt8(kb, values, delta, config.qkRange, kernel.arg(kQueryInt),
                   head, kb.mul(blocks, kb.i32(config.blockQ)), token,
                   config.paddedHeadDim, config.layouts.queryKey,
                   config.getQueryTile());
  km.addLaunch("sage_quantize_q", params,
               {getBlockCountExpr("Nq", config.blockQ), "H", "B"},
               config.threads());
}

void mlir::sage::buildQuantizeValueKernel(KernelModule &km,
                                          const AttentionConfig &config) {
  using namespace buffers;
  SmallVector<KernelParam> params = {{kValue, true}};
  if (config.smoothV)
    params.push_back({kValueSum, true});
  params.append(
      {{kValueAbsMax, true}, {kValueFp8, true}, {"Nk", false}, {"Hkv", false}});
  KernelFunc kernel = km.addKernel("sage_quantize_v", params, config.threads());
  KernelBuilder kb(km.builder, km.loc);
  int64_t dim = config.valueDim;
  Value tid = kb.threadId();
  Value tokens = kernel.arg("Nk");
  Value block = kb.blockId(gpu::Dimension::x);
  Value head = kb.add(kb.mul(kb.blockId(gpu::Dimension::z), kernel.arg("Hkv")),
                      kb.blockId(gpu::Dimension::y));
  Value paddedTokens =
      kb.mul(kb.ceilDiv(tokens, config.blockK), kb.i32(config.blockK));
  int64_t chunks = config.blockK / 32;
  int64_t tasks = dim * chunks;
  for (int64_t task = 0; task < tasks; task += config.threads()) {
    Value taskId = kb.add(tid, kb.i32(task));
    // Fewer tasks than threads (D = 32): the rest of the CTA idles.
    scf::IfOp inRange;
    if (task + config.threads() > tasks) {
      inRange = scf::IfOp::create(
          kb.b, kb.loc,
          kb.cmp(arith::CmpIPredicate::ult, taskId, kb.i32(tasks)),
          /*withElseRegion=*/false);
      kb.b.setInsertionPointToStart(&inRange.getThenRegion().front());
    }
    Value channel = kb.divu(taskId, kb.i32(chunks));
    Value chunk = kb.remu(taskId, kb.i32(chunks));
    Value channelOffset = getChannelOffset(kb, head, dim, channel);
    Value delta = loadValueDelta(kb, kernel.arg(kValueAbsMax), channelOffset,
                                 config.vRange);
    Value zeroDelta = kb.cmpf(arith::CmpFPredicate::OEQ, delta, kb.f32(0));
    Value safeDelta = kb.select(zeroDelta, kb.f32(1), delta);
    Value mean;
    if (config.smoothV)
      mean = loadChannelMean(kb, kernel.arg(kValueSum), channelOffset,
                             kb.sitofp(tokens));
    Value chunkStart =
        kb.add(kb.mul(block, kb.i32(config.blockK)), kb.mul(chunk, kb.i32(32)));
    SmallVector<Value> scaled;
    for (int64_t p = 0; p < 32; ++p) {
      Value token =
          kb.add(chunkStart, kb.i32(config.layouts.value.getIndexAt(p)));
      Value valid = kb.cmp(arith::CmpIPredicate::slt, token, tokens);
      Value safeToken = kb.select(valid, token, kb.i32(0));
      Value x = kb.loadAsF32(config.inputType, kernel.arg(kValue),
                             config.io.offset(kb, head, kernel.arg("Hkv"),
                                              tokens, safeToken, dim, channel));
      if (mean)
        x = kb.subf(x, mean);
      x = kb.divf(x, safeDelta);
      scaled.push_back(
          kb.select(valid, kb.select(zeroDelta, kb.f32(0), x), kb.f32(0)));
    }
    // Position p of the chunk is MMA position 32 * chunk + p of the block,
    // stored where the layout puts it (four adjacent positions together).
    Value blockStart = kb.mul(block, kb.i32(config.blockK));
    OperandRow stored(kb, config.layouts.value.getOperandTiling(), head,
                      kb.i32(dim), channel, paddedTokens,
                      config.getValueTile());
    for (int64_t p = 0; p < 32; p += 4) {
      Value packed =
          kb.packE4M3x4(scaled[p], scaled[p + 1], scaled[p + 2], scaled[p + 3]);
      SmallVector<int64_t> positions;
      for (int64_t c = 0; c < chunks; ++c)
        positions.push_back(config.layouts.value.getStorageIndex(32 * c + p));
      Value key = kb.add(blockStart, selectConstant(kb, chunk, positions));
      kb.store(packed, kernel.arg(kValueFp8), stored.getOffset(key), 4);
    }
    if (inRange)
      kb.b.setInsertionPointAfter(inRange);
  }
  km.addLaunch("sage_quantize_v", params,
               {getBlockCountExpr("Nk", config.blockK), "Hkv", "B"},
               config.threads());
}
