//===- sage-check-levels.cpp - run the kernel --sage-levels makes ---------===//
//
// Checks on a GPU the attention kernel that --sage-levels derives from the
// tiles (docs/Levels.md, "From lanes to a kernel"), before it has a launch
// plan of its own: test/Integration/Inputs/levels-attention.mlir (D = 64)
// and levels-attention-d128.mlir (--D 128), compiled with their host
// functions into this binary, take the quantized operands.
// This program makes them from randn or outlier inputs with the CPU
// model's smoothing and quantizers (lib/Reference), V stored as the
// inputs' v_layout says (include/sage/Reference/Layouts.h), calls the host
// function through its C interface, and compares the output with the CPU
// model of the same recipe and with FP64 attention. With --quantizers
// levels the f16 inputs (levels-attention-f16{,-d128}.mlir) go through the
// levels' statistics and quantizers too; --variant masked adds causal, an
// additive mask and the LSE (levels-attention-f16-masked.mlir). Bars are
// options: a failed one exits 1.
//
//   sage-check-levels --B 1 --H 4 --Hkv 2 --Nq 333 --Nk 1029 --dist outliers
//
//===----------------------------------------------------------------------===//

#include "sage/Reference/Attention.h"
#include "sage/Reference/Formats.h"
#include "sage/Reference/Layouts.h"
#include "sage/Reference/Metrics.h"
#include "sage/Reference/Quantize.h"
#include "sage/Reference/Random.h"
#include "sage/Reference/Smoothing.h"
#include "sage/Runtime/CudaDriver.h"
#include "sage/Runtime/LauncherRuntime.h"
#include "sage/Runtime/Parallel.h"

#include "mlir/ExecutionEngine/CRunnerUtils.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

using namespace sage;
using namespace sage::ref;
using sage::rt::CudaDriver;

template <typename T> using Memref4 = StridedMemRefType<T, 4>;
template <typename T> using Memref5 = StridedMemRefType<T, 5>;

// The host functions --sage-levels compiles from levels-attention.mlir
// (D = 64) and levels-attention-d128.mlir (llvm.emit_c_interface):
// operands, then the output. Weak: a program of another variant than
// int8-fp8 is built without them (null here).
#define SAGE_LEVELS_ATTENTION(name)                                            \
  extern "C" __attribute__((weak)) void name(                                  \
      Memref4<int8_t> *q, Memref4<float> *qScales, Memref4<int8_t> *k,         \
      Memref4<float> *kScales, Memref5<uint8_t> *v, Memref4<float> *vScales,   \
      Memref4<float> *qMeans, Memref4<uint16_t> *kRaw, Memref4<float> *kMean,  \
      Memref4<uint16_t> *out);
SAGE_LEVELS_ATTENTION(_mlir_ciface_attention)
SAGE_LEVELS_ATTENTION(_mlir_ciface_attention_d128)
#undef SAGE_LEVELS_ATTENTION

// The host functions of levels-attention-f16{,-d128}.mlir: f16 Q, K, V,
// then the output; they launch the statistics and quantizers too.
#define SAGE_LEVELS_ATTENTION_F16(name)                                        \
  extern "C" void name(Memref4<uint16_t> *q, Memref4<uint16_t> *k,             \
                       Memref4<uint16_t> *v, Memref4<uint16_t> *out);
SAGE_LEVELS_ATTENTION_F16(_mlir_ciface_attention_f16)
SAGE_LEVELS_ATTENTION_F16(_mlir_ciface_attention_f16_d128)
#undef SAGE_LEVELS_ATTENTION_F16
// The other head dims, in the programs built with CMake's DIMS (the f16
// input rewritten to D): weak, null elsewhere.
#define SAGE_LEVELS_ATTENTION_F16_DIM(name)                                    \
  extern "C" __attribute__((weak)) void name(                                  \
      Memref4<uint16_t> *q, Memref4<uint16_t> *k, Memref4<uint16_t> *v,        \
      Memref4<uint16_t> *out);
SAGE_LEVELS_ATTENTION_F16_DIM(_mlir_ciface_attention_f16_d32)
SAGE_LEVELS_ATTENTION_F16_DIM(_mlir_ciface_attention_f16_d96)
SAGE_LEVELS_ATTENTION_F16_DIM(_mlir_ciface_attention_f16_d256)
#undef SAGE_LEVELS_ATTENTION_F16_DIM

