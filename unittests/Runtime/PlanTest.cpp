//===- PlanTest.cpp - Parsing and validation of launch plans --------------===//

#include "sage/Runtime/Plan.h"

#include "gtest/gtest.h"

using namespace sage::rt;

// From TestPlans.cpp.
std::string samplePlanText();
std::string replaceOnce(const std::string &text, const std::string &from,
                        const std::string &to);
std::string rankThreePlanText();
std::string withMask(const std::string &text, const std::string &type,
                     const std::string &shape);

/// Returns the error of parsing \p text (empty if it parses).
static std::string parseError(const std::string &text) {
  LaunchPlan plan;
  return parsePlan(text, plan);
}

/// Returns the error of the sample plan with \p from replaced by \p to.
static std::string editedError(const std::string &from, const std::string &to) {
  return parseError(replaceOnce(samplePlanText(), from, to));
}

TEST(PlanTest, ParsesTheSample) {
  LaunchPlan plan;
  ASSERT_EQ(parsePlan(samplePlanText(), plan), "");
  EXPECT_EQ(plan.name, "attention");
  EXPECT_EQ(plan.ptx, "attention.ptx");
  EXPECT_EQ(plan.chip, "sm_90");
  EXPECT_EQ(plan.smVersion, 90);
  EXPECT_FALSE(plan.archSpecific);
  EXPECT_EQ(plan.variant, "int8-fp8");
  ASSERT_EQ(plan.layout.size(), 4u);
  EXPECT_EQ(plan.layout[0], DimRole::Batch);
  EXPECT_EQ(plan.layout[3], DimRole::Features);
  EXPECT_TRUE(plan.hasHeads());
  EXPECT_EQ(plan.headDim, 128);
  EXPECT_EQ(plan.valueDim, 128);
  EXPECT_EQ(plan.inputType, ElementType::F16);
  EXPECT_EQ(plan.outputType, ElementType::F16);
  EXPECT_EQ(plan.causal, sage::ref::Causal::None);
  EXPECT_DOUBLE_EQ(plan.scale, 0.08838834764831845);
  EXPECT_TRUE(plan.smooth.q);
  EXPECT_TRUE(plan.smooth.k);
  EXPECT_FALSE(plan.smooth.v);
  EXPECT_EQ(plan.tiles.blockQ, 64);
  EXPECT_EQ(plan.tiles.warpQ, 16);
  EXPECT_EQ(plan.tiles.blockK, 64);
  EXPECT_EQ(plan.tiles.warps, 4);

  ASSERT_EQ(plan.buffers.size(), 5u);
  const PlanBuffer &kSum = plan.buffers[3];
  EXPECT_EQ(kSum.name, "k_sum");
  EXPECT_EQ(kSum.kind, BufferKind::Workspace);
  EXPECT_EQ(kSum.type, ElementType::F32);
  EXPECT_TRUE(kSum.zeroInit);
  ASSERT_EQ(kSum.shape.size(), 3u);
  EXPECT_EQ(kSum.shape[1].text(), "Hkv");
  // An integer shape entry is a constant expression.
  EXPECT_TRUE(plan.buffers[1].shape[3].isConstant());
  EXPECT_EQ(plan.buffers[1].shape[3].text(), "128");
  EXPECT_FALSE(plan.buffers[0].zeroInit);
  EXPECT_EQ(plan.findBuffer("o"), 4);
  EXPECT_EQ(plan.findBuffer("lse"), -1);

  ASSERT_EQ(plan.kernels.size(), 2u);
  const PlanKernel &quantize = plan.kernels[0];
  EXPECT_EQ(quantize.name, "sage_quantize_k");
  EXPECT_EQ(quantize.grid[0].text(), "cdiv(Nk,64)");
  EXPECT_EQ(quantize.block[0].text(), "128");
  ASSERT_EQ(quantize.params.size(), 3u);
  EXPECT_EQ(quantize.params[0].kind, PlanParam::Kind::Buffer);
  EXPECT_EQ(quantize.params[0].buffer, 1);
  EXPECT_EQ(quantize.params[1].buffer, 3);
  EXPECT_EQ(quantize.params[2].kind, PlanParam::Kind::I32);
  EXPECT_EQ(quantize.params[2].value.text(), "Nk");
  EXPECT_EQ(plan.kernels[1].sharedBytes.text(), "65536");
}

