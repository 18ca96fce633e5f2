//===- MmaInstructions.h - sage's table of tensor-core MMAs -----*- C++ -*-===//
//
// The one table of the MMA instructions sage can emit (docs/Mma.md). A row
// is keyed on everything that tells two instructions apart: issuing scope,
// shape, each operand's format and where it is read from, accumulator and
// block-scale kind; it gives the PTX instruction, the chips that run it
// and the PTX ISA it needs. #sage.mma names a row; sage-select-mma picks
// one for each sage.qmma; the lowering emits what the row says.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_DIALECT_SAGE_IR_MMAINSTRUCTIONS_H
#define SAGE_DIALECT_SAGE_IR_MMAINSTRUCTIONS_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::sage {
enum class MmaScope : uint32_t;
enum class OperandSource : uint32_t;
enum class MmaScaleKind : uint32_t;

/// A target chip: `sm_90a` is {90, archSpecific = true}.
struct Chip {
  int sm = 0;
  bool archSpecific = false;
};

/// Parses sm_XY, sm_XYa and sm_XYf; nullopt otherwise.
std::optional<Chip> parseChip(llvm::StringRef name);

/// Shared memory an SM of `chip` has for its CTAs, of which the driver
/// keeps 1 KiB a CTA: 228 KiB on sm_90 and sm_100 .. sm_119, 164 KiB on
/// sm_80 and sm_87, 100 KiB on sm_86, sm_89 and sm_120 (and elsewhere, the
/// smallest of sage's chips).
int64_t getSharedBytesPerSm(Chip chip);

/// One row of the table.
struct MmaInstruction {
  MmaScope scope;
  int64_t m, k;
  /// Legal n: nMin, nMin + nStep, ..., nMax.
  int64_t nMin, nMax, nStep;
  /// PTX format names (s8, s4, e4m3, e2m1, f16, s32, f32).
  llvm::StringRef a, b, acc;
  OperandSource aSource, bSource;
  MmaScaleKind scales;
  /// Runs on sm >= minSm, or, when archSpecific, only on sm_<minSm>a.
  int minSm;
  bool archSpecific;
  /// PTX ISA version x 10 (8.7 -> 87).
  int ptxIsa;
  /// The instruction; `{n}` stands for the shape's n.
  llvm::StringRef ptx;
  /// What a performance engineer should know (e.g. emulated on a chip).
  llvm::StringRef note;

  bool hasN(int64_t n) const {
    return n >= nMin && n <= nMax && (n - nMin) % nStep == 0;
  }
  /// The instruction for shape n.
  std::string getPtx(int64_t n) const;
  /// Why `chip` cannot run it, or an empty string.
  std::string getUnavailableReason(Chip chip) const;
  /// A tcgen05 row's 32-bit instruction descriptor for shape n, both
  /// operands K-major, dense, no negation (PTX ISA, "Instruction
  /// descriptor"; docs/Mma.md).
  uint32_t getTcgen05Descriptor(int64_t n) const;
};

/// Every row, in the table's order.
llvm::ArrayRef<MmaInstruction> getMmaInstructions();

/// The PTX name of an operand or accumulator type (i8 -> s8, f8E4M3FN ->
/// e4m3, ...), or an empty string.
llvm::StringRef getMmaFormatName(Type type);

/// The block scales a qmma operand's scale tensor asks the instruction to
/// apply: none for row-wise scales ([..., rows, 1], applied to the result),
/// E4M3 or E8M0 block scales along K; nullopt for scales no instruction
/// applies (f32 along K, or a dynamic extent).
std::optional<MmaScaleKind> getMmaScaleKind(Type scales);

} // namespace mlir::sage

#endif // SAGE_DIALECT_SAGE_IR_MMAINSTRUCTIONS_H
