//===- Passes.h - sage transformation passes --------------------*- C++ -*-===//

#ifndef SAGE_TRANSFORMS_PASSES_H
#define SAGE_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"
#include "sage/Dialect/Sage/IR/SageAttrs.h"

namespace mlir {
class RewritePatternSet;
namespace affine {
class AffineDialect;
} // namespace affine
namespace arith {
class ArithDialect;
} // namespace arith
namespace bufferization {
class BufferizationDialect;
} // namespace bufferization
namespace func {
class FuncDialect;
class FuncOp;
} // namespace func
namespace gpu {
class GPUDialect;
} // namespace gpu
namespace scf {
class SCFDialect;
} // namespace scf
namespace nvgpu {
class NVGPUDialect;
} // namespace nvgpu
namespace linalg {
class LinalgDialect;
} // namespace linalg
namespace LLVM {
class LLVMDialect;
} // namespace LLVM
namespace math {
class MathDialect;
} // namespace math
namespace memref {
class MemRefDialect;
} // namespace memref
namespace NVVM {
class NVVMDialect;
} // namespace NVVM
namespace tensor {
class TensorDialect;
} // namespace tensor
namespace ub {
class UBDialect;
} // namespace ub
namespace vector {
class VectorDialect;
} // namespace vector
namespace sage {
class SageDialect;
class ScheduleTable;

#define GEN_PASS_DECL
#include "sage/Transforms/Passes.h.inc"

/// Whether `func` computes one attention (sage.attention, or the decomposed
/// steps around sage.quantized_attention) and nothing else but the layout
/// ops, sizes and constants around it: it compiles as it stands, and
/// sage-outline-attention leaves it alone (docs/Launchers.md).
bool isAttentionOnlyFunction(func::FuncOp func);

/// Whether `func` holds a sage.attention or sage.quantized_attention.
bool holdsAttention(func::FuncOp func);

/// Adds the patterns that raise upstream attention forms into sage.attention
/// with `recipe`.
void populateRaiseAttentionPatterns(RewritePatternSet &patterns,
                                    RecipeAttr recipe);

/// Tile sizes that fix the quantization groups of a decomposition. Where
/// `schedules` has a row for the attention on `chip` (its head dim, causal,
/// Q smoothing), the row's block-q and block-k replace these.
struct AttentionTiles {
  int64_t blockQ = 64;
  int64_t warpQ = 16;
  int64_t blockK = 64;
  std::string chip;
  const ScheduleTable *schedules = nullptr;
  /// Store 8-bit V for the P V MMA (v_layout, docs/Layouts.md), each key
  /// group in `valueOrder`.
  bool storeValues = false;
  FragmentOrder valueOrder = FragmentOrder::Accumulator;
  /// Take only `schedules`' rows of a sequential schedule
  /// (KernelSchedule::isSequential).
  bool sequentialSchedules = false;
};

/// Adds the pattern that decomposes sage.attention into smoothing,
/// quantization and sage.quantized_attention.
void populateDecomposeAttentionPatterns(RewritePatternSet &patterns,
                                        AttentionTiles tiles);

/// Tile sizes of the tile level: a Q block per workgroup, a K/V block per
/// loop iteration. `blockQ` 0 takes each op's own: the tokens of its
/// per_thread or per_block Q groups (which its Q smoothing block is), else
/// 64; `blockK` 0 the tokens of its K groups, else 64.
struct AttentionTileSizes {
  int64_t blockQ = 64;
  int64_t blockK = 64;
  /// Consecutive Q blocks launched as one cluster that shares each K/V
  /// block (docs/Levels.md, "Clusters"); 1: no cluster.
  int64_t clusterCtas = 1;
};

/// The attribute of a grid (scf.forall) whose Q blocks (#gpu.block<x>)
/// launch in clusters of this many CTAs, and the most a portable cluster
/// holds.
inline constexpr llvm::StringLiteral kClusterCtasAttrName = "sage.cluster_ctas";
inline constexpr int64_t kMaxClusterCtas = 8;

/// Adds the pattern that tiles sage.quantized_attention into an scf.forall
/// over (batch, head, Q block) and an scf.for over K/V blocks of sage.qmma,
/// sage.online_softmax, sage.quantize and sage.accumulate on tiles.
void populateTileAttentionPatterns(RewritePatternSet &patterns,
                                   AttentionTileSizes tiles);

#define GEN_PASS_REGISTRATION
#include "sage/Transforms/Passes.h.inc"

} // namespace sage
} // namespace mlir

#endif // SAGE_TRANSFORMS_PASSES_H
