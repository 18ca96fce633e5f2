//===- ResolvedPlan.cpp - A launch plan evaluated for given sizes ---------===//

#include "sage/Runtime/ResolvedPlan.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

using namespace sage::rt;

/// Returns "[batch, heads, tokens, features]" for \p layout.
static std::string formatLayout(const std::vector<DimRole> &layout) {
  std::string text = "[";
  for (size_t i = 0; i < layout.size(); ++i)
    text += std::string(i ? ", " : "") + toString(layout[i]);
  return text + "]";
}

std::string sage::rt::formatShape(const std::vector<int64_t> &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

std::string sage::rt::formatBytes(double bytes) {
  char buffer[64];
  if (bytes < 1024.0)
    std::snprintf(buffer, sizeof(buffer), "%.0f B", bytes);
  else if (bytes < 1024.0 * 1024.0)
    std::snprintf(buffer, sizeof(buffer), "%.2f KiB", bytes / 1024.0);
  else if (bytes < 1024.0 * 1024.0 * 1024.0)
    std::snprintf(buffer, sizeof(buffer), "%.2f MiB",
                  bytes / (1024.0 * 1024.0));
  else
    std::snprintf(buffer, sizeof(buffer), "%.2f GiB",
                  bytes / (1024.0 * 1024.0 * 1024.0));
  return buffer;
}

/// Returns true if \p layout puts tokens before heads ([batch, tokens,
/// heads, features]).
static bool tokensBeforeHeads(const std::vector<DimRole> &layout) {
  auto tokens = std::find(layout.begin(), layout.end(), DimRole::Tokens);
  auto heads = std::find(layout.begin(), layout.end(), DimRole::Heads);
  return heads != layout.end() && tokens < heads;
}

/// Checks that the index arithmetic the kernels do in 32 bits cannot wrap
/// (docs/LaunchPlan.md, "Size limits"). The kernels take i32 sizes, pad
/// token counts to their tiles (and a causal block's end one tile beyond),
/// form the (batch, head) row and its feature offsets in i32 and, with
/// tokens before heads, the (batch, token) row too; only element offsets
/// are i64, which these bounds keep below 2^62 for Q, K, V and O. A mask's
/// B * H * Nq * Nk may pass it, but its host and device allocations fail
/// long before (sage-run checks the host side, HostMemory.h).
static std::string checkIndexLimits(const LaunchPlan &plan,
                                    const ProblemSizes &sizes) {
  const int64_t kLimit = INT32_MAX;
  // The token-sum and channel-max kernels walk chunks of 256 tokens and
  // form a chunk's end in i32 too.
  const int64_t kStatsChunk = 256;
  int64_t tile = std::max({plan.tiles.blockQ, plan.tiles.blockK, kStatsChunk});
  int64_t tokenLimit = kLimit / tile * tile - 2 * tile;
  const std::pair<const char *, int64_t> tokens[] = {{"--Nq", sizes.seqQ},
                                                     {"--Nk", sizes.seqK}};
  for (const auto &[option, count] : tokens)
    if (count > tokenLimit)
      return std::string(option) + " " + std::to_string(count) + " exceeds " +
             std::to_string(tokenLimit) +
             ", the most tokens the kernels index in 32 bits (2147483647 "
             "less two " +
             std::to_string(tile) + "-token blocks of padding)";
  bool valueWider = plan.valueDim > plan.headDim;
  int64_t features = valueWider ? plan.valueDim : plan.headDim;
  int64_t rows = 0, offsets = 0;
  if (__builtin_mul_overflow(sizes.batch, sizes.heads, &rows) ||
      __builtin_mul_overflow(rows, features, &offsets) || offsets > kLimit)
    return "--B " + std::to_string(sizes.batch) + " * --H " +
           std::to_string(sizes.heads) + " * " +
           (valueWider ? "value_dim " : "head_dim ") +
           std::to_string(features) +
           " exceeds 2147483647, the most (batch, head, feature) offsets the "
           "kernels index in 32 bits";
  if (!tokensBeforeHeads(plan.layout))
    return std::string();
  for (const auto &[option, count] : tokens)
    if (__builtin_mul_overflow(sizes.batch, count, &rows) || rows > kLimit)
      return "--B " + std::to_string(sizes.batch) + " * " + option + " " +
             std::to_string(count) +
             " exceeds 2147483647, the most (batch, token) rows the kernels "
             "index in 32 bits with the layout " +
             formatLayout(plan.layout);
  return std::string();
}

std::string sage::rt::bindSizes(const LaunchPlan &plan,
                                const ProblemSizes &sizes,
                                SizeBindings &bindings) {
  const std::pair<const char *, int64_t> named[] = {{"--B", sizes.batch},
                                                    {"--H", sizes.heads},
                                                    {"--Hkv", sizes.headsKV},
                                                    {"--Nq", sizes.seqQ},
                                                    {"--Nk", sizes.seqK}};
  for (const auto &[name, value] : named)
    if (value <= 0)
      return std::string(name) + " must be positive, got " +
             std::to_string(value);
  if (sizes.headDim != 0 && sizes.headDim != plan.headDim)
    return "--D " + std::to_string(sizes.headDim) +
           " does not match the plan's head_dim " +
           std::to_string(plan.headDim);
  if (sizes.heads % sizes.headsKV != 0)
    return "--H " + std::to_string(sizes.heads) +
           " is not a multiple of --Hkv " + std::to_string(sizes.headsKV) +
           " (each key/value head serves H/Hkv query heads)";
  if (!plan.hasHeads() && sizes.heads != sizes.headsKV)
    return "the plan's layout " + formatLayout(plan.layout) +
           " has no heads: --H " + std::to_string(sizes.heads) + " and --Hkv " +
           std::to_string(sizes.headsKV) +
           " must be equal (heads fold into the batch)";
  std::string error = checkIndexLimits(plan, sizes);
  if (!error.empty())
    return error;
  bindings = SizeBindings();
  bindings.seqQ = sizes.seqQ;
  bindings.seqK = sizes.seqK;
  if (plan.hasHeads()) {
    bindings.batch = sizes.batch;
    bindings.heads = sizes.heads;
    bindings.headsKV = sizes.headsKV;
    return std::string();
  }
  // checkIndexLimits bounds B * H.
  bindings.batch = sizes.batch * sizes.heads;
  return std::string();
}

std::vector<int64_t> sage::rt::layoutShape(const std::vector<DimRole> &layout,
                                           int64_t batch, int64_t heads,
                                           int64_t tokens, int64_t features) {
  std::vector<int64_t> shape;
  for (DimRole role : layout) {
    switch (role) {
    case DimRole::Batch:
      shape.push_back(batch);
      break;
    case DimRole::Heads:
      shape.push_back(heads);
      break;
    case DimRole::Tokens:
      shape.push_back(tokens);
      break;
    case DimRole::Features:
      shape.push_back(features);
      break;
    }
  }
  return shape;
}

size_t ResolvedPlan::totalBytes() const {
  size_t total = 0;
  for (const ResolvedBuffer &buffer : buffers)
    total += (buffer.bytes + 255) / 256 * 256;
  return total;
}

/// Returns the shape \p name must have, or an empty vector if any shape
/// goes (workspaces; parsePlan has checked the mask's form).
static std::vector<int64_t> expectedShape(const LaunchPlan &plan,
                                          const std::string &name,
                                          const SizeBindings &s) {
  if (name == "q")
    return layoutShape(plan.layout, s.batch, s.heads, s.seqQ, plan.headDim);
  if (name == "k")
    return layoutShape(plan.layout, s.batch, s.headsKV, s.seqK, plan.headDim);
  if (name == "v")
    return layoutShape(plan.layout, s.batch, s.headsKV, s.seqK, plan.valueDim);
  if (name == "o")
    return layoutShape(plan.layout, s.batch, s.heads, s.seqQ, plan.valueDim);
  return {};
}

/// Evaluates the buffers of \p plan.
static std::string resolveBuffers(const LaunchPlan &plan,
                                  const SizeBindings &sizes,
                                  ResolvedPlan &resolved) {
  std::string dims = sizes.toString() + " D=" + std::to_string(plan.headDim);
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    const PlanBuffer &decl = plan.buffers[i];
    ResolvedBuffer buffer;
    buffer.elements = 1;
    std::string path = "buffers[" + std::to_string(i) + "]";
    for (size_t d = 0; d < decl.shape.size(); ++d) {
      int64_t extent = 0;
      std::string error = decl.shape[d].evaluate(sizes, extent);
      if (!error.empty())
        return "field '" + path + ".shape[" + std::to_string(d) +
               "]': " + error;
      buffer.shape.push_back(extent);
      if (__builtin_mul_overflow(buffer.elements, extent, &buffer.elements))
        return "buffer '" + decl.name + "' of shape " +
               formatShape(buffer.shape) + " overflows 64 bits";
    }
    int64_t bytes = 0;
    if (__builtin_mul_overflow(buffer.elements,
                               static_cast<int64_t>(elementSize(decl.type)),
                               &bytes))
      return "buffer '" + decl.name + "' of shape " +
             formatShape(buffer.shape) + " overflows 64 bits";
    buffer.bytes = static_cast<size_t>(bytes);
    std::vector<int64_t> expected = expectedShape(plan, decl.name, sizes);
    if (!expected.empty() && expected != buffer.shape)
      return "buffer '" + decl.name + "' has shape " +
             formatShape(buffer.shape) + " but the layout " +
             formatLayout(plan.layout) + " expects " + formatShape(expected) +
             " with " + dims;
    if (decl.name == "lse") {
      int64_t rows = sizes.batch * sizes.heads * sizes.seqQ;
      if (buffer.elements != rows)
        return "buffer 'lse' has shape " + formatShape(buffer.shape) + " (" +
               std::to_string(buffer.elements) +
               " elements) but expects B*H*Nq = " + std::to_string(rows) +
               " elements with " + dims;
    }
    resolved.buffers.push_back(std::move(buffer));
  }
  return std::string();
}