/// The host function of the f16 input at head dim `dim`.
static auto getF16Attention(int64_t dim) {
  switch (dim) {
  case 64:
    return _mlir_ciface_attention_f16;
  case 128:
    return _mlir_ciface_attention_f16_d128;
  case 32:
    return _mlir_ciface_attention_f16_d32;
  case 96:
    return _mlir_ciface_attention_f16_d96;
  case 256:
    return _mlir_ciface_attention_f16_d256;
  default:
    return decltype(&_mlir_ciface_attention_f16)(nullptr);
  }
}

// The host function of levels-attention-f16-masked.mlir (causal, an
// additive mask [1, H, Nq, Nk], the LSE): f16 Q, K, V, the mask, then the
// output and the LSE. Weak: a program whose schedule refuses causal
// attention (clusters) does not compile it.
extern "C" __attribute__((weak)) void
_mlir_ciface_attention_f16_masked(Memref4<uint16_t> *q, Memref4<uint16_t> *k,
                                  Memref4<uint16_t> *v, Memref4<float> *mask,
                                  Memref4<uint16_t> *out,
                                  StridedMemRefType<float, 3> *lse);

namespace {

// The Q and K/V blocks the inputs' quantization groups and Q smoothing
// follow: the program's block-q and block-k (SAGE_LEVELS_BLOCK_Q and
// SAGE_LEVELS_BLOCK_K, set by CMakeLists.txt with the --sage-levels
// options).
#ifndef SAGE_LEVELS_BLOCK_Q
#define SAGE_LEVELS_BLOCK_Q 64
#endif
#ifndef SAGE_LEVELS_BLOCK_K
#define SAGE_LEVELS_BLOCK_K 64
#endif
constexpr int64_t kBlockQ = SAGE_LEVELS_BLOCK_Q, kBlockK = SAGE_LEVELS_BLOCK_K,
                  kWarpRows = 16;
// The recipe's qk granularity the program's inputs were compiled with
// (CMakeLists.txt rewrites their recipes and Q/K quants to it).
#ifndef SAGE_LEVELS_GRANULARITY
#define SAGE_LEVELS_GRANULARITY "per_thread"
#endif
// The recipe's smoothing (its `smooth` list); the quantized inputs
// (levels-attention{,-d128}.mlir) take Q and K smoothed.
#ifndef SAGE_LEVELS_SMOOTH
#define SAGE_LEVELS_SMOOTH "q, k"
#endif
constexpr std::string_view kSmooth = SAGE_LEVELS_SMOOTH;
// The recipe's variant; the quantized inputs are int8-fp8's.
#ifndef SAGE_LEVELS_VARIANT
#define SAGE_LEVELS_VARIANT "int8-fp8"
#endif
constexpr std::string_view kVariant = SAGE_LEVELS_VARIANT;
constexpr bool kSmoothQ = kSmooth.find('q') != std::string_view::npos,
               kSmoothK = kSmooth.find('k') != std::string_view::npos,
               kSmoothV = kSmooth.find('v') != std::string_view::npos;
/// Keys of a group of V stored for the P V MMA: the k of the inputs'
/// v_layout (#sage.mma_ordered<along = tokens, k = 32, order =
/// accumulator>), whose host functions take V as [B, Hkv, D, groups, 32].
constexpr int64_t kValueGroup = 32;
constexpr float kVRange = 448.0f;

struct Options {
  AttentionShape shape;
  DataKind dist = DataKind::Randn;
  uint64_t seed = 0;
  double minCosSim = 0.0, maxRelL1 = 1e9, maxModelRelL1 = 1e9;
  int64_t benchRepeats = 0; // --bench: time this many launches instead
  /// --quantizers levels: f16 Q, K, V through the levels' statistics and
  /// quantizers (levels-attention-f16.mlir); cpu: the CPU model's.
  bool levelsQuantize = false;
  /// --variant masked: levels-attention-f16-masked.mlir (causal, an
  /// additive mask, the LSE; from f16, D = 64).
  bool masked = false;
  double maxLseError = 1e9, maxModelLseError = 1e9;
  /// --input-offset: the f16 Q, K and V start this many elements into
  /// their device buffers (1: two bytes off the allocation's alignment,
  /// which the levels' quantizers check before reading 16 bytes at once).
  int64_t inputOffset = 0;
};

[[noreturn]] void fail(const std::string &message) {
  std::fprintf(stderr, "sage-check-levels: %s\n", message.c_str());
  std::exit(2);
}

Options parse(int argc, char **argv) {
  Options options;
  options.shape.headDim = 64;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (i + 1 >= argc)
      fail("option " + flag + " needs a value");
    std::string value = argv[++i];
    char *end = nullptr;
    double number = std::strtod(value.c_str(), &end);
    bool numeric = end && *end == '\0';
    auto count = [&]() -> int64_t {
      if (!numeric || number < 1 || number != std::floor(number))
        fail(flag + " must be a positive integer, got '" + value + "'");
      return static_cast<int64_t>(number);
    };
    if (flag == "--B")
      options.shape.batch = count();
    else if (flag == "--H")
      options.shape.headsQ = count();
    else if (flag == "--Hkv")
      options.shape.headsKV = count();
    else if (flag == "--Nq")
      options.shape.seqQ = count();
    else if (flag == "--Nk")
      options.shape.seqK = count();
    else if (flag == "--seed")
      options.seed = static_cast<uint64_t>(count());
    else if (flag == "--dist" && (value == "randn" || value == "outliers"))
      options.dist =
          value == "randn" ? DataKind::Randn : DataKind::ChannelOutliers;
    else if (flag == "--min-cossim" && numeric)
      options.minCosSim = number;
    else if (flag == "--max-rel-l1" && numeric)
      options.maxRelL1 = number;
    else if (flag == "--max-model-rel-l1" && numeric)
      options.maxModelRelL1 = number;
    else if (flag == "--bench")
      options.benchRepeats = count();
    else if (flag == "--input-offset" && numeric && number >= 0 &&
             number == std::floor(number))
      options.inputOffset = static_cast<int64_t>(number);
    else if (flag == "--D" &&
             (value == "32" || value == "64" || value == "96" ||
              value == "128" || value == "256"))
      options.shape.headDim = count();
    else if (flag == "--quantizers" && (value == "cpu" || value == "levels"))
      options.levelsQuantize = value == "levels";
    else if (flag == "--variant" && (value == "plain" || value == "masked"))
      options.masked = value == "masked";
    else if (flag == "--max-lse-error" && numeric)
      options.maxLseError = number;
    else if (flag == "--max-model-lse-error" && numeric)
      options.maxModelLseError = number;
    else
      fail("unknown option or value: " + flag + " " + value +
           " (--B --H --Hkv --Nq --Nk --D 32|64|96|128|256 --quantizers "
           "cpu|levels "
           "--variant plain|masked --seed --dist randn|outliers --min-cossim "
           "--max-rel-l1 --max-model-rel-l1 --max-lse-error "
           "--max-model-lse-error --bench N --input-offset ELEMENTS)");
  }
  if (!options.levelsQuantize && !(kSmoothQ && kSmoothK && !kSmoothV))
    fail("this program's recipe smooths [" SAGE_LEVELS_SMOOTH
         "]; its quantized inputs take Q and K smoothed: pass --quantizers "
         "levels");
  if (!options.levelsQuantize && kVariant != "int8-fp8")
    fail("this program's recipe is " SAGE_LEVELS_VARIANT
         "; its quantized inputs are int8-fp8's: pass --quantizers levels");
  if (options.masked && !_mlir_ciface_attention_f16_masked)
    fail("this program has no --variant masked kernel: its schedule "
         "(" SAGE_LEVELS_OPTIONS ") refuses causal attention");
  if (options.masked &&
      (options.shape.headDim != 64 || !options.levelsQuantize))
    fail("--variant masked takes --D 64 and --quantizers levels "
         "(levels-attention-f16-masked.mlir)");
  if (int64_t dim = options.shape.headDim; dim != 64 && dim != 128) {
    if (!options.levelsQuantize || options.masked)
      fail("--D " + std::to_string(dim) +
           " takes --quantizers levels and --variant plain (the f16 input "
           "at that D)");
    if (!getF16Attention(dim))
      fail("this program has no D = " + std::to_string(dim) +
           " kernel (CMake's DIMS builds one)");
  }
  if (options.inputOffset != 0 && !options.levelsQuantize)
    fail("--input-offset moves the f16 inputs: pass --quantizers levels");
  if (!options.shape.isValid())
    fail("--H must be a multiple of --Hkv");
  return options;
}

