//===- Passes.td - sage conversion passes ------------------*- tablegen -*-===//

#ifndef SAGE_CONVERSION_PASSES_TD
#define SAGE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertSageToGPU : Pass<"convert-sage-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Compile decomposed sage attention into GPU kernels and a launch plan";
  let description = [{
    Turns each function that computes one decomposed attention (the
    `sage.smooth` / `sage.quantize` ops feeding a `sage.quantized_attention`
    on the function's arguments) into a `gpu.module` of SIMT kernels and a
    launch plan (docs/LaunchPlan.md), recorded in the module's
    `sage.launch_plans` dictionary under the kernel module's name. The
    function itself is removed: its host side is the plan, executed by
    `sage-run` or any CUDA Driver API client.

    Kernels: token sums for the K / V means, the V channel maxima, INT8 or
    INT4 quantization of K and Q with per_thread, per_warp, per_block or
    per_token scales (with Q block means), E4M3 (or f16) V
    transposed into the key order of the PV mma.sync, and the attention
    kernel (`sage.warp_mma` of the m16n8k32 s8 or m16n8k64 s4 row for
    Q K^T and of the e4m3 m16n8k32 or f16 m16n8k16 row with an f32
    accumulator for P V, FP32 buffer per K/V block, or with an f16
    accumulator flushed every `every` MMAs; for NVFP4, Q, K, V and P in
    E2M1 with E4M3 scales a 16 elements through the block-scaled m16n8k64
    row, sm_120a's; `convert-sage-to-nvvm` emits the instructions); with
    `mma-scope=warpgroup` (sm_90a) both products are `sage.warpgroup_mma`
    (wgmma) reading K and V^T from shared memory through matrix
    descriptors, the operands stored as `#sage.mma_ordered`; that is the
    default (`mma-scope=auto`) on sm_90a. There the operands are stored in
    the K/V stage's core-matrix tiles and each K or V^T tile arrives by one
    bulk copy on an mbarrier (`kv-staging=auto` or `bulk`;
    docs/Layouts.md), or row after row by cp.async (`kv-staging=cp-async`). A mask is the plan's
    `mask` input, added to the scores in the loop. What is not implemented
    (docs/Recipes.md: INT4, NVFP4 or the f16 accumulator on wgmma; MX
    microscaling) is an error naming it.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::func::FuncDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target GPU (sm_89, sm_90, sm_90a, sm_100a, sm_120a, ...)">,
    Option<"mmaScope", "mma-scope", "std::string", /*default=*/"\"auto\"",
           "The attention kernel's MMAs: warp (mma.sync, operands in "
           "registers), warpgroup (wgmma with K and V read from shared "
           "memory through descriptors; sm_90a) or auto (warpgroup on "
           "sm_90a, warp elsewhere)">,
    Option<"kvStaging", "kv-staging", "std::string", /*default=*/"\"auto\"",
           "How K/V blocks reach shared memory: cp-async (16 bytes a "
           "thread, from operands stored row after row), bulk (one "
           "cp.async.bulk a tile on an mbarrier, from operands stored in "
           "the stage's core-matrix tiles; wgmma only) or auto (bulk for "
           "wgmma, cp-async for mma.sync). An operand's own layout "
           "attribute overrides it">,
    Option<"kvStages", "kv-stages", "int64_t", /*default=*/"0",
           "K/V blocks in flight in shared memory (more than 2 needs bulk "
           "copies); 0 (auto): as a measured schedule for the attention's "
           "tiles says, else 3 with overlap-softmax or warpgroup-turns, else 2">,
    Option<"ctasPerSm", "ctas-per-sm", "int64_t", /*default=*/"0",
           "The CTAs of the attention kernel an SM must hold at once "
           "(nvvm.minctasm: ptxas caps a thread's registers to fit them); "
           "1 asks nothing of ptxas (a warp-specialized kernel: one CTA's "
           "register budgets); 0 (auto): as a measured schedule for the "
           "attention's kernel says, else 4 for the mma.sync kernel at "
           "D = 64 with 64 x 64 tiles and no causal mask, else nothing (a "
           "warp-specialized kernel: what its roles' rule fits)">,
    Option<"warpSpecialize", "warp-specialize", "std::string",
           /*default=*/"\"auto\"",
           "true: a producer warpgroup streams K/V blocks by bulk copies "
           "while the consumer warpgroups compute (sage.warp_specialize; "
           "needs bulk copies); false: every warp computes; auto: true for "
           "the bulk-staged wgmma kernel with block-q = 128 and block-k = 64 "
           "at a padded head dim >= 128 (D > 96), where it is faster on the "
           "H200; a measured schedule for the attention's tiles (docs/"
           "Tuning.md) overrides that rule">,
    Option<"overlapSoftmax", "overlap-softmax", "std::string",
           /*default=*/"\"auto\"",
           "true: the wgmma kernel runs block j's softmax while block "
           "j - 1's P V is in flight (the loop software-pipelined by one "
           "block; three K/V stages without a producer); false: one block "
           "after the other; auto: as a measured schedule for the "
           "attention's tiles says, else false">,
    Option<"warpgroupTurns", "warpgroup-turns", "std::string",
           /*default=*/"\"auto\"",
           "true: the wgmma kernel's consumer warpgroups (block-q = 128 or "
           "192) take turns issuing their P V wgmma (with overlap-softmax, "
           "both of an iteration's groups), in a ring of named barriers, "
           "while the others run their softmax; K/V stages are released on "
           "mbarriers, not by CTA barriers; false: each issues when ready; "
           "auto: as a measured schedule for the attention's tiles says, "
           "else false">,
    Option<"tuningTable", "tuning-table", "std::string", /*default=*/"\"\"",
           "A table of schedules written by benchmarks/tune_attention.py, "
           "instead of the built-in one">
  ];
}

def ConvertSageToNVVM : Pass<"convert-sage-to-nvvm"> {
  let summary = "Lower sage's ops on a lane's fragments to NVVM (L5)";
  let description = [{
    One pattern per op (docs/Levels.md, L5). A `sage.warp_mma` becomes the
    instruction its `#sage.mma` row names (docs/Mma.md): `nvvm.mma.sync`
    for the s8, s4 and f16 rows, and the LLVM intrinsic for the e4m3 rows,
    which MLIR 22's `nvvm.mma.sync` verifier rejects. Fragments become the
    instruction's registers by `vector.bitcast` and `vector.extract`,
    which fold away where the fragment was built from registers.
    `sage.online_softmax` and `sage.accumulate` on fragments of an
    `mma.sync` accumulator become f32 arithmetic per element, `ex2`, and
    butterfly shuffles over the four lanes that share a row; on tiles they
    are left for the levels above. The scalar math of the quantizers'
    kernels that the upstream conversions would not lower here becomes one
    instruction each: `arith.truncf` to FP8 the saturating `cvt` of a pair,
    `math.absf` and `math.roundeven` the LLVM intrinsics (not libdevice
    calls). A `sage.tile_descriptor` of a workgroup buffer becomes the
    `sage.matrix_descriptor` of its element's address, which becomes the
    descriptor's 64 bits.

    Upstream's `nvgpu.mma.sync` is not used: it makes every integer MMA
    `.satfinite` (the table's s8 row wraps) and takes 2-D fragments; tried
    in the attention kernel, its lowering split the kernel's 16-byte
    fragment loads.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def SageEmulateBlockScaledMma : Pass<"sage-emulate-block-scaled-mma"> {
  let summary = "Test aid: compute NVFP4's block-scaled mma.sync in lane "
                "arithmetic, for chips without it";
  let description = [{
    Replaces each `sage.warp_mma` of the block-scaled NVFP4 row (m16n8k64
    `kind::mxf4nvf4`, sm_120a only) by shuffles, E2M1 / UE4M3 decoding and
    f32 sums over the same registers, modeling the instruction's fragments
    and scale lanes (docs/Mma.md), so that the NVFP4 kernels run on a GPU
    without the instruction (the H200) and their quantizers, layouts and
    scale registers can be checked against the CPU model. It is slow and
    need not round as the tensor cores do: never a fallback, only what
    `--sage-to-ptx emulate-block-scaled-mma=true` asks for. The
    arithmetic is one function of each kernel module
    (`sage_emulated_mma_nvfp4`, not inlined), which each MMA calls.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def SageNVVMAddressSpaces : Pass<"sage-nvvm-address-spaces",
                                 "::mlir::gpu::GPUModuleOp"> {
  let summary = "Renumber a GPU module's memory spaces as NVVM's";
  let description = [{
    Replaces `#gpu.address_space<workgroup>`, `<private>` and `<global>`
    on every type and attribute of the module by NVVM's address spaces
    (3, 5, 1), so that `convert-vector-to-llvm` and
    `convert-nvgpu-to-nvvm`, which do not map the GPU dialect's attribute,
    accept the workgroup tiles of the promote level (docs/Levels.md, L3).
  }];
}

def SageBoundRegisters : Pass<"sage-bound-registers",
                              "::mlir::gpu::GPUModuleOp"> {
  let summary = "Three (four) CTAs an SM for MMA kernels of one warpgroup "
                "with a wide (a wgmma's narrow) accumulator, where the "
                "chip's shared memory holds them";
  let description = [{
    Sets `nvvm.minctasm = wide-mma-ctas-per-sm` (ptxas then caps a
    thread's registers so that that many CTAs fit an SM) on each kernel
    without one that issues `sage.warp_mma` or `sage.warpgroup_mma` from at
    most 128 threads, accumulates 64 to 127 f32 elements a lane in a
    `sage.accumulate` (the O fragment at D = 128; wider ones would spill),
    and whose workgroup memory, plus the
    1 KiB the driver keeps a CTA, fits that many times in the shared
    memory an SM of the module's `#nvvm.target` chip has. Left unbounded,
    ptxas gives the levels' D = 128 mma.sync kernel 255 registers: two
    CTAs of 128 threads an SM; three at 168 registers ran faster on an
    H100 (docs/Levels.md, "Registers"); the wgmma kernel of 64 x 128
    tiles takes 245, one CTA an SM, and ran 769 TOPS at three
    (benchmarks/results/2026-12-07-levels.md). Likewise
    `nvvm.minctasm = narrow-wgmma-ctas-per-sm` on such a kernel that
    issues `sage.warpgroup_mma` and accumulates 32 to 63 f32 elements a
    lane (O at D = 64): four CTAs an SM at 128 registers, which the
    kernel took unbounded until a change left it 130 (three CTAs,
    benchmarks/results/2026-12-07-quantizers.md). Runs after
    `sage-lower-staging`, whose workgroup attributions are the kernel's
    final workgroup memory, and before `convert-sage-to-nvvm`, while the
    sage ops say what the kernel computes. A kernel whose chip shares less
    shared memory (sm_89: 100 KiB, so two such CTAs) is left alone: the
    bound would cost registers and buy no CTA. An explicit `ctas-per-sm`
    of `--sage-levels` (an `nvvm.minctasm` set before) overrides it.
  }];
  let options = [
    Option<"wideMmaCtasPerSm", "wide-mma-ctas-per-sm", "unsigned",
           /*default=*/"3",
           "nvvm.minctasm for such a kernel; 0 asks nothing">,
    Option<"narrowWgmmaCtasPerSm", "narrow-wgmma-ctas-per-sm", "unsigned",
           /*default=*/"4",
           "nvvm.minctasm for a wgmma kernel with O of 32 to 63 f32 a "
           "lane; 0 asks nothing">
  ];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def SageAttachNVVMTarget : Pass<"sage-attach-nvvm-target", "::mlir::ModuleOp"> {
  let summary = "Attach each kernel module's NVVM target, at the PTX ISA "
                "version its MMA instructions need";
  let description = [{
    Gives every `gpu.module` an `#nvvm.target` for `chip`, whose PTX ISA
    version is the lowest that both the chip's default (8.4, the first with
    FP8 `mma.sync`; 8.7 for sm_100 and newer) and every instruction that
    the module's `sage.warp_mma` / `sage.warpgroup_mma` ops name in the MMA
    table (docs/Mma.md) accept: the f16-accumulator FP8 `mma.sync` of
    SageAttention2++ needs PTX ISA 8.7, which LLVM does not check. Runs
    while the sage ops are still there (before `convert-sage-to-nvvm`).
    An instruction the chip cannot run is an error naming both. With
    `ctas-per-sm`, each kernel without an `nvvm.minctasm` gets that one;
    with `narrow-wgmma-ctas-per-sm`, each kernel left without one whose
    wgmmas are all at most 64 columns wide and whose known block size is
    at most 256 threads gets that one (the levels' wgmma kernel at D = 64:
    two CTAs of 256 threads an SM at 128 registers each, docs/Levels.md).
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_89\"",
           "The chip the kernels are compiled for (sm_80 ... sm_120a)">,
    Option<"optLevel", "O", "unsigned", /*default=*/"3",
           "Optimization level of the PTX backend">,
    Option<"ctasPerSm", "ctas-per-sm", "unsigned", /*default=*/"0",
           "The CTAs of each kernel an SM must hold: nvvm.minctasm on "
           "every kernel without one, which bounds its registers; 0 asks "
           "nothing">,
    Option<"narrowWgmmaCtasPerSm", "narrow-wgmma-ctas-per-sm", "unsigned",
           /*default=*/"0",
           "nvvm.minctasm for a kernel whose wgmmas are all at most 64 "
           "columns wide, where ctas-per-sm sets none; 0 asks nothing">
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect",
    "::mlir::NVVM::NVVMDialect"
  ];
}

#endif // SAGE_CONVERSION_PASSES_TD