/// Returns " (from --Hkv)", " (from --B, --H and --Nq)": the options that
/// set the symbols of \p expr, so that a size over a launch limit is named
/// as the user gave it. A rank-3 plan's B is --B times --H.
static std::string describeOptions(const SizeExpr &expr, bool hasHeads) {
  std::vector<std::string> options;
  for (const std::string &symbol : expr.symbols()) {
    options.push_back("--" + symbol);
    if (symbol == "B" && !hasHeads)
      options.push_back("--H");
  }
  if (options.empty())
    return std::string();
  std::string text = " (from ";
  for (size_t i = 0; i < options.size(); ++i)
    text += (i == 0                    ? ""
             : i + 1 == options.size() ? " and "
                                       : ", ") +
            options[i];
  return text + ")";
}

/// Evaluates expression \p expr of field \p path into a 32-bit value no
/// larger than \p limit.
static std::string evaluateBounded(const LaunchPlan &plan, const SizeExpr &expr,
                                   const SizeBindings &sizes,
                                   const std::string &path, int64_t limit,
                                   uint32_t &out) {
  int64_t value = 0;
  std::string error = expr.evaluate(sizes, value);
  if (!error.empty())
    return "field '" + path + "': " + error;
  if (value > limit)
    return "field '" + path + "': value " + std::to_string(value) + " of '" +
           expr.text() + "'" + describeOptions(expr, plan.hasHeads()) +
           " exceeds the limit " + std::to_string(limit) + " with " +
           sizes.toString();
  out = static_cast<uint32_t>(value);
  return std::string();
}

