//===- RunOptions.cpp - Command line of sage-run --------------------------===//

#include "sage/Runtime/RunOptions.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace sage::rt;

const char *sage::rt::runUsage() {
  return R"(usage: sage-run PLAN.json [options]
       sage-run --probe [--device N]

Runs a sage launch plan (PLAN.json and its PTX) on a CUDA GPU, checks the
output against the FP64 attention and the CPU model, and benchmarks it.

sizes:
  --B N --H N --Hkv N     batch, query heads, key/value heads (1, 1, =H)
  --Nq N --Nk N           query and key tokens (128, =Nq); all sizes are
                          32-bit (docs/LaunchPlan.md, "Size limits")
  --D N                   head dimension, checked against the plan
inputs:
  --seed N                random seed (0)
  --dist randn|outliers|sink
                          input distribution (randn)
  --q/--k/--v FILE.npy    read an input (little-endian f32 or f16, C order,
                          in the plan's layout)
  --mask-npy FILE.npy     read the plan's mask (the shape of its mask
                          buffer; bool '|b1' for i1, f32 or f16 for an
                          additive mask, finite or -inf); without it the
                          mask is drawn from --seed (docs/LaunchPlan.md)
outputs:
  --out FILE.npy          write O as f32, in the plan's layout
  --lse FILE.npy          write the LSE as f32 (plans with an lse buffer)
checks:
  --no-reference          skip the FP64 comparison (and, unless --model,
                          the CPU model)
  --model, --no-model     compare with the CPU model of the kernel
  --min-cossim X          fail (exit 1) if CosSim vs FP64 is below X
  --max-rel-l1 X          fail if RelL1 vs FP64 is above X
  --max-model-rel-l1 X    fail if RelL1 vs the CPU model is above X
  --max-lse-abs X         fail if the LSE is off FP64 by more than X
  --non-finite fail|propagate|refuse
                          non-finite values (fail): any in O fails the
                          check; propagate: inputs may hold NaN / inf, and
                          O must be non-finite wherever FP64 is (more is
                          allowed: a quantization group); refuse: a
                          non-finite input from a file is an error before
                          any launch (docs/Algorithm.md, "Non-finite inputs")
  --sample-rows K         compute FP64, the CPU model and the metrics over
                          K query rows only (seeded by --seed; the first and
                          last token of the first and last head, the rest
                          spread over B, H, Nq); K >= B*H*Nq checks every
                          row: for sizes too long to check whole
benchmark:
  --bench                 time the whole plan and the attention kernel(s)
  --warmup N --repeat N   iterations (5, 20); the median is reported
other:
  --ptx FILE              PTX to load instead of the plan's
  --device N              CUDA device ordinal (0)
  --threads N             CPU threads for the inputs and the references
                          (all cores)
  --dry-run               print buffers and launches; no GPU needed
  --probe                 print the device and exit 0 if one is usable
  --verbose               print kernel attributes (registers, spills)
  --quiet                 print nothing but errors
exit status: 0 ok, 1 accuracy check failed, 2 usage, plan or CUDA error
)";
}

/// Parses a whole decimal integer in [minimum, maximum].
static bool parseInteger(const std::string &text, int64_t minimum,
                         int64_t maximum, int64_t &value) {
  if (text.empty() ||
      (text[0] != '-' && !std::isdigit(static_cast<unsigned char>(text[0]))))
    return false;
  errno = 0;
  char *end = nullptr;
  long long parsed = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || parsed < minimum || parsed > maximum)
    return false;
  value = parsed;
  return true;
}

/// Parses a whole finite floating-point number.
static bool parseDouble(const std::string &text, double &value) {
  if (text.empty())
    return false;
  errno = 0;
  char *end = nullptr;
  double parsed = std::strtod(text.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(parsed))
    return false;
  value = parsed;
  return true;
}

