//===- LowerStaging.cpp - a kernel's workgroup tiles, filled by its threads
//===//
//
// The promote level's tiles in a kernel (docs/Levels.md, L3). After
// outlining, the tiles sage-promote-tiles put in workgroup memory are
// memref.allocs in the kernel's body, filled by sage.stage_tile copies and
// linalg products that the whole CTA executes together. This pass
//
// * makes each allocation a workgroup attribution of the kernel, aligned
//   to 16 bytes for the copies;
// * splits each run of sage.stage_tile (copies with nothing between them
//   that touches memory) among the CTA's threads: each thread copies its
//   pieces of up to 16 bytes with nvgpu.device_async_copy, zero-filling
//   what lies past the window, commits them as one group and waits for it;
//   a tile staged rearranged (an indexing_map transposing the window, V^T
//   in P's key order) is moved in square blocks of a 32-bit word a side,
//   each thread loading a block's words, transposing them in registers
//   and storing them, while the copies are in flight;
// * computes a matvec into workgroup memory (dS) a row a thread (or lane
//   group), each row
//   and the vector read with 16-byte loads where their alignment allows,
//   with the fill of its buffer just before it, and while the copies of
//   the run it follows are in flight (RowDots.h);
// * runs the outermost (parallel) loop of each other linalg op that
//   writes workgroup memory across the threads, thread t taking
//   iterations t, t + threads, ...;
// * issues a sage.stage_async group where it stands (its copies as one
//   commit group, the rearranged tiles' loads, the row dots) and completes
//   it at its sage.stage_await (the rearranged tiles' stores, the wait);
// * reads each warp's matrices of a tile (sage.warp_load_matrices) with
//   one ldmatrix where its rows are 16-byte aligned;
// * puts a gpu.barrier before each of these (the tile may still be read
//   from the last iteration) and after it (every thread reads the whole
//   tile), and drops a barrier that follows another, or that starts a
//   loop body a barrier ends and one precedes.
//
// The CTA's size comes from the kernel's known_block_size, which
// gpu-kernel-outlining records from sage-launch-grid's launch.
//
//===----------------------------------------------------------------------===//

#include "BulkCopies.h"
#include "RowDots.h"
#include "Staging.h"
#include "WarpLoadMatrices.h"
#include "sage/Dialect/Sage/IR/SageOps.h"
#include "sage/Dialect/Sage/IR/WorkgroupStaging.h"
#include "sage/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::sage {
#define GEN_PASS_DEF_SAGELOWERSTAGING
#include "sage/Transforms/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;
using namespace mlir::sage;

/// How a sage.stage_tile is split into asynchronous copies.
struct CopyPlan {
  int64_t elements; // a copy's elements, 4, 8 or 16 bytes of them
  int64_t copies;   // the copies of the whole tile
  // Copies are numbered row-major over the tile, or, for a tile of core
  // matrices seen as [rows, K / c, c] (rows 16 bytes apart, a row one
  // copy), a core matrix's 8 rows first (kCoreMatrixRows, nonzero): 8
  // consecutive threads then fill 128 contiguous bytes, all 32 banks once,
  // and a warp reads 8 whole window rows (at D = 64). Row-major, they
  // would write 16 bytes `rows * 16` apart, in the same banks.
  int64_t groupRows = 0;
};

/// The rows of a core matrix (8 rows of 16 bytes).
static constexpr int64_t kCoreMatrixRows = 8;

/// Whether `dest` is a tile of core matrices viewed as [rows, K / c, c]
/// (memref.transpose of [K / c, rows, c]; stageAsPlainCopy) that copies of
/// `elements` elements fill a row at a time.
static bool isCoreMatrixView(MemRefType dest, int64_t elements) {
  if (dest.getRank() != 3 || !dest.hasStaticShape())
    return false;
  ArrayRef<int64_t> shape = dest.getShape();
  auto [strides, offset] = dest.getStridesAndOffset();
  return shape[2] == elements && shape[0] % kCoreMatrixRows == 0 &&
         strides[0] == shape[2] && strides[1] == shape[0] * shape[2];
}

/// The widest copies (16, 8 or 4 bytes) that tile `op`'s rows, read from
/// a source whose rows start at such a boundary; a diagnostic where none
/// does. Kernel arguments are taken 16-byte aligned, as the runtime
/// allocates them (startsAligned).
static FailureOr<CopyPlan> planCopies(StageTileOp op) {
  auto source = cast<MemRefType>(op.getSource().getType());
  auto dest = cast<MemRefType>(op.getDest().getType());
  if (dest.getRank() == 0)
    return op.emitOpError() << "stages a rank-0 tile; copy it whole";
  if (op.getPadding() && !matchPattern(op.getPadding(), m_Zero()) &&
      !matchPattern(op.getPadding(), m_PosZeroFloat()))
    return op.emitOpError()
           << "pads with a value other than zero; asynchronous copies fill "
              "what lies past the window with zeros only";
  // index has no width until the target's data layout gives it one.
  if (!dest.getElementType().isIntOrFloat())
    return op.emitOpError() << "copies elements of " << dest.getElementType()
                            << ", which have no fixed width to split rows by";
  unsigned bits = dest.getElementTypeBitWidth();
  auto [strides, offset] = source.getStridesAndOffset();
  auto [destStrides, destOffset] = dest.getStridesAndOffset();
  if (strides.back() != 1 || destStrides.back() != 1)
    return op.emitOpError() << "copies rows that are not contiguous (" << source
                            << " into " << dest << ")";
  int64_t rowBits = dest.getShape().back() * bits;
  for (int64_t pieceBits : {128, 64, 32}) {
    bool fits = pieceBits >= bits && rowBits % pieceBits == 0;
    // Both ends of a copy are aligned to its size: the rows and the
    // starts of the window and of the tile (padded tiles,
    // replaceWithWorkgroupTile; a stage of a multi-buffered tile is a view
    // at a dynamic offset).
    for (Value buffer : {op.getSource(), op.getDest()}) {
      for (int64_t dim = 0; dim + 1 < dest.getRank(); ++dim) {
        int64_t divisor = getStrideDivisor(buffer, dim);
        fits &= divisor != 0 && divisor * bits % pieceBits == 0;
      }
    }
    fits = fits && startsAligned(op.getSource(), pieceBits / 8) &&
           startsAligned(op.getDest(), pieceBits / 8);
    if (fits) {
      CopyPlan plan{pieceBits / bits, dest.getNumElements() * bits / pieceBits};
      if (isCoreMatrixView(dest, plan.elements))
        plan.groupRows = kCoreMatrixRows;
      return plan;
    }
  }
  return op.emitOpError() << "copies rows of " << rowBits << " bits from "
                          << source << " into " << dest
                          << ", which 4-, 8- or 16-byte copies do not tile: "
                             "the rows' strides and the window's and the "
                             "tile's starts must be provably aligned";
}