TEST(PlanTest, RankThreeLayoutAndArchSpecificChip) {
  std::string text = samplePlanText();
  text = replaceOnce(text, R"(["batch", "heads", "tokens", "features"])",
                     R"(["batch", "tokens", "features"])");
  text = replaceOnce(text, R"("sm_90")", R"("sm_90a")");
  LaunchPlan plan;
  ASSERT_EQ(parsePlan(text, plan), "");
  EXPECT_FALSE(plan.hasHeads());
  EXPECT_EQ(plan.smVersion, 90);
  EXPECT_TRUE(plan.archSpecific);
}

TEST(PlanTest, CausalAlignment) {
  // A causal plan without an alignment is bottom-right, as plans written
  // before causal_alignment existed.
  const std::string causal = R"("causal": true)";
  LaunchPlan plan;
  ASSERT_EQ(
      parsePlan(replaceOnce(samplePlanText(), R"("causal": false)", causal),
                plan),
      "");
  EXPECT_EQ(plan.causal, sage::ref::Causal::BottomRight);
  for (auto [spelling, expected] :
       {std::pair{"bottom_right", sage::ref::Causal::BottomRight},
        std::pair{"top_left", sage::ref::Causal::TopLeft}}) {
    std::string text =
        replaceOnce(samplePlanText(), R"("causal": false)",
                    causal + R"(, "causal_alignment": ")" + spelling + "\"");
    ASSERT_EQ(parsePlan(text, plan), "") << spelling;
    EXPECT_EQ(plan.causal, expected) << spelling;
  }
  // Not causal: the alignment changes nothing.
  ASSERT_EQ(parsePlan(replaceOnce(
                          samplePlanText(), R"("causal": false)",
                          R"("causal": false, "causal_alignment": "top_left")"),
                      plan),
            "");
  EXPECT_EQ(plan.causal, sage::ref::Causal::None);
}

TEST(PlanTest, ElementTypes) {
  ElementType type;
  ASSERT_TRUE(parseElementType("f8E4M3FN", type));
  EXPECT_EQ(type, ElementType::F8E4M3FN);
  EXPECT_EQ(elementSize(type), 1u);
  ASSERT_TRUE(parseElementType("bf16", type));
  EXPECT_EQ(elementSize(type), 2u);
  ASSERT_TRUE(parseElementType("i32", type));
  EXPECT_EQ(elementSize(type), 4u);
  ASSERT_TRUE(parseElementType("i1", type));
  EXPECT_EQ(type, ElementType::I1);
  EXPECT_EQ(elementSize(type), 1u);
  EXPECT_FALSE(parseElementType("f64", type));
  EXPECT_STREQ(toString(ElementType::I8), "i8");
  EXPECT_STREQ(toString(ElementType::I1), "i1");
}

TEST(PlanTest, SyntaxErrors) {
  EXPECT_EQ(parseError("{\"format\": }"),
            "invalid JSON: parse error at line 1, column 12: syntax error "
            "while parsing value - unexpected '}'; expected '[', '{', or a "
            "literal");
  EXPECT_EQ(parseError(""),
            "invalid JSON: parse error at line 1, column 1: syntax error "
            "while parsing value - unexpected end of input; expected '[', "
            "'{', or a literal");
  EXPECT_EQ(parseError("[1, 2]"),
            "expected a JSON object at the top level, got array");
}

TEST(PlanTest, MissingFields) {
  EXPECT_EQ(editedError("\"head_dim\": 128,", ""), "field 'head_dim': missing");
  EXPECT_EQ(editedError(R"("warps": 4)", R"("warpz": 4)"),
            "field 'tiles.warps': missing");
  EXPECT_EQ(editedError(R"("block": [128, 1, 1], "shared_bytes": 0,)",
                        R"("block": [128, 1, 1],)"),
            "field 'kernels[0].shared_bytes': missing");
  EXPECT_EQ(editedError(R"({"name": "o", "kind": "output", "type": "f16",)",
                        R"({"name": "o", "kind": "output",)"),
            "field 'buffers[4].type': missing");
}