/// The Q/K granularity named SAGE_LEVELS_GRANULARITY.
Granularity getGranularity() {
  for (Granularity granularity : {Granularity::PerThread, Granularity::PerWarp,
                                  Granularity::PerBlock, Granularity::PerToken})
    if (std::string(toString(granularity)) == SAGE_LEVELS_GRANULARITY)
      return granularity;
  fail("unknown SAGE_LEVELS_GRANULARITY " SAGE_LEVELS_GRANULARITY);
}

/// The recipe the program's inputs compile, for the CPU model: the
/// variant's preset with their groups and smoothing.
Recipe getRecipe() {
  std::optional<Recipe> preset = recipeFromVariantName(kVariant);
  if (!preset)
    fail("unknown SAGE_LEVELS_VARIANT " SAGE_LEVELS_VARIANT);
  Recipe recipe = *preset;
  recipe.granularity = getGranularity();
  recipe.smoothQ = kSmoothQ;
  recipe.smoothK = kSmoothK;
  recipe.smoothV = kSmoothV;
  recipe.blockQ = kBlockQ;
  recipe.warpRows = kWarpRows;
  recipe.blockK = kBlockK;
  return recipe;
}

/// A row-major host tensor of `Rank` dimensions and its device copy, which
/// starts `offset` elements into its allocation.
template <typename T, int Rank = 4> struct Tensor {
  int64_t sizes[Rank];
  std::vector<T> host;
  CUdeviceptr device = 0;
  int64_t offset = 0;

  template <typename... Sizes>
  explicit Tensor(Sizes... dims)
      : sizes{dims...}, host(static_cast<size_t>((dims * ...))) {
    static_assert(sizeof...(Sizes) == Rank, "one size a dimension");
  }
  template <typename... Indices> T &at(Indices... indices) {
    static_assert(sizeof...(Indices) == Rank, "one index a dimension");
    int64_t linear = 0, d = 0;
    ((linear = linear * sizes[d++] + indices), ...);
    return host[linear];
  }
  StridedMemRefType<T, Rank> descriptor() const {
    StridedMemRefType<T, Rank> memref;
    memref.basePtr = reinterpret_cast<T *>(device);
    memref.data = memref.basePtr + offset;
    memref.offset = 0;
    int64_t stride = 1;
    for (int d = Rank - 1; d >= 0; --d) {
      memref.sizes[d] = sizes[d];
      memref.strides[d] = stride;
      stride *= sizes[d];
    }
    return memref;
  }
  size_t bytes() const { return host.size() * sizeof(T); }
};