/// Copy number `piece` of `op`: its indices in the tile and, where the
/// window may not fill it, the elements read (0 past the window, where
/// the copy reads the window's origin, a valid address).
static Value copyPiece(OpBuilder &b, Location loc, StageTileOp op,
                       const CopyPlan &plan, Value piece) {
  auto source = cast<MemRefType>(op.getSource().getType());
  auto dest = cast<MemRefType>(op.getDest().getType());
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  ArrayRef<int64_t> shape = dest.getShape();
  int64_t rank = dest.getRank();
  SmallVector<Value> tileIndices(rank);
  // One op a statement: the order of ops built in one call's arguments
  // differs between compilers.
  Value elements = index(plan.elements);
  if (plan.groupRows) {
    // [rows, K / c, c], a row one copy: the row within its group of
    // groupRows, then the column, then the group.
    Value groupRows = index(plan.groupRows);
    Value inGroup = arith::RemUIOp::create(b, loc, piece, groupRows);
    Value rest = arith::DivUIOp::create(b, loc, piece, groupRows);
    Value columns = index(shape[1]);
    tileIndices[1] = arith::RemUIOp::create(b, loc, rest, columns);
    Value group = arith::DivUIOp::create(b, loc, rest, columns);
    Value firstRow = arith::MulIOp::create(b, loc, group, groupRows);
    tileIndices[0] = arith::AddIOp::create(b, loc, firstRow, inGroup);
    tileIndices[2] = index(0);
  } else {
    Value perRow = index(shape.back() / plan.elements);
    Value inRow = arith::RemUIOp::create(b, loc, piece, perRow);
    tileIndices[rank - 1] = arith::MulIOp::create(b, loc, inRow, elements);
    Value row = arith::DivUIOp::create(b, loc, piece, perRow);
    for (int64_t dim = rank - 2; dim >= 0; --dim) {
      tileIndices[dim] = arith::RemUIOp::create(b, loc, row, index(shape[dim]));
      row = arith::DivUIOp::create(b, loc, row, index(shape[dim]));
    }
  }
  SmallVector<Value> sourceIndices = tileIndices;
  Value sourceElements;
  if (source.getShape() != shape) {
    Value zero = index(0);
    Value inside = arith::ConstantIntOp::create(b, loc, 1, 1);
    for (int64_t dim = 0; dim < rank - 1; ++dim) {
      Value size = memref::DimOp::create(b, loc, op.getSource(), dim);
      inside = arith::AndIOp::create(
          b, loc, inside,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                tileIndices[dim], size));
    }
    Value columns = memref::DimOp::create(b, loc, op.getSource(), rank - 1);
    Value column = tileIndices[rank - 1];
    Value beforeEnd = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                            column, columns);
    Value rest = arith::SubIOp::create(b, loc, columns, column);
    Value left = arith::SelectOp::create(b, loc, beforeEnd, rest, zero);
    left = arith::MinUIOp::create(b, loc, left, elements);
    sourceElements = arith::SelectOp::create(b, loc, inside, left, zero);
    Value reads = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                        sourceElements, zero);
    for (Value &sourceIndex : sourceIndices)
      sourceIndex = arith::SelectOp::create(b, loc, reads, sourceIndex, zero);
  }
  auto token = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  // 16-byte copies may bypass L1 (cp.async.cg): the CTA reads them from
  // workgroup memory.
  UnitAttr bypassL1 = plan.elements * dest.getElementTypeBitWidth() == 128
                          ? b.getUnitAttr()
                          : UnitAttr();
  return nvgpu::DeviceAsyncCopyOp::create(
      b, loc, token, op.getDest(), tileIndices, op.getSource(), sourceIndices,
      b.getIndexAttr(plan.elements), sourceElements, bypassL1);
}

/// Commits `tokens` as one group and waits for it.
static void waitForCopies(OpBuilder &b, Location loc, ValueRange tokens) {
  if (tokens.empty())
    return;
  auto token = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  Value group = nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, token, tokens);
  nvgpu::DeviceAsyncWaitOp::create(b, loc, group, b.getI32IntegerAttr(0));
}

/// How a sage.stage_tile with an indexing_map is split among the threads:
/// square blocks of `side` x `side` elements of a word a row, each a
/// transposition of `side` words of the window.
struct GatherPlan {
  int64_t side;   // elements of a 32-bit word
  int64_t blocks; // blocks of the whole tile
};

/// Whether the rows of `tile` are contiguous and start every `side`
/// elements (a 32-bit word), from a word boundary.
static bool hasWordRows(Value tile, int64_t side) {
  auto [strides, offset] =
      cast<MemRefType>(tile.getType()).getStridesAndOffset();
  return strides.back() == 1 && !ShapedType::isDynamic(strides.front()) &&
         strides.front() % side == 0 && startsAligned(tile, 4);
}

/// The plan for `op`, whose map must send tile element (r, p) to window
/// element (f(p), r), reading contiguous window rows of as many elements
/// as the tile has rows, at static strides of whole words; a diagnostic
/// where it does not.
static FailureOr<GatherPlan> planGather(StageTileOp op) {
  auto source = cast<MemRefType>(op.getSource().getType());
  auto dest = cast<MemRefType>(op.getDest().getType());
  AffineMap map = *op.getIndexingMap();
  bool transposes = dest.getRank() == 2 && source.getRank() == 2 &&
                    map.getResult(1) == getAffineDimExpr(0, op.getContext()) &&
                    !map.getResult(0).isFunctionOfDim(0);
  if (!transposes)
    return op.emitOpError()
           << "stages along " << op.getIndexingMapAttr()
           << "; a kernel stages tiles whose element (r, p) is window "
              "element (f(p), r) only";
  if (!matchPattern(op.getPadding(), m_Zero()) &&
      !matchPattern(op.getPadding(), m_PosZeroFloat()))
    return op.emitOpError() << "pads a rearranged tile with a value other "
                               "than zero; only zeros are supported";
  unsigned bits =
      dest.getElementType().isIntOrFloat() ? dest.getElementTypeBitWidth() : 0;
  if (bits == 0 || 32 % bits)
    return op.emitOpError()
           << "transposes elements of " << dest.getElementType()
           << "; words of 32 bits must hold whole ones";
  int64_t side = 32 / bits;
  auto [strides, offset] = source.getStridesAndOffset();
  ArrayRef<int64_t> shape = dest.getShape();
  if (shape[0] % side || shape[1] % side || source.getDimSize(1) != shape[0] ||
      strides[1] != 1 || ShapedType::isDynamic(strides[0]) ||
      strides[0] % side || !hasWordRows(op.getDest(), side))
    return op.emitOpError()
           << "transposes " << source << " into " << dest
           << ", which words do not tile: window rows must be contiguous, "
              "hold as many elements as the tile has rows and start at "
              "static strides of whole 32-bit words";
  return GatherPlan{side, shape[0] / side * (shape[1] / side)};
}

