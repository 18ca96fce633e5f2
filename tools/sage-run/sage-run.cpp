//===- sage-run.cpp - Run, check and time a sage launch plan --------------===//
//
// sage-run PLAN.json [options] loads a launch plan and its PTX with the
// CUDA Driver API, runs it on generated (or .npy) inputs, compares the
// output with the FP64 attention and the CPU model of the kernel, and
// optionally times it. See `sage-run --help` and docs/LaunchPlan.md.
//
// Exit status: 0 ok, 1 an accuracy check failed, 2 a usage, plan, size or
// CUDA error (one line "sage-run: MESSAGE" on stderr).
//
//===----------------------------------------------------------------------===//

#include "sage/Reference/Attention.h"
#include "sage/Reference/Metrics.h"
#include "sage/Reference/Random.h"
#include "sage/Runtime/CudaDevice.h"
#include "sage/Runtime/HostData.h"
#include "sage/Runtime/HostMemory.h"
#include "sage/Runtime/Mask.h"
#include "sage/Runtime/Npy.h"
#include "sage/Runtime/ParallelReference.h"
#include "sage/Runtime/PlanExecutor.h"
#include "sage/Runtime/RunOptions.h"
#include "sage/Runtime/Throughput.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

using namespace sage::rt;
namespace ref = sage::ref;

namespace {
enum ExitCode { kExitOk = 0, kExitCheckFailed = 1, kExitError = 2 };

/// What came back from the GPU.
struct DeviceResults {
  /// O in canonical order (the only full-size f32 copy of it: --out lays it
  /// out again when asked).
  std::vector<float> out;
  /// The LSE ([B, H, Nq] order), empty if the plan has none.
  std::vector<float> lse;
  BenchTimes times;
  int bufferSets = 1;
};

/// The query rows the FP64 and model checks cover (--sample-rows).
struct RowSample {
  /// Ascending query-row indices ((b * H + h) * Nq + i); empty when every
  /// row is checked.
  std::vector<int64_t> rows;
  /// B * H * Nq.
  int64_t total = 0;

  bool sampled() const { return !rows.empty(); }
  /// Returns " over K sampled rows", or "" when every row is checked: the
  /// metrics lines and the failures say which.
  std::string scope() const {
    return sampled() ? " over " + std::to_string(rows.size()) + " sampled rows"
                     : std::string();
  }
};

/// The GPU side of a run (the executor goes before the device).
struct DeviceSession {
  std::unique_ptr<CudaDevice> device;
  std::unique_ptr<PlanExecutor> executor;
};
} // namespace

/// Prints "sage-run: MESSAGE" on stderr and returns \p code.
static int fail(const std::string &message, int code = kExitError) {
  std::fprintf(stderr, "sage-run: %s\n", message.c_str());
  return code;
}