TEST(PlanTest, WrongTypes) {
  EXPECT_EQ(editedError(R"("causal": false)", R"("causal": 1)"),
            "field 'causal': expected a boolean, got number 1");
  EXPECT_EQ(editedError(R"("causal": false)",
                        R"("causal": true, "causal_alignment": "top")"),
            "field 'causal_alignment': expected \"bottom_right\" or "
            "\"top_left\", got \"top\"");
  EXPECT_EQ(editedError(R"("head_dim": 128)", R"("head_dim": "128")"),
            "field 'head_dim': expected a positive integer, got string "
            "\"128\"");
  EXPECT_EQ(editedError(R"("head_dim": 128)", R"("head_dim": 128.5)"),
            "field 'head_dim': expected a positive integer, got number 128.5");
  EXPECT_EQ(editedError(R"("head_dim": 128)", R"("head_dim": 0)"),
            "field 'head_dim': expected a positive integer, got number 0");
  EXPECT_EQ(editedError(R"("scale": 0.08838834764831845)", R"("scale": "x")"),
            "field 'scale': expected a number, got string \"x\"");
  EXPECT_EQ(editedError(R"("scale": 0.08838834764831845)", R"("scale": -1)"),
            "field 'scale': expected a non-negative number, got -1");
  EXPECT_EQ(editedError(R"("scale": 0.08838834764831845)",
                        R"("scale": 0.1, "ranges": {"p": 0, "v": 4.5})"),
            "field 'ranges.p': expected more than 0, got 0");
  EXPECT_EQ(editedError(R"("scale": 0.08838834764831845)",
                        R"("scale": 0.1, "qk_granularity": "per_channel")"),
            "field 'qk_granularity': expected one of "
            "[\"per_thread\",\"per_warp\",\"per_block\",\"per_token\","
            "\"microscale\"], got \"per_channel\"");
  EXPECT_EQ(editedError(R"("scale": 0.08838834764831845)",
                        R"("scale": 0.1, "ranges": {"p": 224})"),
            "field 'ranges.v': missing");
  EXPECT_EQ(editedError(R"("smooth": {"q": true, "k": true, "v": false})",
                        R"("smooth": [true])"),
            "field 'smooth': expected an object, got array");
  EXPECT_EQ(editedError(R"("buffers": [)", R"("buffers": {"a": [)"),
            "invalid JSON: parse error at line 39, column 2: syntax error "
            "while parsing object - unexpected end of input; expected '}'");
  EXPECT_EQ(editedError(R"-("grid": [{"cdiv": ["Nk", 64]}, "Hkv", "B"])-",
                        R"-("grid": [{"cdiv": ["Nk", 64]}, true, "B"])-"),
            "field 'kernels[0].grid[1]': expected a size (a non-negative "
            "integer, a size name, {\"cdiv\": [a, b]} or {\"mul\": [a, b]}), "
            "got boolean");
  EXPECT_EQ(editedError(R"-("grid": [{"cdiv": ["Nk", 64]}, "Hkv", "B"])-",
                        R"-("grid": [{"cdiv": ["Nk", 64]}, "Hkv"])-"),
            "field 'kernels[0].grid': expected 3 extents, got 2");
  EXPECT_EQ(editedError(R"("block": [128, 1, 1], "shared_bytes": 0)",
                        R"("block": [128, -1, 1], "shared_bytes": 0)"),
            "field 'kernels[0].block[1]': expected a non-negative integer, "
            "got number -1");
  EXPECT_EQ(editedError(R"("kernels": [)", R"("kernels": 7, "x": [)"),
            "field 'kernels': expected an array, got number 7");
}

TEST(PlanTest, FollowsTheSchema) {
  // Fields the reader does not read are still checked, against
  // docs/launch-plan.schema.json.
  EXPECT_EQ(
      editedError(R"("causal": false)", R"("causal": false, "comment": "x")"),
      "field 'comment': unknown field");
  EXPECT_EQ(editedError(R"("init": "zero")", R"("init": "zero", "align": 8)"),
            "field 'buffers[3].align': unknown field");
  EXPECT_EQ(editedError(R"("warps": 4})", R"("warps": 4, "stages": 2})"),
            "field 'tiles.stages': unknown field");
}

TEST(PlanTest, BadValues) {
  EXPECT_EQ(
      editedError(R"("format": "sage-launch-plan")", R"("format": "other")"),
      "field 'format': expected \"sage-launch-plan\", got \"other\"");
  EXPECT_EQ(editedError(R"("version": 2)", R"("version": 3)"),
            "field 'version': expected 2, got 3");
  EXPECT_EQ(editedError(R"("chip": "sm_90")", R"("chip": "gfx90a")"),
            "field 'chip': expected sm_<NN> with an optional 'a' or 'f', got "
            "'gfx90a'");
  EXPECT_EQ(editedError(R"(["batch", "heads", "tokens", "features"])",
                        R"(["batch", "heads", "tokens"])"),
            "field 'layout': expected a permutation of [batch, heads, tokens, "
            "features] or [batch, tokens, features], got [batch, heads, "
            "tokens]");
  EXPECT_EQ(editedError(R"(["batch", "heads", "tokens", "features"])",
                        R"(["batch", "heads", "seq", "features"])"),
            "field 'layout[2]': unknown dimension 'seq' (expected batch, "
            "heads, tokens or features)");
  EXPECT_EQ(editedError(R"("input_type": "f16")", R"("input_type": "f64")"),
            "field 'input_type': unknown type 'f64' (expected f16, bf16, f32, "
            "i8, f8E4M3FN, i32 or i1)");
}