/// A thread's block of a rearranged tile: where it goes, and its words as
/// read from the window, not yet transposed.
struct GatherBlock {
  Value firstRow, firstColumn;
  SmallVector<Value> words;
};

/// Block `block` of `op`'s tile: rows r0 .. r0 + side - 1 and columns
/// p0 .. p0 + side - 1, read as `side` words of window rows f(p0 + i)
/// (zeros past the window: the row read is clamped to the first).
static GatherBlock loadGatherBlock(OpBuilder &b, Location loc, StageTileOp op,
                                   const GatherPlan &plan, Value block) {
  auto dest = cast<MemRefType>(op.getDest().getType());
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  int64_t side = plan.side;
  Value rowBlocks = index(dest.getDimSize(0) / side);
  Value sideValue = index(side);
  GatherBlock loaded;
  Value rowBlock = arith::RemUIOp::create(b, loc, block, rowBlocks);
  loaded.firstRow = arith::MulIOp::create(b, loc, rowBlock, sideValue);
  Value columnBlock = arith::DivUIOp::create(b, loc, block, rowBlocks);
  loaded.firstColumn = arith::MulIOp::create(b, loc, columnBlock, sideValue);
  Value zero = index(0);
  Value windowRows = memref::DimOp::create(b, loc, op.getSource(), 0);
  auto word = VectorType::get({side}, dest.getElementType());
  Value zeros = arith::ConstantOp::create(b, loc, word, b.getZeroAttr(word));
  for (int64_t i = 0; i < side; ++i) {
    Value offset = index(i);
    Value column = arith::AddIOp::create(b, loc, loaded.firstColumn, offset);
    Value windowRow = applyIndexMap(b, loc, *op.getIndexingMap(),
                                    {loaded.firstRow, column})[0];
    Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         windowRow, windowRows);
    Value row = arith::SelectOp::create(b, loc, inside, windowRow, zero);
    Value read = vector::LoadOp::create(b, loc, word, op.getSource(),
                                        ValueRange{row, loaded.firstRow},
                                        /*nontemporal=*/false, llvm::Align(4));
    loaded.words.push_back(
        arith::SelectOp::create(b, loc, inside, read, zeros));
  }
  return loaded;
}

/// `block`'s words transposed in registers and stored, a word a tile row.
static void storeGatherBlock(OpBuilder &b, Location loc, StageTileOp op,
                             const GatherBlock &block) {
  auto word = cast<VectorType>(block.words.front().getType());
  for (int64_t j = 0, side = block.words.size(); j < side; ++j) {
    SmallVector<Value> elements;
    for (Value read : block.words)
      elements.push_back(vector::ExtractOp::create(b, loc, read, j));
    Value stored = vector::FromElementsOp::create(b, loc, word, elements);
    Value offset = arith::ConstantIndexOp::create(b, loc, j);
    Value row = arith::AddIOp::create(b, loc, block.firstRow, offset);
    vector::StoreOp::create(b, loc, stored, op.getDest(),
                            ValueRange{row, block.firstColumn},
                            /*nontemporal=*/false, llvm::Align(4));
  }
}

/// Calls `body` on items thread, thread + threads, ... of `items`: full
/// rounds straight, the last, partial one under a guard (`guarded`).
static void
forEachThreadShare(OpBuilder &b, Location loc, Value thread, int64_t items,
                   int64_t threads,
                   function_ref<void(OpBuilder &, Value, bool guarded)> body) {
  for (int64_t first = 0; first < items; first += threads) {
    Value item = thread;
    if (first > 0) {
      Value offset = arith::ConstantIndexOp::create(b, loc, first);
      item = arith::AddIOp::create(b, loc, thread, offset);
    }
    if (first + threads <= items) {
      body(b, item, /*guarded=*/false);
      continue;
    }
    Value count = arith::ConstantIndexOp::create(b, loc, items);
    Value some =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, item, count);
    auto branch = scf::IfOp::create(b, loc, some, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(branch.thenBlock());
    body(b, item, /*guarded=*/true);
  }
}

/// Whether an MMA reads the tile `op` stages through descriptors
/// (sage.tile_descriptor), of it or of any view of its allocation (the
/// transposed view the copies write, a stage of a multi-buffered tile).
static bool isReadThroughDescriptors(StageTileOp op) {
  Value tile = op.getDest();
  while (Operation *view = tile.getDefiningOp()) {
    if (auto transpose = dyn_cast<memref::TransposeOp>(view))
      tile = transpose.getIn();
    else if (auto subview = dyn_cast<memref::SubViewOp>(view))
      tile = subview.getSource();
    else
      break;
  }
  SmallVector<Value> views = {tile};
  for (size_t i = 0; i < views.size(); ++i)
    for (Operation *user : views[i].getUsers()) {
      if (isa<TileDescriptorOp>(user))
        return true;
      if (isa<memref::TransposeOp, memref::SubViewOp>(user))
        views.push_back(user->getResult(0));
    }
  return false;
}

/// Whether `op` stages its window ([rows, K]) as K-major core matrices
/// ([K / c, rows, c]: element (r, x) at [x / c, r, x % c]), as
/// sage-distribute-tiles gathers the operands a wgmma reads.
static bool stagesCoreMatrices(StageTileOp op) {
  auto dest = cast<MemRefType>(op.getDest().getType());
  std::optional<AffineMap> map = op.getIndexingMap();
  if (!map || dest.getRank() != 3 ||
      cast<MemRefType>(op.getSource().getType()).getRank() != 2)
    return false;
  return *map == TileDescriptorOp::getCoreMatrixMap(op.getContext(),
                                                    dest.getDimSize(2));
}

