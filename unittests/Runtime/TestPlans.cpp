//===- TestPlans.cpp - Launch plans shared by the runtime tests -----------===//
//
// The example of docs/LaunchPlan.md completed into a whole plan (q, k, v, a
// workspace, o; a quantization and an attention kernel), its rank-3 form
// and its form with a mask. Tests edit its text with replaceOnce to build
// malformed variants.
//
//===----------------------------------------------------------------------===//

#include "gtest/gtest.h"

#include <string>

/// Returns the text of a valid rank-4 plan.
std::string samplePlanText() {
  return R"-({
  "format": "sage-launch-plan",
  "version": 2,
  "name": "attention",
  "ptx": "attention.ptx",
  "chip": "sm_90",
  "variant": "int8-fp8",
  "layout": ["batch", "heads", "tokens", "features"],
  "head_dim": 128,
  "value_dim": 128,
  "input_type": "f16",
  "output_type": "f16",
  "causal": false,
  "scale": 0.08838834764831845,
  "smooth": {"q": true, "k": true, "v": false},
  "tiles": {"block_q": 64, "warp_q": 16, "block_k": 64, "warps": 4},
  "buffers": [
    {"name": "q", "kind": "input", "type": "f16",
     "shape": ["B", "H", "Nq", 128]},
    {"name": "k", "kind": "input", "type": "f16",
     "shape": ["B", "Hkv", "Nk", 128]},
    {"name": "v", "kind": "input", "type": "f16",
     "shape": ["B", "Hkv", "Nk", 128]},
    {"name": "k_sum", "kind": "workspace", "type": "f32",
     "shape": ["B", "Hkv", 128], "init": "zero"},
    {"name": "o", "kind": "output", "type": "f16",
     "shape": ["B", "H", "Nq", 128]}
  ],
  "kernels": [
    {"name": "sage_quantize_k", "grid": [{"cdiv": ["Nk", 64]}, "Hkv", "B"],
     "block": [128, 1, 1], "shared_bytes": 0,
     "params": [{"buffer": "k"}, {"buffer": "k_sum"}, {"i32": "Nk"}]},
    {"name": "sage_attention", "grid": [{"cdiv": ["Nq", 64]}, "H", "B"],
     "block": [128, 1, 1], "shared_bytes": 65536,
     "params": [{"buffer": "q"}, {"buffer": "k"}, {"buffer": "v"},
                {"buffer": "k_sum"}, {"buffer": "o"}, {"i32": "Nq"},
                {"i32": "Nk"}]}
  ]
})-";
}

/// Returns \p text with the one occurrence of \p from replaced by \p to;
/// fails the test if \p from does not occur exactly once.
std::string replaceOnce(const std::string &text, const std::string &from,
                        const std::string &to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "'" << from << "' not in the plan";
  if (at == std::string::npos)
    return text;
  EXPECT_EQ(text.find(from, at + 1), std::string::npos)
      << "'" << from << "' occurs more than once";
  return text.substr(0, at) + to + text.substr(at + from.size());
}

/// Returns the sample plan with the layout [batch, tokens, features].
std::string rankThreePlanText() {
  std::string text = samplePlanText();
  text = replaceOnce(text, R"(["batch", "heads", "tokens", "features"])",
                     R"(["batch", "tokens", "features"])");
  text = replaceOnce(text, R"("shape": ["B", "H", "Nq", 128]},
    {"name": "k")",
                     R"("shape": ["B", "Nq", 128]},
    {"name": "k")");
  for (const char *name : {"k", "v"})
    text = replaceOnce(text,
                       std::string(R"({"name": ")") + name +
                           R"(", "kind": "input", "type": "f16",
     "shape": ["B", "Hkv", "Nk", 128])",
                       std::string(R"({"name": ")") + name +
                           R"(", "kind": "input", "type": "f16",
     "shape": ["B", "Nk", 128])");
  return replaceOnce(text, R"("type": "f16",
     "shape": ["B", "H", "Nq", 128]}
  ],)",
                     R"("type": "f16",
     "shape": ["B", "Nq", 128]}
  ],)");
}

/// Returns \p text with an input buffer 'mask' of \p type and \p shape (a
/// JSON array) before the workspace (buffers[3]).
std::string withMask(const std::string &text, const std::string &type,
                     const std::string &shape) {
  return replaceOnce(text, R"({"name": "k_sum")",
                     R"({"name": "mask", "kind": "input", "type": ")" + type +
                         R"(", "shape": )" + shape + R"(},
    {"name": "k_sum")");
}