/// Evaluates the launches of \p plan.
static std::string resolveLaunches(const LaunchPlan &plan,
                                   const SizeBindings &sizes,
                                   ResolvedPlan &resolved) {
  static const int64_t kGridLimits[3] = {2147483647, 65535, 65535};
  static const int64_t kBlockLimits[3] = {1024, 1024, 64};
  static const char *const kAxes[3] = {"x", "y", "z"};
  for (size_t k = 0; k < plan.kernels.size(); ++k) {
    const PlanKernel &kernel = plan.kernels[k];
    std::string path = "kernels[" + std::to_string(k) + "]";
    ResolvedLaunch launch;
    launch.kernel = static_cast<int>(k);
    launch.isAttention = kernel.name.find("attention") != std::string::npos;
    for (int a = 0; a < 3; ++a) {
      std::string error =
          evaluateBounded(plan, kernel.grid[a], sizes,
                          path + ".grid[" + std::to_string(a) + "]",
                          kGridLimits[a], launch.grid[a]);
      if (error.empty())
        error = evaluateBounded(plan, kernel.block[a], sizes,
                                path + ".block[" + std::to_string(a) + "]",
                                kBlockLimits[a], launch.block[a]);
      if (!error.empty())
        return error;
      if (launch.grid[a] == 0)
        launch.skipped = true;
      if (launch.block[a] == 0)
        return "field '" + path + ".block[" + std::to_string(a) +
               "]': kernel '" + kernel.name + "' has block." + kAxes[a] +
               " = 0 with " + sizes.toString();
    }
    uint64_t threads =
        uint64_t(launch.block[0]) * launch.block[1] * launch.block[2];
    if (threads > 1024)
      return "field '" + path + ".block': kernel '" + kernel.name + "' has " +
             std::to_string(threads) + " threads per block, more than 1024";
    std::string error =
        evaluateBounded(plan, kernel.sharedBytes, sizes, path + ".shared_bytes",
                        UINT32_MAX, launch.sharedBytes);
    if (!error.empty())
      return error;
    for (size_t p = 0; p < kernel.params.size(); ++p) {
      const PlanParam &param = kernel.params[p];
      ResolvedParam value;
      value.kind = param.kind;
      value.buffer = param.buffer;
      if (param.kind == PlanParam::Kind::I32) {
        uint32_t bits = 0;
        error = evaluateBounded(plan, param.value, sizes,
                                path + ".params[" + std::to_string(p) + "].i32",
                                INT32_MAX, bits);
        if (!error.empty())
          return error;
        value.value = static_cast<int32_t>(bits);
      }
      launch.params.push_back(value);
    }
    resolved.launches.push_back(std::move(launch));
  }
  return std::string();
}