void check(const CudaDriver &api, CUresult result, const std::string &what) {
  std::string error = api.check(result, what);
  if (!error.empty())
    fail(error);
}

template <typename T, int Rank>
void upload(const CudaDriver &api, Tensor<T, Rank> &tensor) {
  size_t before = static_cast<size_t>(tensor.offset) * sizeof(T);
  check(api, api.memAlloc(&tensor.device, before + tensor.bytes()),
        "cuMemAlloc");
  check(api,
        api.memcpyHtoD(tensor.device + before, tensor.host.data(),
                       tensor.bytes()),
        "cuMemcpyHtoD");
}

void report(const char *name, const AccuracyMetrics &m) {
  std::printf("%s: cossim=%.6f rel_l1=%.4f rmse=%.1e max_abs=%.1e "
              "nonfinite=%zu\n",
              name, m.cosSim, m.relL1, m.rmse, m.maxAbsError, m.nonFinite);
}

/// --bench: `launch` timed `options.benchRepeats` times (each call
/// launches and synchronizes; the median is reported, in TOPS of 4 B H Nq
/// Nk D operations). The references are not computed at these sizes; the
/// first launch's output, already copied to `out`, must have no poison
/// (NaN) left.
template <typename Launch>
int bench(const Options &options, const Tensor<uint16_t> &out, Launch launch) {
  int64_t unwritten = 0;
  for (uint16_t bits : out.host)
    unwritten += std::isnan(decodeF16(bits));
  std::vector<double> ms;
  for (int64_t i = 0; i < options.benchRepeats; ++i) {
    auto start = std::chrono::steady_clock::now();
    launch();
    if (sageLauncherTakeStatus() != 0)
      fail(std::string("the launch failed: ") + sageLauncherLastError());
    ms.push_back(std::chrono::duration<double, std::milli>(
                     std::chrono::steady_clock::now() - start)
                     .count());
  }
  std::sort(ms.begin(), ms.end());
  double median = ms[ms.size() / 2];
  const AttentionShape &s = options.shape;
  double ops = 4.0 * s.batch * s.headsQ * s.seqQ * s.seqK * s.headDim;
  std::printf("bench: B=%lld H=%lld Hkv=%lld Nq=%lld Nk=%lld D=%lld: "
              "median %.3f ms of %lld launches (host clock, each "
              "synchronized), %.1f TOPS; NaN left in the output: %lld\n",
              static_cast<long long>(s.batch), static_cast<long long>(s.headsQ),
              static_cast<long long>(s.headsKV), static_cast<long long>(s.seqQ),
              static_cast<long long>(s.seqK), static_cast<long long>(s.headDim),
              median, static_cast<long long>(options.benchRepeats),
              ops / (median * 1e-3) / 1e12, static_cast<long long>(unwritten));
  return unwritten == 0 ? 0 : 1;
}

