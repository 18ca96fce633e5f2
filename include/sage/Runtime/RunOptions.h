//===- RunOptions.h - Command line of sage-run ------------------*- C++ -*-===//
//
// The options of `sage-run PLAN.json [options]`, parsed without a GPU so
// that the unit tests cover them. Both "--opt value" and "--opt=value" are
// accepted.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_RUNTIME_RUNOPTIONS_H
#define SAGE_RUNTIME_RUNOPTIONS_H

#include "sage/Reference/Random.h"
#include "sage/Runtime/ResolvedPlan.h"

#include <cstdint>
#include <optional>
#include <string>

namespace sage::rt {

/// Everything sage-run was asked to do.
/// What sage-run does about non-finite values (--non-finite).
enum class NonFinitePolicy {
  /// Any non-finite value in O fails the check (inputs are finite).
  Fail,
  /// Inputs may be non-finite; O must be non-finite wherever the FP64
  /// attention is, and is compared with it elsewhere.
  Propagate,
  /// A non-finite value in an input file is an error; nothing runs.
  Refuse,
};

struct RunOptions {
  std::string planPath;
  /// Overrides the plan's PTX path when not empty.
  std::string ptxPath;
  /// --B --H --Hkv --Nq --Nk --D; Hkv defaults to H and Nk to Nq.
  ProblemSizes sizes;
  uint64_t seed = 0;
  sage::ref::DataKind dist = sage::ref::DataKind::Randn;
  /// Inputs read from .npy files instead of generated ones.
  std::string qPath, kPath, vPath;
  /// The plan's mask read from a .npy file (--mask-npy) instead of drawn
  /// from the seed.
  std::string maskPath;
  /// Outputs written as f32 .npy files.
  std::string outPath, lsePath;
  /// Compare with the FP64 attention (--no-reference turns it off).
  bool reference = true;
  /// Compare with the CPU model: unset follows `reference`.
  std::optional<bool> model;
  std::optional<double> minCosSim;
  std::optional<double> maxRelL1;
  std::optional<double> maxModelRelL1;
  std::optional<double> maxLseAbs;
  NonFinitePolicy nonFinite = NonFinitePolicy::Fail;
  /// --sample-rows: check only this many query rows (seeded from --seed)
  /// against FP64 and the model; 0 checks every row.
  int64_t sampleRows = 0;
  bool bench = false;
  int warmup = 5;
  int repeat = 20;
  bool probe = false;
  bool dryRun = false;
  bool quiet = false;
  bool verbose = false;
  bool help = false;
  int device = 0;
  /// CPU threads for the host work (inputs, references); 0 uses every core.
  unsigned threads = 0;

  /// Returns true if the CPU model comparison is on.
  bool modelEnabled() const { return model.value_or(reference); }
};

/// Parses \p argv (with the program name at argv[0]) into \p options.
/// Returns an empty string or a one-line message.
std::string parseRunOptions(int argc, const char *const *argv,
                            RunOptions &options);

/// Returns the --help text.
const char *runUsage();

} // namespace sage::rt

#endif // SAGE_RUNTIME_RUNOPTIONS_H