std::string sage::rt::parseRunOptions(int argc, const char *const *argv,
                                      RunOptions &options) {
  RunOptions result;
  bool headsKVSet = false, seqKSet = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-h")
      arg = "--help";
    if (arg.size() < 2 || arg.compare(0, 2, "--") != 0 || arg == "--") {
      if (!arg.empty() && arg[0] == '-' && arg != "-")
        return "unknown option '" + arg + "'";
      if (!result.planPath.empty())
        return "unexpected argument '" + arg + "' (the plan is '" +
               result.planPath + "')";
      result.planPath = arg;
      continue;
    }
    std::string name = arg, inlineValue;
    bool hasInline = false;
    size_t equals = arg.find('=');
    if (equals != std::string::npos) {
      name = arg.substr(0, equals);
      inlineValue = arg.substr(equals + 1);
      hasInline = true;
    }
    // Flags without a value.
    bool *flag = nullptr;
    if (name == "--bench")
      flag = &result.bench;
    else if (name == "--probe")
      flag = &result.probe;
    else if (name == "--dry-run")
      flag = &result.dryRun;
    else if (name == "--quiet")
      flag = &result.quiet;
    else if (name == "--verbose")
      flag = &result.verbose;
    else if (name == "--help")
      flag = &result.help;
    if (flag || name == "--no-reference" || name == "--model" ||
        name == "--no-model") {
      if (hasInline)
        return "option '" + name + "' takes no value";
      if (flag)
        *flag = true;
      else if (name == "--no-reference")
        result.reference = false;
      else
        result.model = name == "--model";
      continue;
    }
    // Options with a value.
    static const char *const kValueOptions[] = {
        "--B",           "--H",           "--Hkv",
        "--Nq",          "--Nk",          "--D",
        "--min-cossim",  "--max-rel-l1",  "--max-model-rel-l1",
        "--max-lse-abs", "--ptx",         "--q",
        "--k",           "--v",           "--out",
        "--lse",         "--seed",        "--dist",
        "--warmup",      "--repeat",      "--device",
        "--threads",     "--sample-rows", "--mask-npy",
        "--non-finite"};
    bool known = false;
    for (const char *option : kValueOptions)
      known |= name == option;
    if (!known)
      return "unknown option '" + name + "'";
    std::string value;
    if (hasInline) {
      value = inlineValue;
    } else {
      if (i + 1 >= argc)
        return "option '" + name + "' needs a value";
      value = argv[++i];
    }
    auto badValue = [&](const char *expected) {
      return "option '" + name + "' expects " + expected + ", got '" + value +
             "'";
    };
    int64_t integer = 0;
    const std::pair<const char *, int64_t *> sizeOptions[] = {
        {"--B", &result.sizes.batch},     {"--H", &result.sizes.heads},
        {"--Hkv", &result.sizes.headsKV}, {"--Nq", &result.sizes.seqQ},
        {"--Nk", &result.sizes.seqK},     {"--D", &result.sizes.headDim}};
    bool matched = false;
    for (const auto &[optionName, target] : sizeOptions)
      if (name == optionName) {
        // The kernels take i32 sizes; bindSizes checks their products.
        if (!parseInteger(value, 1, INT32_MAX, integer))
          return badValue("an integer from 1 to 2147483647");
        *target = integer;
        headsKVSet |= name == "--Hkv";
        seqKSet |= name == "--Nk";
        matched = true;
      }
    if (matched)
      continue;
    const std::pair<const char *, std::optional<double> *> limits[] = {
        {"--min-cossim", &result.minCosSim},
        {"--max-rel-l1", &result.maxRelL1},
        {"--max-model-rel-l1", &result.maxModelRelL1},
        {"--max-lse-abs", &result.maxLseAbs}};
    for (const auto &[optionName, target] : limits)
      if (name == optionName) {
        double number = 0.0;
        if (!parseDouble(value, number))
          return badValue("a number");
        *target = number;
        matched = true;
      }
    if (matched)
      continue;
    const std::pair<const char *, std::string *> paths[] = {
        {"--ptx", &result.ptxPath},      {"--q", &result.qPath},
        {"--k", &result.kPath},          {"--v", &result.vPath},
        {"--out", &result.outPath},      {"--lse", &result.lsePath},
        {"--mask-npy", &result.maskPath}};
    for (const auto &[optionName, target] : paths)
      if (name == optionName) {
        if (value.empty())
          return badValue("a file name");
        *target = value;
        matched = true;
      }
    if (matched)
      continue;
    if (name == "--seed") {
      if (!parseInteger(value, 0, INT64_MAX, integer))
        return badValue("a non-negative integer");
      result.seed = static_cast<uint64_t>(integer);
    } else if (name == "--dist") {
      if (value == "randn")
        result.dist = sage::ref::DataKind::Randn;
      else if (value == "outliers")
        result.dist = sage::ref::DataKind::ChannelOutliers;
      else if (value == "sink")
        result.dist = sage::ref::DataKind::AttentionSink;
      else
        return badValue("randn, outliers or sink");
    } else if (name == "--non-finite") {
      if (value == "fail")
        result.nonFinite = NonFinitePolicy::Fail;
      else if (value == "propagate")
        result.nonFinite = NonFinitePolicy::Propagate;
      else if (value == "refuse")
        result.nonFinite = NonFinitePolicy::Refuse;
      else
        return badValue("fail, propagate or refuse");
    } else if (name == "--warmup") {
      if (!parseInteger(value, 0, 1000000, integer))
        return badValue("a non-negative integer");
      result.warmup = static_cast<int>(integer);
    } else if (name == "--repeat") {
      if (!parseInteger(value, 1, 1000000, integer))
        return badValue("a positive integer");
      result.repeat = static_cast<int>(integer);
    } else if (name == "--device") {
      if (!parseInteger(value, 0, 1024, integer))
        return badValue("a device ordinal");
      result.device = static_cast<int>(integer);
    } else if (name == "--sample-rows") {
      if (!parseInteger(value, 1, INT64_MAX, integer))
        return badValue("a positive integer");
      result.sampleRows = integer;
    } else if (name == "--threads") {
      if (!parseInteger(value, 0, 4096, integer))
        return badValue("a non-negative integer");
      result.threads = static_cast<unsigned>(integer);
    }
  }
  if (!headsKVSet)
    result.sizes.headsKV = result.sizes.heads;
  if (!seqKSet)
    result.sizes.seqK = result.sizes.seqQ;
  if (!result.reference) {
    const std::pair<const char *, bool> needReference[] = {
        {"--min-cossim", result.minCosSim.has_value()},
        {"--max-rel-l1", result.maxRelL1.has_value()},
        {"--max-lse-abs", result.maxLseAbs.has_value()}};
    for (const auto &[optionName, given] : needReference)
      if (given)
        return std::string("option '") + optionName +
               "' checks against the fp64 reference, which --no-reference "
               "turns off";
  }
  if (result.maxModelRelL1) {
    if (result.model == false)
      return "option '--max-model-rel-l1' checks against the cpu model, "
             "which --no-model turns off";
    result.model = true;
  }
  if (result.sampleRows && !result.reference && !result.modelEnabled())
    return "option '--sample-rows' picks the rows of the fp64 and cpu model "
           "checks, which --no-reference turns off";
  if (result.planPath.empty() && !result.probe && !result.help)
    return "no plan given (usage: sage-run PLAN.json [options]; --help)";
  options = std::move(result);
  return std::string();
}