/// The operands of levels-attention{,-d128}.mlir's host function, on the
/// host and the device.
struct QuantizedOperands {
  Tensor<int8_t> q;
  Tensor<float> qScales;
  Tensor<int8_t> k;
  Tensor<float> kScales;
  Tensor<uint8_t, 5> v;
  Tensor<float> vScales, qMeans;
  Tensor<uint16_t> kRaw;
  Tensor<float> kMean;
};

/// The operands of levels-attention-f16{,-d128}.mlir's host function.
struct F16Operands {
  Tensor<uint16_t> q, k, v;
};

/// The host loops that make a large problem's operands (gigabytes at
/// N = 16k, minutes on one core) split over every core; the values do not
/// depend on the split.
ForRanges onEveryCore() {
  return sage::rt::forRangesOn(sage::rt::defaultThreads());
}

/// `work(b, h)` for every batch `b` < `batches` and head `h` < `heads`, on
/// every core.
void forEachHead(int64_t batches, int64_t heads,
                 const std::function<void(int64_t, int64_t)> &work) {
  sage::rt::parallelFor(static_cast<size_t>(batches * heads),
                        sage::rt::defaultThreads(), [&](size_t i) {
                          work(static_cast<int64_t>(i) / heads,
                               static_cast<int64_t>(i) % heads);
                        });
}