/// Whether the rows of `window` ([rows, width]) are provably whole
/// `c`-element columns: a static width, or one collapsed from dimensions
/// whose static inner sizes multiply to a multiple of `c` (a stored V's
/// groups of 32 keys).
static bool hasWholeColumns(Value window, int64_t c) {
  auto type = cast<MemRefType>(window.getType());
  if (!type.isDynamicDim(1))
    return type.getDimSize(1) % c == 0;
  auto collapse = window.getDefiningOp<memref::CollapseShapeOp>();
  if (!collapse)
    return false;
  // getReassociationIndices() returns its groups by value: keep them.
  SmallVector<ReassociationIndices> groups = collapse.getReassociationIndices();
  int64_t inner = 1;
  for (int64_t dim : llvm::reverse(groups[1])) {
    int64_t size = collapse.getSrcType().getDimSize(dim);
    if (ShapedType::isDynamic(size))
      break;
    inner *= size;
  }
  return inner % c == 0;
}

/// `op`, staging core matrices, as a plain copy of its window split into
/// 16-byte columns ([rows, K / c, c]) into the tile's transposed view
/// ([rows, K / c, c] at strides [c, rows c, 1]). The window's rows must be
/// provably whole 16-byte columns (hasWholeColumns).
static FailureOr<StageTileOp> stageAsPlainCopy(RewriterBase &rewriter,
                                               StageTileOp op) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto dest = cast<MemRefType>(op.getDest().getType());
  int64_t c = dest.getDimSize(2);
  auto source = cast<MemRefType>(op.getSource().getType());
  SmallVector<ReassociationIndices> groups = {{0}, {1, 2}};
  // The window's 16-byte columns: as many as the tile's, or fewer in a
  // last block.
  int64_t windowColumns =
      source.isDynamicDim(1) ? ShapedType::kDynamic : source.getDimSize(1) / c;
  FailureOr<MemRefType> type = memref::ExpandShapeOp::computeExpandedType(
      source, {source.getDimSize(0), windowColumns, c}, groups);
  if (failed(type) || !hasWholeColumns(op.getSource(), c))
    return op.emitOpError() << "cannot view " << source << " as rows of " << c
                            << "-element columns: the width must be "
                               "provably a multiple of "
                            << c;
  OpFoldResult rows = memref::getMixedSize(rewriter, loc, op.getSource(), 0);
  OpFoldResult sixteenByteColumns = rewriter.getIndexAttr(windowColumns);
  if (source.isDynamicDim(1)) {
    Value width = memref::DimOp::create(rewriter, loc, op.getSource(), 1);
    Value perColumn = arith::ConstantIndexOp::create(rewriter, loc, c);
    sixteenByteColumns =
        arith::DivUIOp::create(rewriter, loc, width, perColumn).getResult();
  }
  Value window = memref::ExpandShapeOp::create(
      rewriter, loc, *type, op.getSource(), groups,
      ArrayRef<OpFoldResult>{rows, sixteenByteColumns,
                             rewriter.getIndexAttr(c)});
  auto swap = AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0, 2},
                                           op.getContext());
  Value view = memref::TransposeOp::create(rewriter, loc, op.getDest(),
                                           AffineMapAttr::get(swap));
  auto copy = StageTileOp::create(rewriter, loc, TypeRange{}, window,
                                  op.getPadding(), view,
                                  /*indexing_map=*/nullptr);
  rewriter.eraseOp(op);
  return copy;
}

/// A run of stagings issued and not yet complete: what its completion
/// waits for, stores or copies.
struct IssuedRun {
  Location loc;
  Value thread;
  int64_t threads;
  SmallVector<StageTileOp> ops;
  // The commit group of the full rounds' copies (null without copies).
  Value group;
  // Copies of a last round, where there are fewer than threads: each is a
  // group of its own under a guard, issued at the completion.
  SmallVector<std::pair<StageTileOp, CopyPlan>> partial;
  // Rearranged blocks loaded at the issue and stored at the completion.
  SmallVector<std::pair<StageTileOp, GatherBlock>> stores;
  // The bulk copies, the staging mbarrier and the phase this thread
  // arrived on (null without bulk copies).
  SmallVector<StageTileOp> bulk;
  Value bulkBarrier, bulkState;
};

/// Issues `run` (sage.stage_tile ops with nothing touching memory between
/// them) before its first op: a barrier (earlier readers of the tiles),
/// each thread's copies, the rearranged tiles' loads (and their stores,
/// unless `deferStores`, where the completion makes them so that the
/// loads overlap what lies between), then the `riders` (row dots that
/// read no workgroup memory) while the copies are in flight. With a
/// `bulkBarrier`, copies one bulk copy can move complete on it.
static FailureOr<IssuedRun>
issueStageRun(RewriterBase &rewriter, ArrayRef<StageTileOp> run,
              ArrayRef<RowDots> riders, int64_t threads, bool deferStores,
              Value bulkBarrier, int64_t clusterCtas) {
  // Bulk copies first, then the threads' copies, then the rearranged
  // tiles, whose loads and stores overlap the copies in flight.
  SmallVector<StageTileOp> bulk, copies, gathers;
  for (StageTileOp op : run) {
    if (bulkBarrier && isBulkCopy(op))
      bulk.push_back(op);
    else
      (op.isPlainCopy() ? copies : gathers).push_back(op);
  }
  SmallVector<CopyPlan> plans;
  for (StageTileOp op : copies) {
    FailureOr<CopyPlan> plan = planCopies(op);
    if (failed(plan))
      return failure();
    plans.push_back(*plan);
  }
  SmallVector<GatherPlan> gatherPlans;
  for (StageTileOp op : gathers) {
    FailureOr<GatherPlan> plan = planGather(op);
    if (failed(plan))
      return failure();
    gatherPlans.push_back(*plan);
  }
  StageTileOp first = run.front(), end = run.back();
  Location loc = first.getLoc();
  rewriter.setInsertionPoint(first);
  // A copy multicast to the cluster overwrites the tile in every CTA: all
  // of them must be done reading it.
  if (clusterCtas > 1 && llvm::any_of(bulk, isSharedByCluster))
    createClusterBarrier(rewriter, loc);
  else
    gpu::BarrierOp::create(rewriter, loc);
  Value thread = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  IssuedRun issued{loc,
                   thread,
                   threads,
                   llvm::to_vector(run),
                   /*group=*/{},
                   /*partial=*/{},
                   /*stores=*/{},
                   /*bulk=*/{},
                   /*bulkBarrier=*/{},
                   /*bulkState=*/{}};
  if (!bulk.empty()) {
    issued.bulk = bulk;
    issued.bulkBarrier = bulkBarrier;
    issued.bulkState =
        issueBulkCopies(rewriter, loc, bulkBarrier, thread, bulk, clusterCtas);
  }
  SmallVector<Value> tokens;
  for (auto [index, op] : llvm::enumerate(copies)) {
    const CopyPlan &plan = plans[index];
    rewriter.setInsertionPoint(op);
    for (int64_t first = 0; first + threads <= plan.copies; first += threads) {
      Value piece = arith::AddIOp::create(
          rewriter, loc, thread,
          arith::ConstantIndexOp::create(rewriter, loc, first));
      tokens.push_back(copyPiece(rewriter, loc, op, plan, piece));
    }
    if (plan.copies % threads)
      issued.partial.push_back({op, plan});
  }
  rewriter.setInsertionPointAfter(end);
  for (auto [op, plan] : llvm::zip(gathers, gatherPlans))
    forEachThreadShare(
        rewriter, loc, thread, plan.blocks, threads,
        [&, op = op, plan = plan](OpBuilder &b, Value block, bool guarded) {
          GatherBlock loaded = loadGatherBlock(b, loc, op, plan, block);
          // A guarded block's words do not leave their guard.
          if (deferStores && !guarded)
            issued.stores.push_back({op, loaded});
          else
            storeGatherBlock(b, loc, op, loaded);
        });
  Operation *last = nullptr;
  for (RowDots rider : riders)
    last = emitRowDots(rewriter, rider, threads);
  if (last)
    rewriter.setInsertionPointAfter(last);
  // Committed here: a later group's wait must not complete this one.
  if (!tokens.empty())
    issued.group = nvgpu::DeviceAsyncCreateGroupOp::create(
        rewriter, loc, nvgpu::DeviceAsyncTokenType::get(rewriter.getContext()),
        tokens);
  return issued;
}

