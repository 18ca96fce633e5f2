//===- Pipelines.h - sage pass pipelines ------------------------*- C++ -*-===//

#ifndef SAGE_PIPELINES_PIPELINES_H
#define SAGE_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace sage {

/// Options of --sage-to-ptx.
struct SageToPTXOptions : public PassPipelineOptions<SageToPTXOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("Target GPU: sm_80, sm_86, sm_89, sm_90, sm_90a, "
                     "sm_100a, sm_120a"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> variant{
      *this, "variant",
      llvm::cl::desc(
          "Recipe every sage.attention must have (int8-fp8, "
          "int4-fp8, int8-fp8-f16acc, int4-fp8-f16acc, nvfp4, int8-fp16, "
          "int8-fp16-f16acc); "
          "auto gives each the chip's (docs/Recipes.md); empty accepts "
          "each op's own"),
      llvm::cl::init("")};
  PassOptions::Option<int64_t> blockQ{
      *this, "block-q",
      llvm::cl::desc("Query rows per CTA (64 or 128); 0 (with block-k 0): "
                     "the measured schedule for the attention on the chip "
                     "(docs/Tuning.md), else 128 (two warpgroups) for "
                     "wgmma, 64 for mma.sync"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> warpQ{*this, "warp-q",
                                     llvm::cl::desc("Query rows per warp"),
                                     llvm::cl::init(16)};
  PassOptions::Option<int64_t> blockK{
      *this, "block-k",
      llvm::cl::desc("Key/value tokens per K/V block; 0 (with block-q 0): "
                     "the measured schedule, else 64"),
      llvm::cl::init(0)};
  PassOptions::Option<std::string> tuningTable{
      *this, "tuning-table",
      llvm::cl::desc("Schedules measured by benchmarks/tune_attention.py "
                     "(JSON) instead of the built-in table"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> mmaScope{
      *this, "mma-scope",
      llvm::cl::desc("The attention kernel's MMAs: warp (mma.sync), "
                     "warpgroup (wgmma, sm_90a) or auto (warpgroup on "
                     "sm_90a, warp elsewhere)"),
      llvm::cl::init("auto")};
  PassOptions::Option<std::string> kvStaging{
      *this, "kv-staging",
      llvm::cl::desc("How K/V blocks reach shared memory: cp-async, bulk "
                     "(wgmma only) or auto (bulk for wgmma)"),
      llvm::cl::init("auto")};
  PassOptions::Option<int64_t> kvStages{
      *this, "kv-stages",
      llvm::cl::desc("K/V blocks in flight in shared memory (more than 2 "
                     "needs bulk copies); 0 (auto): as the measured "
                     "schedule says, else 3 with overlap-softmax or "
                     "warpgroup-turns, else 2"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> ctasPerSm{
      *this, "ctas-per-sm",
      llvm::cl::desc("The CTAs of the attention kernel an SM must hold "
                     "(nvvm.minctasm); 1 asks nothing (a warp-specialized "
                     "kernel: one CTA's budgets); 0 (auto): as the measured "
                     "schedule says, else the lowering's rule"),
      llvm::cl::init(0)};
  PassOptions::Option<std::string> warpSpecialize{
      *this, "warp-specialize",
      llvm::cl::desc("true: a producer warpgroup streams K/V blocks by bulk "
                     "copies while the consumers compute (needs bulk "
                     "copies); false: every warp computes; auto: true for "
                     "the bulk-staged wgmma kernel with block-q = 128 and "
                     "block-k = 64 at a padded head dim >= 128 (D > 96)"),
      llvm::cl::init("auto")};
  PassOptions::Option<std::string> overlapSoftmax{
      *this, "overlap-softmax",
      llvm::cl::desc("true: the wgmma kernel runs block j's softmax while "
                     "block j - 1's P V is in flight; false: one block after "
                     "the other; auto: as the measured schedule says"),
      llvm::cl::init("auto")};
  PassOptions::Option<std::string> warpgroupTurns{
      *this, "warpgroup-turns",
      llvm::cl::desc("true: the wgmma kernel's consumer warpgroups take "
                     "turns issuing their P V wgmmas (named barriers); "
                     "false: each issues when ready; auto: as the measured "
                     "schedule says"),
      llvm::cl::init("auto")};
  PassOptions::Option<bool> emulateBlockScaledMma{
      *this, "emulate-block-scaled-mma",
      llvm::cl::desc("Test aid: compute NVFP4's block-scaled mma.sync "
                     "(sm_120a) in lane arithmetic, so that the kernels run "
                     "on any chip for checks against the CPU model; slow, "
                     "and not the tensor cores' rounding"),
      llvm::cl::init(false)};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level", llvm::cl::desc("LLVM optimization level"),
      llvm::cl::init(3)};
  PassOptions::Option<std::string> binaryFormat{
      *this, "binary-format",
      llvm::cl::desc("What each kernel module embeds: isa (PTX, which the "
                     "driver compiles at load time), bin (a cubin; ptxas of "
                     "the CUDA toolkit at compile time) or fatbin (the cubin "
                     "and the PTX; ptxas and fatbinary)"),
      llvm::cl::init("isa")};
  PassOptions::Option<std::string> cudaToolkit{
      *this, "cuda-toolkit",
      llvm::cl::desc("The CUDA toolkit whose ptxas and fatbinary build "
                     "binary-format=bin or fatbin (default: where MLIR's "
                     "NVPTX target looks, e.g. /usr/local/cuda)"),
      llvm::cl::init("")};
};

/// Options of --sage-levels.
struct SageLevelsOptions : public PassPipelineOptions<SageLevelsOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("Target GPU: sm_80, sm_89, sm_90, sm_120a (mma.sync "
                     "rows of docs/Mma.md), sm_90a (wgmma rows with "
                     "mma-scope=warpgroup)"),
      llvm::cl::init("sm_89")};
  PassOptions::Option<std::string> variant{
      *this, "variant",
      llvm::cl::desc(
          "Recipe every sage.attention must have (int8-fp8, "
          "int8-fp8-f16acc, int8-fp16: the variants the levels compile); "
          "auto gives each the chip's (sage-select-variant, "
          "docs/Recipes.md); empty accepts each op's own"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> mmaScope{
      *this, "mma-scope",
      llvm::cl::desc("The MMAs' scope (sage-select-mma scope): warp "
                     "(mma.sync), warpgroup (wgmma, sm_90a) or auto (the "
                     "chip's: wgmma on sm_90a, mma.sync elsewhere)"),
      llvm::cl::init("auto")};
  PassOptions::Option<int64_t> blockQ{
      *this, "block-q",
      llvm::cl::desc("Query rows per Q block; 0 (with block-k 0): for "
                     "wgmma the measured schedule's where its row is one "
                     "the levels build (docs/Tuning.md), else 128 (two "
                     "warpgroups a CTA); 64 for mma.sync; or the rows of "
                     "the Q groups of a sage.quantized_attention given "
                     "quantized"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> blockK{
      *this, "block-k",
      llvm::cl::desc("Keys per K/V block; 0 (with block-q 0): the "
                     "measured schedule's, as for block-q, else 64; or the "
                     "tokens of the K groups of a sage.quantized_attention "
                     "given quantized"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> stages{
      *this, "stages",
      llvm::cl::desc("Stages of the K/V loop's workgroup tiles: 1 stages "
                     "one block at a time; 2 stages block j + 1 while "
                     "block j computes (sage-pipeline-tiles); 0: 2 for "
                     "wgmma and for mma.sync blocks of 16 KiB or more "
                     "(D = 128), else 1 (measured in docs/Levels.md)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> storeValues{
      *this, "store-values",
      llvm::cl::desc("Quantize V into the order the P V MMA reads "
                     "(sage-decompose-attention store-values; "
                     "docs/Layouts.md), staged by plain copies; 0 keeps V "
                     "row-major, transposed by each CTA (mma.sync only: "
                     "wgmma always stores it)"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> valueOrder{
      *this, "value-order",
      llvm::cl::desc("The order of V's stored key groups "
                     "(sage-decompose-attention value-order): accumulator, "
                     "P's; natural, ascending, put in P's order by the "
                     "stage-order copy (sage-store-stage-order)"),
      llvm::cl::init("accumulator")};
  PassOptions::Option<unsigned> ctasPerSm{
      *this, "ctas-per-sm",
      llvm::cl::desc("The CTAs of every kernel an SM must hold "
                     "(nvvm.minctasm, which bounds its registers; any value "
                     "overrides the rules below); 0: 2 for a wgmma kernel "
                     "whose wgmmas are at most 64 columns wide (D = 64), 3 "
                     "for an mma.sync kernel with 64 to 127 f32 "
                     "accumulator elements a lane (D = 128) where the "
                     "chip's shared memory holds three "
                     "(sage-bound-registers), else nothing"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> clusterCtas{
      *this, "cluster-ctas",
      llvm::cl::desc("Consecutive Q blocks launched as one cluster whose "
                     "CTAs share each K/V block, each CTA's bulk copies "
                     "multicast to all (sm_90a, not causal; docs/Levels.md, "
                     "\"Clusters\"); 1: none"),
      llvm::cl::init(1)};
};

/// The levels of docs/Levels.md from sage.attention (or the frontend forms
/// sage-raise-attention takes) to NVVM on the lanes' fragments: raise,
/// decompose, tile, select the mma.sync rows, assign the fragment
/// encodings, distribute, promote, the lanes' stores and the launch, with
/// the statistics and quantizers as kernels of their own and one host
/// function launching them all, down to PTX. For reading and testing the
/// levels (--mlir-print-ir-after-all); --sage-to-ptx still writes the
/// shipped kernels and their launch plan.
void buildSageLevelsPipeline(OpPassManager &pm,
                             const SageLevelsOptions &options);

/// sage.attention -> decomposition -> GPU kernels and launch plan -> NVVM ->
/// gpu.binary holding PTX.
void buildSageToPTXPipeline(OpPassManager &pm, const SageToPTXOptions &options);

/// --sage-to-ptx, then the host launchers lowered to the LLVM dialect.
void buildSageToLLVMPipeline(OpPassManager &pm,
                             const SageToPTXOptions &options);

/// Registers --sage-to-ptx, --sage-to-llvm and --sage-levels.
void registerSagePipelines();

} // namespace sage
} // namespace mlir

#endif // SAGE_PIPELINES_PIPELINES_H