/// The kernel alone, on operands the CPU model's quantizers made (as the
/// decomposition's sage.smooth / sage.quantize define them): uploads them
/// and returns the call of levels-attention{,-d128}.mlir's host function.
std::function<void(Memref4<uint16_t> *)>
prepareQuantized(const CudaDriver &api, const AttentionShape &shape,
                 const AttentionData &data) {
  const int64_t B = shape.batch, H = shape.headsQ, Hkv = shape.headsKV;
  const int64_t Nq = shape.seqQ, Nk = shape.seqK, dim = shape.headDim;
  // The groups of the inputs' q_quant and k_quant, as the CPU model makes
  // them for the recipe (per_warp K: one scale a block).
  Granularity granularity = getGranularity();
  GroupLayout qLayout{granularity, OperandRole::A, kBlockQ, kWarpRows};
  GroupLayout kLayout{granularity, OperandRole::B, kBlockK, kWarpRows};
  const int64_t qGroups = numGroups(qLayout, Nq, dim);
  const int64_t kGroups = numGroups(kLayout, Nk, dim);
  const int64_t qBlocks = (Nq + kBlockQ - 1) / kBlockQ;

  Tensor<int8_t> q(B, H, Nq, dim), k(B, Hkv, Nk, dim);
  Tensor<float> qScales(B, H, qGroups, 1), kScales(B, Hkv, kGroups, 1);
  // V stored for the P V MMA ([B, Hkv, D, groups, 32], v_layout): key
  // group g's position p holds key 32 g + accumulatorOrderKey(32, p),
  // zero past the last key.
  const int64_t vGroups = (Nk + kValueGroup - 1) / kValueGroup;
  Tensor<uint8_t, 5> v(B, Hkv, dim, vGroups, kValueGroup);
  Tensor<float> vScales(B, Hkv, 1, dim), qMeans(B, H, qBlocks, dim);
  Tensor<uint16_t> kRaw(B, Hkv, Nk, dim);
  Tensor<float> kMean(B, Hkv, 1, dim);

  // The operands as the decomposition's sage.smooth / sage.quantize define
  // them, with the CPU model's quantizers; a (batch, head) a task, each
  // writing its own slices.
  forEachHead(B, H, [&](int64_t b, int64_t h) {
    const float *x = data.q.data() + shape.qOffset(b, h);
    SmoothedBlocks smoothed = smoothBlocks(x, Nq, dim, kBlockQ);
    IntQuantized quantized =
        quantizeInt(smoothed.values.data(), Nq, dim, kInt8Max, qLayout);
    std::memcpy(&q.at(b, h, 0, 0), quantized.values.data(), Nq * dim);
    std::memcpy(&qScales.at(b, h, 0, 0), quantized.scales.data(),
                qGroups * sizeof(float));
    std::memcpy(&qMeans.at(b, h, 0, 0), smoothed.blockMeans.data(),
                qBlocks * dim * sizeof(float));
  });
  forEachHead(B, Hkv, [&](int64_t b, int64_t h) {
    const float *x = data.k.data() + shape.kvOffset(b, h);
    SmoothedTokens smoothed = smoothTokens(x, Nk, dim);
    IntQuantized quantized =
        quantizeInt(smoothed.values.data(), Nk, dim, kInt8Max, kLayout);
    std::memcpy(&k.at(b, h, 0, 0), quantized.values.data(), Nk * dim);
    std::memcpy(&kScales.at(b, h, 0, 0), quantized.scales.data(),
                kGroups * sizeof(float));
    std::memcpy(&kMean.at(b, h, 0, 0), smoothed.mean.data(),
                dim * sizeof(float));
    for (int64_t t = 0; t < Nk; ++t)
      for (int64_t d = 0; d < dim; ++d)
        kRaw.at(b, h, t, d) = encodeF16(x[t * dim + d]);
    // V per channel into E4M3's range: delta = max |V[:, d]| / V_r.
    const float *y = data.v.data() + shape.kvOffset(b, h);
    for (int64_t d = 0; d < dim; ++d) {
      float absMax = 0.0f;
      for (int64_t t = 0; t < Nk; ++t)
        absMax = absMaxStep(absMax, y[t * dim + d]);
      float delta = absMax / kVRange;
      vScales.at(b, h, 0, d) = delta;
      for (int64_t g = 0; g < vGroups; ++g) {
        for (int64_t p = 0; p < kValueGroup; ++p) {
          int64_t t = g * kValueGroup + accumulatorOrderKey(kValueGroup, p);
          v.at(b, h, d, g, p) = t < Nk && delta != 0.0f
                                    ? encodeE4M3(y[t * dim + d] / delta)
                                    : encodeE4M3(0.0f);
        }
      }
    }
  });
  auto operands = std::make_shared<QuantizedOperands>(
      QuantizedOperands{std::move(q), std::move(qScales), std::move(k),
                        std::move(kScales), std::move(v), std::move(vScales),
                        std::move(qMeans), std::move(kRaw), std::move(kMean)});
  QuantizedOperands &o = *operands;
  for (auto *tensor : {&o.qScales, &o.kScales, &o.vScales, &o.qMeans, &o.kMean})
    upload(api, *tensor);
  upload(api, o.q);
  upload(api, o.k);
  upload(api, o.v);
  upload(api, o.kRaw);
  auto *attention =
      dim == 64 ? _mlir_ciface_attention : _mlir_ciface_attention_d128;
  if (!attention)
    fail("the quantized inputs' host function is not in this program");
  return [operands, attention](Memref4<uint16_t> *out) {
    QuantizedOperands &o = *operands;
    auto dq = o.q.descriptor();
    auto dqs = o.qScales.descriptor();
    auto dk = o.k.descriptor();
    auto dks = o.kScales.descriptor();
    auto dv = o.v.descriptor();
    auto dvs = o.vScales.descriptor();
    auto dqm = o.qMeans.descriptor();
    auto dkr = o.kRaw.descriptor();
    auto dkm = o.kMean.descriptor();
    attention(&dq, &dqs, &dk, &dks, &dv, &dvs, &dqm, &dkr, &dkm, out);
  };
}

/// `data`'s Q, K, V in f16, uploaded.
F16Operands uploadF16Inputs(const CudaDriver &api, const AttentionShape &shape,
                            const AttentionData &data, int64_t offset) {
  F16Operands o{
      Tensor<uint16_t>(shape.batch, shape.headsQ, shape.seqQ, shape.headDim),
      Tensor<uint16_t>(shape.batch, shape.headsKV, shape.seqK, shape.headDim),
      Tensor<uint16_t>(shape.batch, shape.headsKV, shape.seqK, shape.headDim)};
  for (auto [tensor, values] :
       {std::pair{&o.q, &data.q}, {&o.k, &data.k}, {&o.v, &data.v}}) {
    onEveryCore()(values->size(), [&, tensor = tensor,
                                   values = values](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i)
        tensor->host[i] = encodeF16((*values)[i]);
    });
    tensor->offset = offset;
    upload(api, *tensor);
  }
  return o;
}