/// Completes `issued` at the rewriter's insertion point: the deferred
/// stores, the wait for the copies, the last rounds' copies, and the
/// barrier after which every thread reads the tiles, which it returns.
static gpu::BarrierOp completeStageRun(RewriterBase &rewriter,
                                       IssuedRun &issued) {
  Location loc = issued.loc;
  for (auto &[op, block] : issued.stores)
    storeGatherBlock(rewriter, loc, op, block);
  if (issued.bulkState)
    waitForBulkCopies(rewriter, loc, issued.bulkBarrier, issued.bulkState);
  if (issued.group)
    nvgpu::DeviceAsyncWaitOp::create(rewriter, loc, issued.group,
                                     rewriter.getI32IntegerAttr(0));
  for (auto [op, plan] : issued.partial) {
    int64_t full = plan.copies / issued.threads * issued.threads;
    Value piece = arith::AddIOp::create(
        rewriter, loc, issued.thread,
        arith::ConstantIndexOp::create(rewriter, loc, full));
    Value some = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, piece,
        arith::ConstantIndexOp::create(rewriter, loc, plan.copies));
    auto branch = scf::IfOp::create(rewriter, loc, some,
                                    /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(branch.thenBlock());
    waitForCopies(rewriter, loc, {copyPiece(rewriter, loc, op, plan, piece)});
  }
  // An MMA reading a tile through descriptors reads it through the async
  // proxy: the threads' copies' writes are published to it before the
  // barrier (bulk copies write through it).
  if (llvm::any_of(issued.ops, [&](StageTileOp op) {
        return !llvm::is_contained(issued.bulk, op) &&
               isReadThroughDescriptors(op);
      }))
    NVVM::FenceProxyOp::create(
        rewriter, loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(rewriter.getContext(),
                                   NVVM::SharedSpace::shared_cta));
  auto barrier = gpu::BarrierOp::create(rewriter, loc);
  for (StageTileOp op : issued.ops)
    rewriter.eraseOp(op);
  return barrier;
}

/// `group` (a sage.stage_async) issued where it stands and completed at
/// its sage.stage_await: its region's stagings, inlined before it, are one
/// run whose rearranged tiles are stored at the await, so that their loads
/// overlap the work between.
static LogicalResult lowerStageGroup(RewriterBase &rewriter, StageAsyncOp group,
                                     int64_t threads, Value bulkBarrier,
                                     int64_t clusterCtas) {
  Operation *await = *group.getGroup().getUsers().begin();
  SmallVector<StageTileOp> run;
  SmallVector<RowDots> riders;
  for (Operation &op : group.getBody().front()) {
    if (auto stage = dyn_cast<StageTileOp>(op)) {
      run.push_back(stage);
      continue;
    }
    // Fills are checked below, with the row dots they start.
    if (isa<linalg::FillOp>(op) || isMemoryEffectFree(&op))
      continue;
    auto matvec = dyn_cast<linalg::MatvecOp>(op);
    FailureOr<RowDots> dots =
        matvec ? matchRowDots(matvec) : FailureOr<RowDots>(failure());
    if (failed(dots) || !dots->fill)
      return op.emitOpError()
             << "is staged in a sage.stage_async, where sage-lower-staging "
                "lowers only sage.stage_tile copies and row dots (a "
                "linalg.matvec whose rows 16-byte loads read, just after the "
                "linalg.fill of its result)";
    riders.push_back(*dots);
  }
  // Every fill is one of the row dots'.
  for (auto fill : group.getBody().front().getOps<linalg::FillOp>())
    if (llvm::none_of(riders, [&](RowDots dots) { return dots.fill == fill; }))
      return fill.emitOpError()
             << "is staged in a sage.stage_async, where sage-lower-staging "
                "computes fills only just before the row dots they start";
  if (run.empty())
    return group.emitOpError()
           << "stages row dots without copies; sage-lower-staging issues "
              "row dots with a group's copies only";
  // Issued in the region (planning fails before anything is built), then
  // inlined where the group stands.
  FailureOr<IssuedRun> issued =
      issueStageRun(rewriter, run, riders, threads, /*deferStores=*/true,
                    bulkBarrier, clusterCtas);
  if (failed(issued))
    return failure();
  rewriter.inlineBlockBefore(&group.getBody().front(), group);
  rewriter.setInsertionPoint(await);
  gpu::BarrierOp barrier = completeStageRun(rewriter, *issued);
  // A group awaited last in an scf.if without an else (a pipelined loop's
  // first block, where the loop runs) ends with its barrier after the if:
  // every thread takes the same branch, and the loop after it then starts
  // behind a barrier (followsBarrier).
  auto branch = dyn_cast<scf::IfOp>(await->getParentOp());
  if (branch && !branch.getNumResults() && branch.getElseRegion().empty() &&
      await->getNextNode() == branch.thenBlock()->getTerminator())
    rewriter.moveOpAfter(barrier, branch);
  rewriter.eraseOp(await);
  rewriter.eraseOp(group);
  return success();
}