TEST(PlanTest, BadBuffers) {
  EXPECT_EQ(editedError(R"("kind": "workspace")", R"("kind": "scratch")"),
            "field 'buffers[3].kind': unknown kind 'scratch' (expected input, "
            "output or workspace)");
  EXPECT_EQ(editedError(R"("type": "f32")", R"("type": "f64")"),
            "field 'buffers[3].type': unknown type 'f64' (expected f16, bf16, "
            "f32, i8, f8E4M3FN, i32 or i1)");
  EXPECT_EQ(editedError(R"("init": "zero")", R"("init": "one")"),
            "field 'buffers[3].init': expected \"zero\", got string \"one\"");
  EXPECT_EQ(editedError(R"("shape": ["B", "Hkv", 128])",
                        R"("shape": ["B", "Hkv", "D"])"),
            "field 'buffers[3].shape[2]': unknown size 'D'; expected B, H, "
            "Hkv, Nq or Nk");
  EXPECT_EQ(editedError(R"("shape": ["B", "Hkv", 128])",
                        R"("shape": ["B", "Hkv", {"cdiv": ["Nk", -1]}])"),
            "field 'buffers[3].shape[2].cdiv[1]': expected a non-negative "
            "integer, got number -1");
  EXPECT_EQ(editedError(R"("shape": ["B", "Hkv", 128])",
                        R"("shape": ["B", "Hkv", {"mul": ["Nk"]}])"),
            "field 'buffers[3].shape[2].mul': expected [size, size], got "
            "array");
  EXPECT_EQ(editedError(R"({"name": "k_sum")", R"({"name": "q")"),
            "field 'buffers[3].name': duplicate buffer 'q'");
  EXPECT_EQ(editedError(R"({"name": "k_sum")", R"({"name": "")"),
            "field 'buffers[3].name': expected a non-empty name");
  EXPECT_EQ(editedError(R"({"name": "v", "kind": "input")",
                        R"({"name": "bias", "kind": "input")"),
            "field 'buffers[2].name': unknown input buffer 'bias' (expected "
            "q, k, v or mask)");
  EXPECT_EQ(editedError(R"({"name": "o", "kind": "output")",
                        R"({"name": "out", "kind": "output")"),
            "field 'buffers[4].name': unknown output buffer 'out' (expected o "
            "or lse)");
  EXPECT_EQ(editedError(R"({"name": "v", "kind": "input")",
                        R"({"name": "v", "kind": "workspace")"),
            "field 'buffers[2].kind': buffer 'v' must be an input, got "
            "workspace");
  EXPECT_EQ(editedError(R"({"name": "v", "kind": "input", "type": "f16")",
                        R"({"name": "v", "kind": "input", "type": "bf16")"),
            "field 'buffers[2].type': buffer 'v' has type bf16 but input_type "
            "is f16");
  EXPECT_EQ(editedError(R"({"name": "o", "kind": "output", "type": "f16")",
                        R"({"name": "lse", "kind": "output", "type": "f16")"),
            "field 'buffers[4].type': buffer 'lse' has type f16 but the lse "
            "type is f32");
  EXPECT_EQ(editedError(R"({"name": "o", "kind": "output", "type": "f16")",
                        R"({"name": "lse", "kind": "output", "type": "f32")"),
            "field 'buffers': missing the output buffer 'o'");
}

TEST(PlanTest, Masks) {
  // Any of the four types; B or 1, H or 1 (rank 4), then Nq, Nk.
  const std::pair<const char *, const char *> rankFour[] = {
      {"i1", R"(["B", "H", "Nq", "Nk"])"},
      {"f16", R"([1, 1, "Nq", "Nk"])"},
      {"bf16", R"([1, "H", "Nq", "Nk"])"},
      {"f32", R"(["B", 1, "Nq", "Nk"])"}};
  for (const auto &[type, shape] : rankFour) {
    LaunchPlan plan;
    ASSERT_EQ(parsePlan(withMask(samplePlanText(), type, shape), plan), "")
        << type << " " << shape;
    const PlanBuffer &mask = plan.buffers[3];
    EXPECT_EQ(mask.name, "mask");
    EXPECT_EQ(mask.kind, BufferKind::Input);
    EXPECT_EQ(toString(mask.type), std::string(type));
  }
  for (const char *shape : {R"(["B", "Nq", "Nk"])", R"([1, "Nq", "Nk"])"})
    EXPECT_EQ(parseError(withMask(rankThreePlanText(), "i1", shape)), "")
        << shape;
}