/// The statistics, quantizers and kernel of the levels from f16 Q, K, V:
/// uploads them and returns the call of levels-attention-f16{,-d128}.mlir's
/// host function.
std::function<void(Memref4<uint16_t> *)> prepareF16(const CudaDriver &api,
                                                    const AttentionShape &shape,
                                                    const AttentionData &data,
                                                    int64_t inputOffset) {
  auto operands = std::make_shared<F16Operands>(
      uploadF16Inputs(api, shape, data, inputOffset));
  auto *attention = getF16Attention(shape.headDim);
  return [operands, attention](Memref4<uint16_t> *out) {
    F16Operands &o = *operands;
    auto dq = o.q.descriptor();
    auto dk = o.k.descriptor();
    auto dv = o.v.descriptor();
    attention(&dq, &dk, &dv, out);
  };
}

/// The operands of levels-attention-f16-masked.mlir's host function.
struct MaskedOperands {
  F16Operands inputs;
  Tensor<float> mask;
  Tensor<float, 3> lse;
};

/// An additive mask for `data` ([1, H, Nq, Nk], natural-log units):
/// uniform biases in [-2, 2], and one key in ten dropped (-inf).
void addMask(AttentionData &data, uint64_t seed) {
  const AttentionShape &s = data.shape;
  Rng rng(seed ^ 0x6d61736bULL);
  data.mask.batch = 1;
  data.mask.heads = s.headsQ;
  data.mask.bias.resize(static_cast<size_t>(s.headsQ * s.seqQ * s.seqK));
  for (float &bias : data.mask.bias)
    bias = rng.uniform() < 0.1 ? -std::numeric_limits<float>::infinity()
                               : static_cast<float>(4.0 * rng.uniform() - 2.0);
}

/// The statistics, quantizers and kernel of the levels from f16 Q, K, V
/// with `data`'s mask: uploads them and returns the call of
/// levels-attention-f16-masked.mlir's host function, whose LSE lands in
/// `operands->lse`.
std::function<void(Memref4<uint16_t> *)>
prepareMasked(const CudaDriver &api, const AttentionShape &shape,
              const AttentionData &data, int64_t inputOffset,
              std::shared_ptr<MaskedOperands> &operands) {
  operands = std::make_shared<MaskedOperands>(MaskedOperands{
      uploadF16Inputs(api, shape, data, inputOffset),
      Tensor<float>(int64_t(1), shape.headsQ, shape.seqQ, shape.seqK),
      Tensor<float, 3>(shape.batch, shape.headsQ, shape.seqQ)});
  MaskedOperands &o = *operands;
  o.mask.host = data.mask.bias;
  upload(api, o.mask);
  // Poisoned like the output.
  std::fill(o.lse.host.begin(), o.lse.host.end(),
            std::numeric_limits<float>::quiet_NaN());
  upload(api, o.lse);
  return [operands](Memref4<uint16_t> *out) {
    MaskedOperands &o = *operands;
    auto dq = o.inputs.q.descriptor();
    auto dk = o.inputs.k.descriptor();
    auto dv = o.inputs.v.descriptor();
    auto dmask = o.mask.descriptor();
    auto dlse = o.lse.descriptor();
    _mlir_ciface_attention_f16_masked(&dq, &dk, &dv, &dmask, out, &dlse);
  };
}

/// The largest difference between the kernel's LSE and `reference`'s over
/// the rows where both are finite, and the rows where they disagree on
/// being finite (a row that sees no key is -inf) or the kernel's is NaN.
struct LseError {
  double maxAbs = 0.0;
  int64_t mismatched = 0;
};
template <typename T>
LseError compareLse(const std::vector<float> &lse,
                    const std::vector<T> &reference) {
  LseError error;
  for (size_t i = 0; i < lse.size(); ++i) {
    double ref = static_cast<double>(reference[i]);
    if (std::isnan(lse[i]) || std::isinf(lse[i]) != std::isinf(ref) ||
        (std::isinf(ref) && lse[i] != ref)) {
      ++error.mismatched;
      continue;
    }
    if (!std::isinf(ref))
      error.maxAbs = std::max(error.maxAbs, std::fabs(lse[i] - ref));
  }
  return error;
}

} // namespace