/// `op`, a linalg op writing workgroup memory, as loops whose outermost,
/// over a parallel dimension every output is indexed by, the CTA's threads
/// share.
static LogicalResult lowerCooperative(RewriterBase &rewriter,
                                      linalg::LinalgOp op, int64_t threads) {
  bool outerWrites = op.getNumLoops() > 0 && op.getIteratorTypesArray()[0] ==
                                                 utils::IteratorType::parallel;
  for (OpOperand &init : op.getDpsInitsMutable())
    outerWrites &=
        llvm::is_contained(op.getMatchingIndexingMap(&init).getResults(),
                           rewriter.getAffineDimExpr(0));
  if (!outerWrites)
    return op.emitOpError()
           << "writes workgroup memory, but its outermost loop is not a "
              "parallel one every output is indexed by, so the CTA's "
              "threads cannot share it";
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  gpu::BarrierOp::create(rewriter, loc);
  FailureOr<linalg::LinalgLoops> loops = linalg::linalgOpToLoops(rewriter, op);
  if (failed(loops) || loops->empty())
    return op.emitOpError() << "could not be written as loops";
  auto outer = cast<scf::ForOp>(loops->front());
  rewriter.setInsertionPointAfter(outer);
  gpu::BarrierOp::create(rewriter, loc);
  rewriter.setInsertionPoint(outer);
  Value thread = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value lower =
      arith::AddIOp::create(rewriter, loc, outer.getLowerBound(), thread);
  Value step = arith::MulIOp::create(
      rewriter, loc, outer.getStep(),
      arith::ConstantIndexOp::create(rewriter, loc, threads));
  rewriter.modifyOpInPlace(outer, [&] {
    outer.getLowerBoundMutable().assign(lower);
    outer.getStepMutable().assign(step);
  });
  rewriter.eraseOp(op);
  return success();
}

/// Bytes added to a tile row whose length is a multiple of 32 bytes. A
/// warp's lanes read MMA fragments down a tile's columns, words 4 apart
/// at most in rows g = 0 .. 7; rows of 64 bytes would put rows g and
/// g + 2 in the same banks (a 4-way conflict). 16 more bytes shift each
/// row by 4 banks: the 8 rows' words fall in 32 distinct banks, and rows
/// stay 16-byte aligned for the copies.
static constexpr int64_t kRowPaddingBytes = 16;

/// Whether `view` may be a stage of a multi-buffered tile
/// (sage-pipeline-tiles): a memref.subview from rank 3 to rank 2 (one
/// index of the first dim), whose users do not depend on its layout.
static bool isStageView(Operation *view) {
  auto subview = dyn_cast<memref::SubViewOp>(view);
  return subview && subview.getSourceType().getRank() == 3 &&
         subview.getType().getRank() == 2 &&
         llvm::all_of(subview->getUsers(), isLayoutFreeTileUser);
}

/// Replaces `alloc` by a workgroup attribution of `kernel`, 16-byte
/// aligned. A 2-D tile's rows (each stage's, for a multi-buffered tile)
/// are padded (kRowPaddingBytes) where their length is a multiple of 32
/// bytes and the users do not depend on the layout: they then read a view
/// at the tile's own shape, made at the start of the kernel.
static void replaceWithWorkgroupTile(RewriterBase &rewriter,
                                     gpu::GPUFuncOp kernel,
                                     memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rank = type.getRank();
  int64_t bits =
      type.getElementType().isIntOrFloat() ? type.getElementTypeBitWidth() : 0;
  bool staged = rank == 3 && llvm::all_of(alloc->getUsers(), isStageView);
  bool padded =
      (rank == 2 && llvm::all_of(alloc->getUsers(), isLayoutFreeTileUser)) ||
      staged;
  padded = padded && bits > 0 && shape.back() * bits % 256 == 0 &&
           kRowPaddingBytes * 8 % bits == 0;
  MemRefType tileType = type;
  if (padded) {
    SmallVector<int64_t> paddedShape(shape);
    paddedShape.back() += kRowPaddingBytes * 8 / bits;
    tileType =
        MemRefType::get(paddedShape, type.getElementType(),
                        MemRefLayoutAttrInterface(), type.getMemorySpace());
  }
  BlockArgument tile = kernel.addWorkgroupAttribution(tileType, alloc.getLoc());
  kernel.setWorkgroupAttributionAttr(
      tile.getArgNumber() - kernel.getNumArguments(),
      LLVM::LLVMDialect::getAlignAttrName(), rewriter.getI64IntegerAttr(16));
  if (!padded) {
    rewriter.replaceOp(alloc, tile);
    return;
  }
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(&kernel.getBody().front());
  SmallVector<OpFoldResult> zeros(rank, rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> ones(rank, rewriter.getIndexAttr(1));
  SmallVector<OpFoldResult> sizes =
      getAsIndexOpFoldResult(rewriter.getContext(), shape);
  Value view = memref::SubViewOp::create(rewriter, alloc.getLoc(), tile, zeros,
                                         sizes, ones);
  // The stages' views, at the padded strides.
  for (Operation *user : llvm::make_early_inc_range(alloc->getUsers())) {
    auto stage = dyn_cast<memref::SubViewOp>(user);
    if (!stage)
      continue;
    rewriter.setInsertionPoint(stage);
    auto stageType = memref::SubViewOp::inferRankReducedResultType(
        stage.getType().getShape(), cast<MemRefType>(view.getType()),
        stage.getMixedOffsets(), stage.getMixedSizes(),
        stage.getMixedStrides());
    rewriter.replaceOpWithNewOp<memref::SubViewOp>(
        stage, stageType, view, stage.getMixedOffsets(), stage.getMixedSizes(),
        stage.getMixedStrides());
  }
  rewriter.replaceOp(alloc, view);
}

/// What precedes `op` in its block with nothing touching memory between
/// them: a barrier, or the block's start.
enum class Preceding { Barrier, BlockStart, Other };

static Preceding getPreceding(Operation *op) {
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    // The cluster's barrier is the CTA's too.
    if (isa<gpu::BarrierOp, NVVM::ClusterWaitOp>(prev))
      return Preceding::Barrier;
    if (prev->getNumRegions() || !isMemoryEffectFree(prev))
      return Preceding::Other;
  }
  return Preceding::BlockStart;
}