TEST(PlanTest, BadMasks) {
  auto maskError = [](const char *type, const char *shape) {
    return parseError(withMask(samplePlanText(), type, shape));
  };
  EXPECT_EQ(maskError("i8", R"(["B", "H", "Nq", "Nk"])"),
            "field 'buffers[3].type': buffer 'mask' has type i8 (expected i1, "
            "f16, bf16 or f32)");
  EXPECT_EQ(maskError("i1", R"(["Nq", "Nk"])"),
            "field 'buffers[3].shape': buffer 'mask' has 2 dimensions, "
            "expected [B or 1, H or 1, Nq, Nk] (the layout has heads)");
  EXPECT_EQ(maskError("i1", R"(["B", "Hkv", "Nq", "Nk"])"),
            "field 'buffers[3].shape[1]': buffer 'mask' has extent 'Hkv', "
            "expected H or 1 (the mask is [B or 1, H or 1, Nq, Nk])");
  EXPECT_EQ(maskError("f16", R"(["B", "H", "Nk", "Nq"])"),
            "field 'buffers[3].shape[2]': buffer 'mask' has extent 'Nk', "
            "expected Nq (the mask is [B or 1, H or 1, Nq, Nk])");
  EXPECT_EQ(maskError("f16", R"(["B", "H", "Nq", 1])"),
            "field 'buffers[3].shape[3]': buffer 'mask' has extent '1', "
            "expected Nk (the mask is [B or 1, H or 1, Nq, Nk])");
  EXPECT_EQ(maskError("f32", R"([2, "H", "Nq", "Nk"])"),
            "field 'buffers[3].shape[0]': buffer 'mask' has extent '2', "
            "expected B or 1 (the mask is [B or 1, H or 1, Nq, Nk])");
  EXPECT_EQ(parseError(withMask(rankThreePlanText(), "i1",
                                R"(["B", "H", "Nq", "Nk"])")),
            "field 'buffers[3].shape': buffer 'mask' has 4 dimensions, "
            "expected [B or 1, Nq, Nk] (the layout has no heads)");
  EXPECT_EQ(editedError(R"({"name": "k_sum")", R"({"name": "mask")"),
            "field 'buffers[3].kind': buffer 'mask' must be an input, got "
            "workspace");
}

TEST(PlanTest, BadKernels) {
  EXPECT_EQ(editedError(R"({"buffer": "k_sum"}, {"i32": "Nk"})",
                        R"({"buffer": "k_sum2"}, {"i32": "Nk"})"),
            "field 'kernels[0].params[1].buffer': unknown buffer 'k_sum2'");
  EXPECT_EQ(editedError(R"({"buffer": "k_sum"}, {"i32": "Nk"})",
                        R"({"buffer": "k_sum"}, {"i64": "Nk"})"),
            "field 'kernels[0].params[2]': unknown parameter kind 'i64' "
            "(expected buffer or i32)");
  EXPECT_EQ(editedError(R"({"buffer": "k_sum"}, {"i32": "Nk"})",
                        R"({"buffer": "k_sum", "i32": "Nk"})"),
            "field 'kernels[0].params[1]': expected {\"buffer\": NAME} or "
            "{\"i32\": EXPR}, got an object with 2 keys");
  EXPECT_EQ(editedError(R"({"buffer": "k_sum"}, {"i32": "Nk"})",
                        R"({"buffer": "k_sum"}, {"i32": "Nk +"})"),
            "field 'kernels[0].params[2].i32': unknown size 'Nk +'; expected "
            "B, H, Hkv, Nq or Nk");
  EXPECT_EQ(editedError(R"({"buffer": "k_sum"}, {"i32": "Nk"})",
                        R"({"buffer": 3}, {"i32": "Nk"})"),
            "field 'kernels[0].params[1].buffer': expected a string, got "
            "number 3");
  EXPECT_EQ(editedError(R"("name": "sage_quantize_k")", R"("name": "")"),
            "field 'kernels[0].name': expected a non-empty name");
}

TEST(PlanTest, EmptyKernelList) {
  std::string text = samplePlanText();
  size_t at = text.find("\"kernels\": [");
  ASSERT_NE(at, std::string::npos);
  text = text.substr(0, at) + "\"kernels\": []\n}";
  EXPECT_EQ(parseError(text), "field 'kernels': expected at least one kernel");
}

TEST(PlanTest, LoadPlanFileNamesTheFile) {
  LaunchPlan plan;
  std::string error = loadPlanFile("/nonexistent/plan.json", plan);
  EXPECT_EQ(error,
            "cannot read '/nonexistent/plan.json': No such file or directory");
}