int main(int argc, char **argv) {
  Options options = parse(argc, argv);
  const AttentionShape &shape = options.shape;
  AttentionData data = makeAttentionData(shape, options.dist, options.seed,
                                         ElementFormat::F16, onEveryCore());
  Recipe recipe = getRecipe();
  Causal causal = Causal::None;
  if (options.masked) {
    addMask(data, options.seed);
    causal = recipe.causal = Causal::BottomRight;
  }
  const int64_t B = shape.batch, H = shape.headsQ, Hkv = shape.headsKV;
  const int64_t Nq = shape.seqQ, Nk = shape.seqK, dim = shape.headDim;

  std::string error;
  const CudaDriver *api = CudaDriver::load(error);
  if (!api)
    fail(error);
  CUdevice device = 0;
  CUcontext context = nullptr;
  check(*api, api->deviceGet(&device, 0), "cuDeviceGet");
  check(*api, api->devicePrimaryCtxRetain(&context, device),
        "cuDevicePrimaryCtxRetain");
  check(*api, api->ctxSetCurrent(context), "cuCtxSetCurrent");
  std::shared_ptr<MaskedOperands> masked;
  auto attention = options.masked ? prepareMasked(*api, shape, data,
                                                  options.inputOffset, masked)
                   : options.levelsQuantize
                       ? prepareF16(*api, shape, data, options.inputOffset)
                       : prepareQuantized(*api, shape, data);
  // Poison the output: a NaN wherever the kernel does not write.
  Tensor<uint16_t> out(B, H, Nq, dim);
  std::fill(out.host.begin(), out.host.end(), uint16_t(0x7e00));
  upload(*api, out);
  auto dout = out.descriptor();
  attention(&dout);
  if (sageLauncherTakeStatus() != 0)
    fail(std::string("the launch failed: ") + sageLauncherLastError());
  check(*api, api->memcpyDtoH(out.host.data(), out.device, out.bytes()),
        "cuMemcpyDtoH of the output (a fault in the kernel shows here)");
  if (options.benchRepeats > 0)
    return bench(options, out, [&] { attention(&dout); });

  std::vector<float> output(out.host.size());
  for (size_t i = 0; i < output.size(); ++i)
    output[i] = decodeF16(out.host[i]);
  std::vector<double> exactLse;
  std::vector<float> modelLse;
  std::vector<double> exact =
      exactAttention(data.view(), causal, 0.0, masked ? &exactLse : nullptr);
  std::vector<float> model =
      sageAttention(data.view(), recipe, masked ? &modelLse : nullptr);
  AccuracyMetrics vsExact = compareOutputs(output, exact);
  AccuracyMetrics vsModel = compareOutputs(
      output.data(), std::vector<double>(model.begin(), model.end()).data(),
      output.size());
  std::printf("kernel: --sage-levels " SAGE_LEVELS_OPTIONS
              " (levels-attention%s%s%s.mlir%s), "
              "%s %s smooth [%s], D=%lld, quantizers: %s\n",
              options.levelsQuantize ? "-f16" : "", dim == 128 ? "-d128" : "",
              masked ? "-masked" : "",
              dim == 64 || dim == 128 ? "" : " at that D", SAGE_LEVELS_VARIANT,
              toString(recipe.granularity), SAGE_LEVELS_SMOOTH,
              static_cast<long long>(dim),
              options.levelsQuantize ? "the levels'" : "the CPU model's");
  std::printf("sizes: B=%lld H=%lld Hkv=%lld Nq=%lld Nk=%lld dist=%s "
              "seed=%llu\n",
              static_cast<long long>(B), static_cast<long long>(H),
              static_cast<long long>(Hkv), static_cast<long long>(Nq),
              static_cast<long long>(Nk), toString(options.dist),
              static_cast<unsigned long long>(options.seed));
  report("vs fp64", vsExact);
  report("vs model", vsModel);
  bool ok = vsExact.nonFinite == 0 && vsExact.cosSim >= options.minCosSim &&
            vsExact.relL1 <= options.maxRelL1 &&
            vsModel.relL1 <= options.maxModelRelL1;
  if (masked) {
    check(*api,
          api->memcpyDtoH(masked->lse.host.data(), masked->lse.device,
                          masked->lse.bytes()),
          "cuMemcpyDtoH of the LSE");
    LseError lseExact = compareLse(masked->lse.host, exactLse);
    LseError lseModel = compareLse(masked->lse.host, modelLse);
    std::printf("lse vs fp64: max_abs=%.1e mismatched=%lld; vs model: "
                "max_abs=%.1e mismatched=%lld\n",
                lseExact.maxAbs, static_cast<long long>(lseExact.mismatched),
                lseModel.maxAbs, static_cast<long long>(lseModel.mismatched));
    ok = ok && lseExact.mismatched == 0 && lseModel.mismatched == 0 &&
         lseExact.maxAbs <= options.maxLseError &&
         lseModel.maxAbs <= options.maxModelLseError;
  }
  std::printf("%s\n", ok ? "PASS" : "FAIL: a bar is not met");
  return ok ? 0 : 1;
}