/// Whether every way to `op` passes a barrier and then nothing touching
/// memory: one before it in its block or, first in an scf.for's body, one
/// before the loop (the first iteration) and one ending the body (the
/// others; a pipelined loop awaits its next stage there).
static bool followsBarrier(Operation *op) {
  switch (getPreceding(op)) {
  case Preceding::Barrier:
    return true;
  case Preceding::Other:
    return false;
  case Preceding::BlockStart:
    break;
  }
  auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
  return loop && followsBarrier(loop) &&
         getPreceding(loop.getBody()->getTerminator()) == Preceding::Barrier;
}

/// Drops each barrier that another precedes with nothing touching memory
/// between them (followsBarrier).
static void dropRepeatedBarriers(gpu::GPUFuncOp kernel) {
  SmallVector<gpu::BarrierOp> repeated;
  kernel.walk([&](gpu::BarrierOp barrier) {
    if (followsBarrier(barrier))
      repeated.push_back(barrier);
  });
  for (gpu::BarrierOp barrier : repeated)
    barrier.erase();
}

/// Splits the cluster barrier before a pipelined loop's copies (arrive,
/// then wait, where the next block is issued): each thread arrives at the
/// end of the iteration, once it is done with the stage the next
/// iteration's copies overwrite, and waits where they are issued, so that
/// the other CTAs of the cluster have the work between to catch up. An
/// arrival before the loop pairs with the first iteration's wait, a wait
/// after it with the last iteration's arrival (docs/Levels.md,
/// "Clusters").
static void splitLoopClusterBarriers(RewriterBase &rewriter,
                                     gpu::GPUFuncOp kernel) {
  SmallVector<NVVM::ClusterArriveOp> arrivals;
  kernel.walk([&](NVVM::ClusterArriveOp arrive) {
    auto loop = dyn_cast<scf::ForOp>(arrive->getParentOp());
    if (!loop || !isa_and_nonnull<NVVM::ClusterWaitOp>(arrive->getNextNode()))
      return;
    // A thread arrives once between waits: one barrier a loop.
    int64_t barriers = 0;
    loop.walk([&](Operation *op) {
      barriers += isa<NVVM::ClusterArriveOp, NVVM::ClusterWaitOp>(op);
    });
    if (barriers == 2)
      arrivals.push_back(arrive);
  });
  for (NVVM::ClusterArriveOp arrive : arrivals) {
    auto loop = cast<scf::ForOp>(arrive->getParentOp());
    UnitAttr aligned = arrive.getAlignedAttr();
    rewriter.moveOpBefore(arrive, loop.getBody()->getTerminator());
    rewriter.setInsertionPoint(loop);
    NVVM::ClusterArriveOp::create(rewriter, arrive.getLoc(), aligned);
    rewriter.setInsertionPointAfter(loop);
    NVVM::ClusterWaitOp::create(rewriter, arrive.getLoc(), aligned);
  }
}

/// The most threads a CTA holds (CUDA, every chip since sm_20).
constexpr int32_t kMaxThreadsPerBlock = 1024;

/// The CTA's threads of `kernel`, from its known block size (x only).
static FailureOr<int64_t> getThreads(gpu::GPUFuncOp kernel, Operation *user) {
  std::optional<ArrayRef<int32_t>> size = kernel.getKnownBlockSize();
  if (!size || size->size() != 3 || (*size)[1] != 1 || (*size)[2] != 1)
    return user->emitOpError()
           << "is shared by the threads of a CTA, but its kernel @"
           << kernel.getName()
           << " has no known block size of x threads only "
              "(known_block_size = array<i32: x, 1, 1>)";
  // The threads split the copies: a count no CTA has would make no split
  // or a huge one.
  int32_t threads = (*size)[0];
  if (threads < 1 || threads > kMaxThreadsPerBlock)
    return user->emitOpError()
           << "is shared by the threads of a CTA, but its kernel @"
           << kernel.getName() << " has a known block size of " << threads
           << " threads; a CTA holds 1 to " << kMaxThreadsPerBlock;
  return threads;
}

/// The warps' matrix reads in `kernel` (WarpLoadMatrices.h).
static void lowerMatrixReads(RewriterBase &rewriter, gpu::GPUFuncOp kernel) {
  SmallVector<WarpLoadMatricesOp> reads;
  kernel.walk([&](WarpLoadMatricesOp op) { reads.push_back(op); });
  for (WarpLoadMatricesOp op : reads)
    lowerWarpLoadMatrices(rewriter, op);
}

/// Whether stagings may be in flight together: a group's issue-to-await
/// window holds another staging. The one staging mbarrier serves runs that
/// complete one after another only.
static bool hasOverlappingStagings(ArrayRef<StageAsyncOp> groups) {
  for (StageAsyncOp group : groups) {
    Operation *await = *group.getGroup().getUsers().begin();
    for (Operation *op = group->getNextNode(); op && op != await;
         op = op->getNextNode()) {
      WalkResult walk = op->walk([](Operation *inner) {
        return isa<StageAsyncOp, StageTileOp>(inner) ? WalkResult::interrupt()
                                                     : WalkResult::advance();
      });
      if (walk.wasInterrupted())
        return true;
    }
  }
  return false;
}