std::string sage::rt::resolvePlan(const LaunchPlan &plan,
                                  const SizeBindings &sizes,
                                  ResolvedPlan &resolved) {
  ResolvedPlan result;
  result.sizes = sizes;
  std::string error = resolveBuffers(plan, sizes, result);
  if (error.empty())
    error = resolveLaunches(plan, sizes, result);
  if (!error.empty())
    return error;
  resolved = std::move(result);
  return std::string();
}

std::string sage::rt::describeResolvedPlan(const LaunchPlan &plan,
                                           const ResolvedPlan &resolved) {
  std::string text;
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    const PlanBuffer &decl = plan.buffers[i];
    const ResolvedBuffer &buffer = resolved.buffers[i];
    text += "buffer " + decl.name + ": " + toString(decl.kind) + " " +
            toString(decl.type) + " " + formatShape(buffer.shape) + " " +
            std::to_string(buffer.bytes) + " bytes" +
            (decl.zeroInit ? " init=zero" : "") + "\n";
  }
  for (const ResolvedLaunch &launch : resolved.launches) {
    const PlanKernel &kernel = plan.kernels[static_cast<size_t>(launch.kernel)];
    auto dim3 = [](const std::array<uint32_t, 3> &v) {
      return "[" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " +
             std::to_string(v[2]) + "]";
    };
    text += "launch " + kernel.name + ": grid " + dim3(launch.grid) +
            " block " + dim3(launch.block) + " shared " +
            std::to_string(launch.sharedBytes) + " params (";
    for (size_t p = 0; p < launch.params.size(); ++p) {
      const ResolvedParam &param = launch.params[p];
      text += p ? ", " : "";
      text += param.kind == PlanParam::Kind::Buffer
                  ? plan.buffers[static_cast<size_t>(param.buffer)].name
                  : std::to_string(param.value);
    }
    text += ")";
    text += launch.skipped ? " skipped" : "";
    text += "\n";
  }
  text += "total: " + std::to_string(resolved.totalBytes()) + " bytes (" +
          formatBytes(static_cast<double>(resolved.totalBytes())) + ")\n";
  return text;
}