/// Prints a line on stdout unless quiet.
static void say(const RunOptions &options, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
static void say(const RunOptions &options, const char *format, ...) {
  if (options.quiet)
    return;
  va_list args;
  va_start(args, format);
  std::vprintf(format, args);
  va_end(args);
  std::fflush(stdout);
}

/// The CPU threads of the host work (inputs, encoding, the references).
static unsigned hostThreads(const RunOptions &options) {
  return options.threads ? options.threads : defaultThreads();
}

/// Returns the folder of \p path with a trailing '/', or "".
static std::string folderOf(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

/// The input's format; checkSupported has refused plans without one.
static ref::ElementFormat getInputFormat(const LaunchPlan &plan) {
  return *getReferenceFormat(plan.inputType);
}

/// Returns the canonical extents of tensor \p name ("q", "k", "v", "o").
static CanonicalDims dimsOf(const LaunchPlan &plan, const SizeBindings &sizes,
                            const std::string &name) {
  bool query = name == "q" || name == "o";
  CanonicalDims dims;
  dims.batch = sizes.batch;
  dims.heads = query ? sizes.heads : sizes.headsKV;
  dims.tokens = query ? sizes.seqQ : sizes.seqK;
  dims.features = name == "q" || name == "k" ? plan.headDim : plan.valueDim;
  return dims;
}

/// Reads all of \p path, given to \p option, into \p bytes.
static std::string readInputBytes(const std::string &path,
                                  const std::string &option,
                                  std::string &bytes) {
  bool opened = false;
  std::string reason = readFileBytes(path, bytes, opened);
  if (!reason.empty())
    return path + (opened ? ": cannot read for " : ": cannot open for ") +
           option + ": " + reason;
  return std::string();
}

/// Returns the dtype as a message shows it: "'<i4'", "'>f4' (big-endian)".
static std::string describeDescr(const std::string &descr) {
  std::string text = "'" + descr + "'";
  NpyType type;
  if (!descr.empty() && descr[0] == '>' && !getNpyType(descr, type))
    text += " (big-endian)";
  return text;
}

/// Returns "[2, 3]", with " (rank 2)" when \p otherRank differs ("[]
/// (rank 0, a scalar)").
static std::string describeShape(const std::vector<int64_t> &shape,
                                 size_t otherRank) {
  std::string text = formatShape(shape);
  if (shape.size() != otherRank)
    text += " (rank " + std::to_string(shape.size()) +
            (shape.empty() ? ", a scalar)" : ")");
  return text;
}

/// Checks the header of the file given to \p option against what the plan
/// expects (dtype, order, shape: the order a user fixes them in) and sets
/// \p type.
static std::string checkInputHeader(const NpyHeader &header,
                                    const std::string &option,
                                    const std::vector<int64_t> &expected,
                                    const SizeBindings &sizes, NpyType &type) {
  // f32 holds the values of every input type the plans take (f16, bf16,
  // f32; they are rounded to it after reading) and f16 is the common one.
  // Big-endian data is refused rather than swapped: NumPy writes it only
  // when asked to.
  if (!getNpyType(header.descr, type) ||
      (type != NpyType::F32 && type != NpyType::F16))
    return "expected little-endian float32 or float16 ('<f4' or '<f2') "
           "for " +
           option + ", got " + describeDescr(header.descr);
  if (header.fortranOrder)
    return "expected a C-order array ('fortran_order': False) for " + option +
           ", got 'fortran_order': True";
  if (header.shape != expected)
    return "expected shape " + describeShape(expected, header.shape.size()) +
           " for " + option + " (the plan's layout with " + sizes.toString() +
           "), got " + describeShape(header.shape, expected.size());
  return std::string();
}

/// Reads the .npy file given to \p option into \p bytes and parses its
/// header; the error names the file and the option.
static std::string readNpyFile(const std::string &path,
                               const std::string &option, std::string &bytes,
                               NpyHeader &header) {
  std::string error = readInputBytes(path, option, bytes);
  if (!error.empty())
    return error;
  error = parseNpyHeader(bytes, header);
  if (!error.empty())
    return path + ": expected a .npy file for " + option + ": " + error;
  return std::string();
}

/// Checks that \p bytes, the file given to \p option, hold the data its
/// \p header announces and nothing more.
static std::string checkDataSize(const NpyHeader &header, NpyType type,
                                 const std::string &bytes,
                                 const std::string &option) {
  // The shape is the plan's, bounded by bindSizes; should the size still
  // not fit, UINT64_MAX matches no file.
  uint64_t need = UINT64_MAX;
  getNpyDataBytes(header.shape, type, need);
  uint64_t have = bytes.size() - header.dataOffset;
  if (have == need)
    return std::string();
  return "expected " + std::to_string(need) + " bytes of data for " + option +
         " (" + formatShape(header.shape) + " of '" + header.descr +
         "'), got " + std::to_string(have) +
         (have < need ? " (truncated)" : " (trailing bytes)");
}

/// Reads input \p name from \p path into \p values (canonical order,
/// rounded to the plan's input type). Every error names the file and the
/// option; nothing is read past the data the header announces.
static std::string readInput(const RunOptions &options, const LaunchPlan &plan,
                             const ResolvedPlan &resolved,
                             const std::string &name, const std::string &path,
                             std::vector<float> &values) {
  std::string option = "--" + name;
  std::string bytes;
  NpyHeader header;
  std::string error = readNpyFile(path, option, bytes, header);
  if (!error.empty())
    return error;
  NpyType type = NpyType::F32;
  error = checkInputHeader(
      header, option,
      resolved.buffers[static_cast<size_t>(plan.findBuffer(name))].shape,
      resolved.sizes, type);
  if (!error.empty())
    return path + ": " + error;
  error = checkDataSize(header, type, bytes, option);
  if (!error.empty())
    return path + ": " + error;
  // Straight from the file's bytes to canonical f32: no other copy of a
  // tensor that may be GiBs.
  error = decodeFromLayout(
      reinterpret_cast<const uint8_t *>(bytes.data()) + header.dataOffset,
      plan.layout, dimsOf(plan, resolved.sizes, name),
      type == NpyType::F16 ? ElementType::F16 : ElementType::F32, values,
      hostThreads(options));
  if (!error.empty())
    return path + ": " + error;
  ref::roundAll(values, getInputFormat(plan));
  return std::string();
}

/// Checks the header of the --mask-npy file against the plan's mask
/// \p dims (dtype, order, shape) and sets \p npyType and \p type to the
/// file's elements (I1 for bool, F16 or F32).
static std::string checkMaskHeader(const NpyHeader &header,
                                   const MaskDims &dims,
                                   const SizeBindings &sizes, NpyType &npyType,
                                   ElementType &type) {
  const std::string option = "--mask-npy";
  bool known = getNpyType(header.descr, npyType);
  if (dims.type == ElementType::I1) {
    // A bool array only: integer 0/1 bytes may follow the other
    // convention (1 = masked out).
    if (!known || header.descr.substr(1) != "b1")
      return "expected bool ('|b1') for " + option +
             " (the plan's mask is i1), got " + describeDescr(header.descr);
    type = ElementType::I1;
  } else {
    if (!known || (npyType != NpyType::F32 && npyType != NpyType::F16))
      return "expected little-endian float32 or float16 ('<f4' or '<f2') "
             "for " +
             option + " (the plan's mask is " + toString(dims.type) +
             "), got " + describeDescr(header.descr);
    type = npyType == NpyType::F16 ? ElementType::F16 : ElementType::F32;
  }
  if (header.fortranOrder)
    return "expected a C-order array ('fortran_order': False) for " + option +
           ", got 'fortran_order': True";
  if (header.shape != dims.shape)
    return "expected shape " + describeShape(dims.shape, header.shape.size()) +
           " for " + option + " (the plan's mask with " + sizes.toString() +
           "), got " + describeShape(header.shape, dims.shape.size());
  return std::string();
}

/// Reads the plan's mask from options.maskPath into \p mask.
static std::string readMask(const RunOptions &options, const MaskDims &dims,
                            const ResolvedPlan &resolved, ref::MaskData &mask) {
  const std::string &path = options.maskPath;
  const std::string option = "--mask-npy";
  std::string bytes;
  NpyHeader header;
  std::string error = readNpyFile(path, option, bytes, header);
  if (!error.empty())
    return error;
  NpyType npyType = NpyType::U8;
  ElementType type = ElementType::I1;
  error = checkMaskHeader(header, dims, resolved.sizes, npyType, type);
  if (error.empty())
    error = checkDataSize(header, npyType, bytes, option);
  if (error.empty())
    error = decodeMask(reinterpret_cast<const uint8_t *>(bytes.data()) +
                           header.dataOffset,
                       type, dims, mask);
  if (!error.empty())
    return path + ": " + error;
  return std::string();
}

/// Reads the inputs given as .npy files (before the GPU is touched, so a
/// bad file is reported at once).
static std::string readInputFiles(const RunOptions &options,
                                  const LaunchPlan &plan,
                                  const ResolvedPlan &resolved,
                                  ref::AttentionData &inputs) {
  const std::pair<const char *, const std::string *> files[] = {
      {"q", &options.qPath}, {"k", &options.kPath}, {"v", &options.vPath}};
  for (const auto &[name, path] : files) {
    if (path->empty())
      continue;
    std::vector<float> &target = name[0] == 'q'   ? inputs.q
                                 : name[0] == 'k' ? inputs.k
                                                  : inputs.v;
    std::string error = readInput(options, plan, resolved, name, *path, target);
    if (!error.empty())
      return error;
    if (options.nonFinite != NonFinitePolicy::Refuse)
      continue;
    auto bad = std::find_if(target.begin(), target.end(),
                            [](float x) { return !std::isfinite(x); });
    if (bad != target.end())
      return std::string("--") + name + " " + *path + ": element " +
             std::to_string(bad - target.begin()) +
             " ([B, H, N, D] order, flattened) is " +
             (std::isnan(*bad) ? "nan"
              : *bad > 0       ? "inf"
                               : "-inf") +
             "; --non-finite refuse runs no kernel on non-finite inputs";
  }
  MaskDims maskDims;
  if (!options.maskPath.empty() &&
      getMaskDims(plan, resolved, options.sizes, maskDims))
    return readMask(options, maskDims, resolved, inputs.mask);
  return std::string();
}

/// Generates the inputs not read from files, and says what the mask is.
static void generateInputs(const RunOptions &options, const LaunchPlan &plan,
                           const ResolvedPlan &resolved,
                           ref::AttentionData &data) {
  const ProblemSizes &sizes = options.sizes;
  ref::AttentionShape shape{sizes.batch, sizes.heads, sizes.headsKV,
                            sizes.seqQ,  sizes.seqK,  plan.headDim};
  data.shape = shape;
  MaskDims maskDims;
  if (getMaskDims(plan, resolved, sizes, maskDims)) {
    if (data.mask.bias.empty())
      data.mask = generateMask(maskDims, options.seed, hostThreads(options));
    say(options, "mask: %s\n", describeMask(data.mask, maskDims).c_str());
  }
  if (!data.q.empty() && !data.k.empty() && !data.v.empty())
    return;
  ref::AttentionData generated = ref::makeAttentionData(
      shape, options.dist, options.seed, getInputFormat(plan),
      forRangesOn(hostThreads(options)));
  for (auto [from, to] : {std::make_pair(&generated.q, &data.q),
                          std::make_pair(&generated.k, &data.k),
                          std::make_pair(&generated.v, &data.v)})
    if (to->empty())
      *to = std::move(*from);
}

/// Returns "dist=randn seed=0", with "q=FILE" for inputs read from files
/// ("inputs=npy" when all three are).
static std::string describeInputs(const RunOptions &options) {
  if (!options.qPath.empty() && !options.kPath.empty() &&
      !options.vPath.empty())
    return "inputs=npy" +
           (options.maskPath.empty() ? "" : " mask=" + options.maskPath);
  std::string text = std::string("dist=") + ref::toString(options.dist) +
                     " seed=" + std::to_string(options.seed);
  const std::pair<const char *, const std::string *> files[] = {
      {"q", &options.qPath}, {"k", &options.kPath}, {"v", &options.vPath}};
  for (const auto &[name, path] : files)
    if (!path->empty())
      text += std::string(" ") + name + "=" + *path;
  if (!options.maskPath.empty())
    text += " mask=" + options.maskPath;
  return text;
}

/// Returns the bytes of input \p name for its plan buffer.
static std::string
encodeInput(const RunOptions &options, const LaunchPlan &plan,
            const ResolvedPlan &resolved, const std::string &name,
            const std::vector<float> &canonical, std::vector<uint8_t> &bytes) {
  const PlanBuffer &buffer =
      plan.buffers[static_cast<size_t>(plan.findBuffer(name))];
  return encodeToLayout(canonical, plan.layout,
                        dimsOf(plan, resolved.sizes, name), buffer.type, bytes,
                        hostThreads(options));
}

/// Opens the device, loads the PTX and allocates the buffers: every GPU
/// error shows before the inputs are generated.
static std::string openDevice(const RunOptions &options, const LaunchPlan &plan,
                              const ResolvedPlan &resolved,
                              DeviceSession &session) {
  std::string error;
  const CudaDriver *driver = CudaDriver::load(error);
  if (!driver)
    return error;
  session.device = CudaDevice::open(*driver, options.device, error);
  if (!session.device)
    return error;
  CudaDevice &device = *session.device;
  say(options, "device: %d %s\n", options.device,
      device.info().describe().c_str());
  error = device.checkTarget(plan.smVersion, plan.archSpecific);
  if (!error.empty())
    return error;
  std::string ptxPath = options.ptxPath.empty()
                            ? folderOf(options.planPath) + plan.ptx
                            : options.ptxPath;
  std::string ptx;
  error = readFile(ptxPath, ptx);
  if (!error.empty())
    return error;
  int sets = 1;
  if (options.bench)
    sets = chooseBufferSets(resolved.totalBytes(),
                            static_cast<size_t>(device.info().l2Bytes),
                            device.freeMemory());
  session.executor =
      PlanExecutor::create(device, plan, resolved, ptx, ptxPath, sets, error);
  if (!session.executor)
    return error;
  if (options.verbose)
    for (const KernelAttributes &kernel : session.executor->kernelAttributes())
      say(options,
          "kernel: %s registers=%d static_shared=%d local=%d "
          "max_threads=%d\n",
          kernel.name.c_str(), kernel.registers, kernel.staticSharedBytes,
          kernel.localBytes, kernel.maxThreadsPerBlock);
  return std::string();
}

/// Uploads the inputs, runs the plan once (checked), downloads the outputs
/// and benchmarks the plan if asked.
static std::string runOnDevice(const RunOptions &options,
                               const LaunchPlan &plan,
                               const ResolvedPlan &resolved,
                               const ref::AttentionData &inputs,
                               PlanExecutor &executor, DeviceResults &results) {
  std::string error;
  results.bufferSets = executor.bufferSets();
  const std::pair<const char *, const std::vector<float> *> tensors[] = {
      {"q", &inputs.q}, {"k", &inputs.k}, {"v", &inputs.v}};
  for (const auto &[name, values] : tensors) {
    std::vector<uint8_t> bytes;
    error = encodeInput(options, plan, resolved, name, *values, bytes);
    if (error.empty())
      error = executor.upload(plan.findBuffer(name), bytes);
    if (!error.empty())
      return error;
  }
  int maskIndex = plan.findBuffer("mask");
  if (maskIndex >= 0) {
    std::vector<uint8_t> bytes;
    error = encodeMask(
        inputs.mask, plan.buffers[static_cast<size_t>(maskIndex)].type, bytes);
    if (error.empty())
      error = executor.upload(maskIndex, bytes);
    if (!error.empty())
      return error;
  }
  error = executor.poisonOutputs(0);
  if (error.empty())
    error = executor.run(0, /*checkEach=*/true);
  if (!error.empty())
    return error;
  // The host holds Q, K, V and O in f32 plus at most one encoded tensor at
  // a time (each upload's bytes, then O's), freed before the next.
  std::vector<uint8_t> bytes;
  error = executor.download(plan.findBuffer("o"), 0, bytes);
  if (error.empty())
    error = decodeFromLayout(bytes.data(), plan.layout,
                             dimsOf(plan, resolved.sizes, "o"), plan.outputType,
                             results.out, hostThreads(options));
  std::vector<uint8_t>().swap(bytes);
  if (!error.empty())
    return error;
  int lseIndex = plan.findBuffer("lse");
  if (lseIndex >= 0) {
    error = executor.download(lseIndex, 0, bytes);
    if (error.empty())
      error = decodeElements(
          bytes.data(),
          static_cast<size_t>(resolved.buffers[lseIndex].elements),
          ElementType::F32, results.lse);
    if (!error.empty())
      return error;
  }
  if (options.bench)
    return executor.bench(options.warmup, options.repeat, results.times);
  return std::string();
}

/// Formats metrics as "cossim=.. rel_l1=.. rmse=.. max_abs=.. nonfinite=.."
/// (and the reference's non-finite counts when it has any).
static std::string formatMetrics(const ref::AccuracyMetrics &m) {
  char buffer[200];
  std::snprintf(buffer, sizeof(buffer),
                "cossim=%.6f rel_l1=%.4f rmse=%.1e max_abs=%.1e nonfinite=%zu",
                m.cosSim, m.relL1, m.rmse, m.maxAbsError, m.nonFinite);
  std::string text = buffer;
  // Only a non-finite input makes the reference non-finite.
  if (m.referenceNonFinite)
    text += " reference_nonfinite=" + std::to_string(m.referenceNonFinite) +
            " finite_where_reference_is_not=" +
            std::to_string(m.finiteWhereReferenceIsNot);
  return text;
}

/// Compares the GPU's LSE with the FP64 one: returns the largest difference
/// over rows that see a key, and counts the rows where one is finite and
/// the other not (rows that see no key must be -inf on both sides).
static double compareLse(const std::vector<float> &lse,
                         const std::vector<double> &reference,
                         size_t &nonFinite) {
  double maxAbs = 0.0;
  nonFinite = 0;
  for (size_t i = 0; i < lse.size() && i < reference.size(); ++i) {
    // A row that sees no key has -inf in both; anything else there is
    // as wrong as a non-finite LSE where the reference has a number.
    if (!std::isfinite(reference[i])) {
      if (lse[i] != reference[i])
        ++nonFinite;
      continue;
    }
    if (!std::isfinite(lse[i])) {
      ++nonFinite;
      continue;
    }
    maxAbs = std::max(maxAbs, std::fabs(lse[i] - reference[i]));
  }
  return maxAbs;
}

/// Writes the f32 outputs asked for.
static std::string writeOutputs(const RunOptions &options,
                                const LaunchPlan &plan,
                                const ResolvedPlan &resolved,
                                const DeviceResults &results) {
  if (!options.outPath.empty()) {
    const ResolvedBuffer &o =
        resolved.buffers[static_cast<size_t>(plan.findBuffer("o"))];
    std::string error = writeNpy(
        options.outPath,
        makeF32Array(o.shape,
                     canonicalToLayout(results.out, plan.layout,
                                       dimsOf(plan, resolved.sizes, "o"))));
    if (!error.empty())
      return error;
  }
  if (!options.lsePath.empty()) {
    const ResolvedBuffer &lse =
        resolved.buffers[static_cast<size_t>(plan.findBuffer("lse"))];
    std::string error =
        writeNpy(options.lsePath, makeF32Array(lse.shape, results.lse));
    if (!error.empty())
      return error;
  }
  return std::string();
}

/// Returns the \p width values of each of \p rows of \p values.
static std::vector<float> gatherRows(const std::vector<float> &values,
                                     const std::vector<int64_t> &rows,
                                     size_t width) {
  std::vector<float> out;
  out.reserve(rows.size() * width);
  for (int64_t row : rows) {
    auto first = values.begin() +
                 static_cast<ptrdiff_t>(static_cast<size_t>(row) * width);
    out.insert(out.end(), first, first + static_cast<ptrdiff_t>(width));
  }
  return out;
}

/// Compares the output (and LSE) with the FP64 attention over the rows of
/// \p sample, printing the metrics and adding failed thresholds to
/// \p failures.
static void compareWithReference(const RunOptions &options,
                                 const LaunchPlan &plan,
                                 const ref::AttentionProblem &problem,
                                 const DeviceResults &results,
                                 const RowSample &sample, unsigned threads,
                                 std::vector<std::string> &failures) {
  std::vector<double> lseReference;
  std::vector<double> *lseWanted =
      results.lse.empty() ? nullptr : &lseReference;
  std::vector<double> reference;
  // The GPU's rows that the reference covers.
  std::vector<float> sampledOut, sampledLse;
  const std::vector<float> *out = &results.out, *lse = &results.lse;
  if (sample.sampled()) {
    reference = parallelExactAttentionRows(problem, plan.causal, plan.scale,
                                           sample.rows, lseWanted, threads);
    sampledOut = gatherRows(results.out, sample.rows,
                            static_cast<size_t>(problem.shape.headDim));
    out = &sampledOut;
    if (!results.lse.empty()) {
      sampledLse = gatherRows(results.lse, sample.rows, 1);
      lse = &sampledLse;
    }
  } else {
    reference = parallelExactAttention(problem, plan.causal, plan.scale,
                                       lseWanted, threads);
  }
  const std::string scope = sample.scope();
  ref::AccuracyMetrics m = ref::compareOutputs(*out, reference);
  say(options, "vs fp64%s: %s\n", scope.c_str(), formatMetrics(m).c_str());
  char buffer[160];
  // A value where attention has none is wrong whatever the policy.
  if (m.finiteWhereReferenceIsNot) {
    std::snprintf(buffer, sizeof(buffer),
                  "%zu values of O are finite where fp64 is not%s",
                  m.finiteWhereReferenceIsNot, scope.c_str());
    failures.push_back(buffer);
  }
  // Non-finite values may spread (--non-finite propagate), but an output
  // with nothing left to compare proves nothing.
  if (m.compared == 0 && m.referenceNonFinite < reference.size()) {
    std::snprintf(buffer, sizeof(buffer),
                  "no value of O is finite where fp64 is%s", scope.c_str());
    failures.push_back(buffer);
  }
  if (options.minCosSim && !(m.cosSim >= *options.minCosSim)) {
    std::snprintf(buffer, sizeof(buffer), "cossim %.6f < %g vs fp64%s",
                  m.cosSim, *options.minCosSim, scope.c_str());
    failures.push_back(buffer);
  }
  if (options.maxRelL1 && !(m.relL1 <= *options.maxRelL1)) {
    std::snprintf(buffer, sizeof(buffer), "rel_l1 %.4f > %g vs fp64%s", m.relL1,
                  *options.maxRelL1, scope.c_str());
    failures.push_back(buffer);
  }
  if (results.lse.empty())
    return;
  size_t lseNonFinite = 0;
  double maxAbs = compareLse(*lse, lseReference, lseNonFinite);
  say(options, "lse vs fp64%s: max_abs=%.1e nonfinite=%zu\n", scope.c_str(),
      maxAbs, lseNonFinite);
  if (options.maxLseAbs && (lseNonFinite || !(maxAbs <= *options.maxLseAbs))) {
    std::snprintf(buffer, sizeof(buffer),
                  "lse max_abs %.1e > %g (or %zu non-finite) vs fp64%s", maxAbs,
                  *options.maxLseAbs, lseNonFinite, scope.c_str());
    failures.push_back(buffer);
  }
}

/// Compares the output with the CPU model of the kernel over the rows of
/// \p sample.
static void compareWithModel(const RunOptions &options,
                             const ref::AttentionProblem &problem,
                             const ref::Recipe &recipe,
                             const DeviceResults &results,
                             const RowSample &sample, unsigned threads,
                             std::vector<std::string> &failures) {
  std::vector<float> model, sampledOut;
  const std::vector<float> *out = &results.out;
  if (sample.sampled()) {
    model = parallelSageAttentionRows(problem, recipe, sample.rows, threads);
    sampledOut = gatherRows(results.out, sample.rows,
                            static_cast<size_t>(problem.shape.headDim));
    out = &sampledOut;
  } else {
    model = parallelSageAttention(problem, recipe, threads);
  }
  std::vector<double> modelWide(model.begin(), model.end());
  const std::string scope = sample.scope();
  ref::AccuracyMetrics m = ref::compareOutputs(*out, modelWide);
  say(options, "vs model%s: %s\n", scope.c_str(), formatMetrics(m).c_str());
  if (options.maxModelRelL1 && !(m.relL1 <= *options.maxModelRelL1)) {
    char buffer[160];
    std::snprintf(buffer, sizeof(buffer), "rel_l1 %.4f > %g vs the model%s",
                  m.relL1, *options.maxModelRelL1, scope.c_str());
    failures.push_back(buffer);
  }
}

/// Picks the rows --sample-rows asks for and says which, before any work:
/// "rows: 256 of 20971520 sampled (seed 0); ..." or, for a count that
/// covers them all, that every row is checked.
static RowSample chooseRows(const RunOptions &options, const LaunchPlan &plan) {
  const ProblemSizes &sizes = options.sizes;
  ref::AttentionShape shape{sizes.batch, sizes.heads, sizes.headsKV,
                            sizes.seqQ,  sizes.seqK,  plan.headDim};
  RowSample sample;
  sample.total = shape.queryRows();
  if (!options.sampleRows)
    return sample;
  if (options.sampleRows >= sample.total) {
    say(options,
        "rows: --sample-rows %lld covers all %lld query rows (B*H*Nq): "
        "every row is checked\n",
        static_cast<long long>(options.sampleRows),
        static_cast<long long>(sample.total));
    return sample;
  }
  sample.rows = sampleQueryRows(shape, options.sampleRows, options.seed);
  say(options,
      "rows: %zu of %lld query rows sampled (seed %llu): the fp64 and model "
      "metrics cover only these\n",
      sample.rows.size(), static_cast<long long>(sample.total),
      static_cast<unsigned long long>(options.seed));
  return sample;
}

/// Prints the median times and TOPS of the benchmark.
static void reportBench(const RunOptions &options, const LaunchPlan &plan,
                        const SizeBindings &sizes,
                        const DeviceResults &results) {
  double ops = attentionOps(sizes.batch, sizes.heads, sizes.seqQ, sizes.seqK,
                            plan.headDim, plan.valueDim, plan.causal);
  double endToEnd = median(results.times.endToEndMs);
  std::string attention = "attention n/a (no kernel name contains "
                          "'attention')";
  if (!results.times.attentionMs.empty()) {
    double ms = median(results.times.attentionMs);
    char buffer[96];
    std::snprintf(buffer, sizeof(buffer), "attention %.3f ms %.1f TOPS", ms,
                  teraOpsPerSecond(ops, ms));
    attention = buffer;
  }
  say(options,
      "bench: %s | end-to-end %.3f ms %.1f TOPS (median of %d, %d buffer "
      "set%s)\n",
      attention.c_str(), endToEnd, teraOpsPerSecond(ops, endToEnd),
      options.repeat, results.bufferSets, results.bufferSets == 1 ? "" : "s");
}

/// Checks what the plan needs from sage-run before any work is done.
static std::string checkSupported(const RunOptions &options,
                                  const LaunchPlan &plan) {
  if (!getReferenceFormat(plan.inputType) ||
      !getReferenceFormat(plan.outputType))
    return std::string("sage-run supports f16, bf16 and f32 inputs and "
                       "outputs, got input_type ") +
           toString(plan.inputType) + " and output_type " +
           toString(plan.outputType);
  if (plan.valueDim != plan.headDim)
    return "sage-run needs value_dim == head_dim, got " +
           std::to_string(plan.valueDim) + " and " +
           std::to_string(plan.headDim);
  if (!options.lsePath.empty() && plan.findBuffer("lse") < 0)
    return "--lse " + options.lsePath + ": the plan has no lse buffer";
  if (!options.maskPath.empty() && plan.findBuffer("mask") < 0)
    return "--mask-npy " + options.maskPath + ": the plan has no mask buffer";
  return std::string();
}

/// Runs a plan: the whole sage-run except --probe.
static int runPlan(const RunOptions &options) {
  LaunchPlan plan;
  std::string error = loadPlanFile(options.planPath, plan);
  if (!error.empty())
    return fail(error);
  SizeBindings bindings;
  ResolvedPlan resolved;
  error = bindSizes(plan, options.sizes, bindings);
  if (error.empty())
    error = resolvePlan(plan, bindings, resolved);
  if (!error.empty())
    return fail(error);
  const ProblemSizes &sizes = options.sizes;
  say(options, "plan: %s (%s, %s, D=%lld, causal=%s)\n",
      options.planPath.c_str(), plan.variant.c_str(), plan.chip.c_str(),
      static_cast<long long>(plan.headDim), sage::ref::toString(plan.causal));
  say(options, "sizes: B=%lld H=%lld Hkv=%lld Nq=%lld Nk=%lld %s\n",
      static_cast<long long>(sizes.batch), static_cast<long long>(sizes.heads),
      static_cast<long long>(sizes.headsKV), static_cast<long long>(sizes.seqQ),
      static_cast<long long>(sizes.seqK), describeInputs(options).c_str());
  RowSample sample = chooseRows(options, plan);
  if (options.dryRun) {
    say(options, "bindings: %s\n%s", bindings.toString().c_str(),
        describeResolvedPlan(plan, resolved).c_str());
    return kExitOk;
  }
  error = checkSupported(options, plan);
  if (!error.empty())
    return fail(error);
  // Before anything is allocated: a failed host allocation aborts.
  if (std::optional<uint64_t> available = getAvailableHostBytes()) {
    HostChecks checks{options.reference, options.modelEnabled(),
                      options.sampleRows};
    error = checkHostMemory(
        estimateHostBytes(plan, resolved, options.sizes, checks), *available);
    if (!error.empty())
      return fail(error);
  }
  // The CPU model follows the plan's recipe.
  ref::Recipe recipe;
  std::string modelProblem;
  if (options.modelEnabled()) {
    modelProblem = recipeForPlan(plan, recipe);
    // An explicit --model (or a model threshold) insists.
    if (!modelProblem.empty() && options.model.value_or(false))
      return fail(modelProblem);
  }
  ref::AttentionData inputs;
  error = readInputFiles(options, plan, resolved, inputs);
  if (!error.empty())
    return fail(error);
  DeviceSession session;
  error = openDevice(options, plan, resolved, session);
  if (!error.empty())
    return fail(error);
  generateInputs(options, plan, resolved, inputs);
  DeviceResults results;
  error =
      runOnDevice(options, plan, resolved, inputs, *session.executor, results);
  if (error.empty())
    error = writeOutputs(options, plan, resolved, results);
  if (!error.empty())
    return fail(error);

  std::vector<std::string> failures;
  // With --non-finite propagate, the FP64 comparison checks where O may
  // be non-finite.
  size_t nonFinite = countNonFinite(results.out);
  if (nonFinite && options.nonFinite != NonFinitePolicy::Propagate)
    failures.push_back("the output has " + std::to_string(nonFinite) +
                       " non-finite values");
  unsigned threads = hostThreads(options);
  if (options.reference)
    compareWithReference(options, plan, inputs.view(), results, sample, threads,
                         failures);
  if (options.modelEnabled() && modelProblem.empty())
    compareWithModel(options, inputs.view(), recipe, results, sample, threads,
                     failures);
  else if (options.modelEnabled())
    say(options, "vs model: skipped (%s)\n", modelProblem.c_str());
  if (options.bench)
    reportBench(options, plan, bindings, results);
  if (failures.empty())
    return kExitOk;
  std::string message = "accuracy check failed: ";
  for (size_t i = 0; i < failures.size(); ++i)
    message += (i ? "; " : "") + failures[i];
  return fail(message, kExitCheckFailed);
}

/// --probe: exit 0 with the device if one is usable, 1 with the reason.
static int probe(const RunOptions &options) {
  std::string error;
  const CudaDriver *driver = CudaDriver::load(error);
  std::unique_ptr<CudaDevice> device;
  if (driver)
    device = CudaDevice::open(*driver, options.device, error);
  if (!device)
    return fail("no usable CUDA device: " + error, kExitCheckFailed);
  std::printf("device %d: %s\n", options.device,
              device->info().describe().c_str());
  return kExitOk;
}

int main(int argc, char **argv) {
  RunOptions options;
  std::string error = parseRunOptions(argc, argv, options);
  if (!error.empty())
    return fail(error);
  if (options.help) {
    std::fputs(runUsage(), stdout);
    return kExitOk;
  }
  if (options.probe)
    return probe(options);
  return runPlan(options);
}