static LogicalResult lowerKernel(gpu::GPUFuncOp kernel, bool bulkCopies) {
  SmallVector<memref::AllocOp> allocs;
  SmallVector<StageTileOp> stages;
  SmallVector<linalg::LinalgOp> products;
  SmallVector<StageAsyncOp> groups;
  WalkResult walk = kernel.walk([&](Operation *op) {
    if (auto group = dyn_cast<StageAsyncOp>(op)) {
      groups.push_back(group);
    } else if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      if (!isWorkgroupBuffer(alloc.getMemref()))
        return WalkResult::advance();
      if (!alloc.getType().hasStaticShape() ||
          !alloc.getType().getLayout().isIdentity()) {
        alloc.emitOpError()
            << "allocates a workgroup tile of type " << alloc.getType()
            << "; a kernel's are static and row-major";
        return WalkResult::interrupt();
      }
      allocs.push_back(alloc);
    } else if (auto stage = dyn_cast<StageTileOp>(op)) {
      stages.push_back(stage);
    } else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      bool shared = llvm::all_of(linalgOp.getDpsInits(), isWorkgroupBuffer);
      if (!shared || !linalgOp.hasPureBufferSemantics()) {
        op->emitOpError() << "in a kernel writes memory other than the "
                             "workgroup's: every thread would compute it";
        return WalkResult::interrupt();
      }
      products.push_back(linalgOp);
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  IRRewriter rewriter(kernel.getContext());
  if (allocs.empty() && stages.empty() && products.empty() && groups.empty()) {
    lowerMatrixReads(rewriter, kernel);
    return success();
  }
  Operation *first = !stages.empty()     ? stages.front().getOperation()
                     : !products.empty() ? products.front().getOperation()
                                         : allocs.front().getOperation();
  FailureOr<int64_t> threads = getThreads(kernel, first);
  if (failed(threads))
    return failure();

  for (memref::AllocOp alloc : allocs)
    replaceWithWorkgroupTile(rewriter, kernel, alloc);
  // At the tiles' padded strides.
  lowerMatrixReads(rewriter, kernel);
  // Core matrices are copied as plain copies, in groups too.
  for (StageTileOp &stage : stages) {
    if (!stagesCoreMatrices(stage))
      continue;
    FailureOr<StageTileOp> copy = stageAsPlainCopy(rewriter, stage);
    if (failed(copy))
      return failure();
    stage = *copy;
  }
  // One mbarrier for the bulk copies, where there are any and their runs
  // complete one after another (else the threads copy).
  Value bulkBarrier;
  if (bulkCopies && llvm::any_of(stages, isBulkCopy) &&
      !hasOverlappingStagings(groups))
    bulkBarrier = createStagingBarrier(rewriter, kernel, *threads);
  // A cluster's CTAs share their K/V blocks through multicast bulk copies
  // (docs/Levels.md, "Clusters"): a cluster whose stagings cannot be would
  // only cost its barriers.
  int64_t clusterCtas = getClusterCtas(kernel);
  auto shape = kernel->getAttrOfType<DenseI32ArrayAttr>(
      NVVM::NVVMDialect::getClusterDimAttrName());
  if (shape && clusterCtas != shape.asArrayRef().front())
    return kernel.emitOpError()
           << "is launched in clusters of shape " << shape
           << "; sage-lower-staging shares stages in clusters along x only "
              "(the Q blocks of sage-tile-attention's cluster-ctas)";
  if (clusterCtas > 1 &&
      (!bulkBarrier || !llvm::any_of(stages, [](StageTileOp stage) {
        return isBulkCopy(stage) && isSharedByCluster(stage);
      })))
    return kernel.emitOpError()
           << "is launched in clusters of " << clusterCtas
           << " CTAs, but none of its stagings is a bulk copy (bulk-copies, "
              "sm_90a) of a window every CTA of the cluster stages, which "
              "the cluster would multicast";
  // The groups' stagings are lowered with them.
  llvm::erase_if(stages, [](StageTileOp stage) {
    return isa<StageAsyncOp>(stage->getParentOp());
  });
  llvm::erase_if(products, [](linalg::LinalgOp product) {
    return isa<StageAsyncOp>(product->getParentOp());
  });
  for (StageAsyncOp group : groups)
    if (failed(lowerStageGroup(rewriter, group, *threads, bulkBarrier,
                               clusterCtas)))
      return failure();
  // Runs of copies nothing touching memory separates.
  SmallVector<SmallVector<StageTileOp>> runs;
  for (StageTileOp stage : stages) {
    bool joins = false;
    if (!runs.empty()) {
      Operation *last = runs.back().back();
      if (last->getBlock() == stage->getBlock() &&
          last->isBeforeInBlock(stage)) {
        joins = true;
        for (Operation *op = last->getNextNode(); op != stage;
             op = op->getNextNode())
          joins &= !op->getNumRegions() && isMemoryEffectFree(op);
      }
    }
    if (!joins)
      runs.emplace_back();
    runs.back().push_back(stage);
  }
  // Row dots (with their fills), each riding the run it follows where it
  // reads no workgroup memory and nothing touching memory separates them.
  SmallVector<RowDots> dots;
  for (linalg::LinalgOp product : products)
    if (auto matvec = dyn_cast<linalg::MatvecOp>(product.getOperation()))
      if (FailureOr<RowDots> match = matchRowDots(matvec); succeeded(match))
        dots.push_back(*match);
  SmallVector<SmallVector<RowDots>> riders(runs.size());
  SmallVector<RowDots> alone;
  for (RowDots dot : dots) {
    bool rides = false;
    for (auto [run, runRiders] : llvm::zip(runs, riders)) {
      Operation *end = runRiders.empty()
                           ? run.back().getOperation()
                           : runRiders.back().matvec.getOperation();
      rides = end->getBlock() == dot.getFirst()->getBlock() &&
              end->isBeforeInBlock(dot.getFirst()) &&
              !llvm::any_of(dot.matvec.getDpsInputs(), isWorkgroupBuffer);
      for (Operation *op = end->getNextNode(); rides && op != dot.getFirst();
           op = op->getNextNode())
        rides = !op->getNumRegions() && isMemoryEffectFree(op);
      if (rides) {
        runRiders.push_back(dot);
        break;
      }
    }
    if (!rides)
      alone.push_back(dot);
  }
  auto isRowDot = [&](linalg::LinalgOp product) {
    return llvm::any_of(dots, [&](RowDots dot) {
      return product == dot.matvec || product == dot.fill;
    });
  };
  SmallVector<linalg::LinalgOp> cooperative =
      llvm::filter_to_vector(products, std::not_fn(isRowDot));
  for (auto [run, runRiders] : llvm::zip(runs, riders)) {
    FailureOr<IssuedRun> issued =
        issueStageRun(rewriter, run, runRiders, *threads,
                      /*deferStores=*/false, bulkBarrier, clusterCtas);
    if (failed(issued))
      return failure();
    completeStageRun(rewriter, *issued);
  }
  for (RowDots dot : alone) {
    Location loc = dot.matvec.getLoc();
    rewriter.setInsertionPoint(dot.getFirst());
    gpu::BarrierOp::create(rewriter, loc);
    rewriter.setInsertionPointAfter(emitRowDots(rewriter, dot, *threads));
    gpu::BarrierOp::create(rewriter, loc);
  }
  for (linalg::LinalgOp product : cooperative)
    if (failed(lowerCooperative(rewriter, product, *threads)))
      return failure();
  dropRepeatedBarriers(kernel);
  splitLoopClusterBarriers(rewriter, kernel);
  return success();
}

namespace {

struct LowerStagingPass
    : public sage::impl::SageLowerStagingBase<LowerStagingPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<gpu::GPUFuncOp> kernels;
    getOperation()->walk([&](gpu::GPUFuncOp kernel) {
      if (kernel.isKernel())
        kernels.push_back(kernel);
    });
    for (gpu::GPUFuncOp kernel : kernels)
      if (failed(lowerKernel(kernel, bulkCopies)))
        return signalPassFailure();
  }
};

} // namespace
