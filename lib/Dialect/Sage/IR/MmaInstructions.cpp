//===- MmaInstructions.cpp - sage's table of tensor-core MMAs -------------===//
//
// What each row says was checked by assembling it with ptxas 13.0 for
// the chips named (docs/Mma.md). Adding an instruction is
// adding a row here; the selection and the verifier read nothing else.
//
//===----------------------------------------------------------------------===//

#include "sage/Dialect/Sage/IR/MmaInstructions.h"
#include "sage/Dialect/Sage/IR/SageAttrs.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::sage;

int64_t mlir::sage::getSharedBytesPerSm(Chip chip) {
  if (chip.sm == 90 || (chip.sm >= 100 && chip.sm < 120))
    return 228 * 1024;
  if (chip.sm == 80 || chip.sm == 87)
    return 164 * 1024;
  return 100 * 1024;
}

std::optional<Chip> mlir::sage::parseChip(StringRef name) {
  Chip chip;
  if (!name.consume_front("sm_"))
    return std::nullopt;
  chip.archSpecific = name.consume_back("a");
  if (!chip.archSpecific)
    name.consume_back("f");
  if (name.getAsInteger(10, chip.sm))
    return std::nullopt;
  return chip;
}

namespace {
using S = MmaScope;
using O = OperandSource;
using K = MmaScaleKind;
constexpr O R = O::Registers, Sh = O::Shared, T = O::TensorMemory;
} // namespace

// clang-format off
static const MmaInstruction kInstructions[] = {
  // One warp: mma.sync. A and B in registers.
  {S::Warp, 16, 32, 8, 8, 8, "s8", "s8", "s32", R, R, K::None, 80, false, 70,
   "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", ""},
  {S::Warp, 16, 64, 8, 8, 8, "s4", "s4", "s32", R, R, K::None, 80, false, 70,
   "mma.sync.aligned.m16n8k64.row.col.satfinite.s32.s4.s4.s32",
   "emulated on sm_90 (slow)"},
  {S::Warp, 16, 32, 8, 8, 8, "e4m3", "e4m3", "f32", R, R, K::None, 89, false,
   84, "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32",
   "emulated on sm_90 (slow); an FP22 accumulator (13 mantissa bits)"},
  {S::Warp, 16, 32, 8, 8, 8, "e4m3", "e4m3", "f16", R, R, K::None, 89, false,
   87, "mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16",
   "emulated on sm_90 (slow)"},
  {S::Warp, 16, 16, 8, 8, 8, "f16", "f16", "f32", R, R, K::None, 80, false, 70,
   "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", ""},
  {S::Warp, 16, 16, 8, 8, 8, "f16", "f16", "f16", R, R, K::None, 80, false, 70,
   "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", ""},
  {S::Warp, 16, 64, 8, 8, 8, "e2m1", "e2m1", "f32", R, R, K::Ue4m3Block16, 120,
   true, 87,
   "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale."
   "scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3", ""},

  // One warpgroup: wgmma (sm_90a). B from shared memory, A from shared
  // memory or registers. n: the multiples of 16 up to 256 (a subset of
  // what PTX allows).
  {S::Warpgroup, 64, 32, 16, 256, 16, "s8", "s8", "s32", Sh, Sh, K::None, 90,
   true, 80, "wgmma.mma_async.sync.aligned.m64n{n}k32.s32.s8.s8", ""},
  {S::Warpgroup, 64, 32, 16, 256, 16, "s8", "s8", "s32", R, Sh, K::None, 90,
   true, 80, "wgmma.mma_async.sync.aligned.m64n{n}k32.s32.s8.s8", ""},
  {S::Warpgroup, 64, 32, 16, 256, 16, "e4m3", "e4m3", "f32", Sh, Sh, K::None,
   90, true, 80, "wgmma.mma_async.sync.aligned.m64n{n}k32.f32.e4m3.e4m3",
   "an FP22 accumulator (13 mantissa bits)"},
  {S::Warpgroup, 64, 32, 16, 256, 16, "e4m3", "e4m3", "f32", R, Sh, K::None,
   90, true, 80, "wgmma.mma_async.sync.aligned.m64n{n}k32.f32.e4m3.e4m3",
   "an FP22 accumulator (13 mantissa bits)"},
  {S::Warpgroup, 64, 32, 16, 256, 16, "e4m3", "e4m3", "f16", Sh, Sh, K::None,
   90, true, 80, "wgmma.mma_async.sync.aligned.m64n{n}k32.f16.e4m3.e4m3", ""},
  {S::Warpgroup, 64, 32, 16, 256, 16, "e4m3", "e4m3", "f16", R, Sh, K::None,
   90, true, 80, "wgmma.mma_async.sync.aligned.m64n{n}k32.f16.e4m3.e4m3", ""},

  // tcgen05 (sm_100a): one thread issues for the CTA; the accumulator lives
  // in tensor memory, B in shared memory, A in shared or tensor memory.
  {S::Tcgen05, 128, 32, 16, 256, 16, "s8", "s8", "s32", Sh, Sh, K::None, 100,
   true, 86, "tcgen05.mma.cta_group::1.kind::i8", ""},
  {S::Tcgen05, 128, 32, 16, 256, 16, "s8", "s8", "s32", T, Sh, K::None, 100,
   true, 86, "tcgen05.mma.cta_group::1.kind::i8", ""},
  {S::Tcgen05, 128, 32, 16, 256, 16, "e4m3", "e4m3", "f32", Sh, Sh, K::None,
   100, true, 86, "tcgen05.mma.cta_group::1.kind::f8f6f4", ""},
  {S::Tcgen05, 128, 32, 16, 256, 16, "e4m3", "e4m3", "f32", T, Sh, K::None,
   100, true, 86, "tcgen05.mma.cta_group::1.kind::f8f6f4", ""},
  {S::Tcgen05, 128, 64, 16, 256, 16, "e2m1", "e2m1", "f32", Sh, Sh,
   K::Ue4m3Block16, 100, true, 88,
   "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16", ""},
  {S::Tcgen05, 128, 64, 16, 256, 16, "e2m1", "e2m1", "f32", T, Sh,
   K::Ue4m3Block16, 100, true, 88,
   "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16", ""},
};
// clang-format on

ArrayRef<MmaInstruction> mlir::sage::getMmaInstructions() {
  return kInstructions;
}

std::string MmaInstruction::getPtx(int64_t n) const {
  std::string result = ptx.str();
  size_t at = result.find("{n}");
  if (at != std::string::npos)
    result.replace(at, 3, std::to_string(n));
  return result;
}

std::string MmaInstruction::getUnavailableReason(Chip chip) const {
  if (archSpecific) {
    if (chip.sm == minSm && chip.archSpecific)
      return "";
    return llvm::formatv("needs sm_{0}a", minSm).str();
  }
  if (chip.sm >= minSm)
    return "";
  return llvm::formatv("needs sm_{0} or newer", minSm).str();
}

uint32_t MmaInstruction::getTcgen05Descriptor(int64_t n) const {
  assert(scope == MmaScope::Tcgen05 && hasN(n) && "a tcgen05 row's shape");
  // Fields common to every kind: N >> 3 at bits 17..22; both transpose
  // bits (15, 16) 0, i.e. K-major; sparsity and negation 0.
  uint32_t descriptor = uint32_t(n >> 3) << 17;
  if (scales == MmaScaleKind::Ue4m3Block16) {
    // kind::mxf4nvf4: E2M1 is format 1 for A (bits 7..9) and B (10..11);
    // scale type UE4M3 is 0 (bit 23); M >> 7 at bits 27..28; the scale
    // factor ids (4..5, 29..30) are 0, as scale_vec::4X requires; K = 64
    // (bit 31 clear).
    assert(a == "e2m1" && b == "e2m1" && m == 128 && "NVFP4's M = 128 row");
    return descriptor | 1u << 7 | 1u << 10 | uint32_t(m >> 7) << 27;
  }
  // kind::i8 (S8 = 1) and kind::f8f6f4 (E4M3 = 0): A at bits 7..9, B at
  // 10..12; D at bits 4..5 (F16 0, F32 1, S32 2); M >> 4 at bits 24..28.
  auto format = [](StringRef name) -> uint32_t {
    assert((name == "s8" || name == "e4m3") && "an i8 or f8f6f4 row");
    return name == "s8" ? 1 : 0;
  };
  assert((acc == "s32" || acc == "f32") && "an s32 or f32 accumulator");
  uint32_t accumulator = acc == "s32" ? 2 : 1;
  return descriptor | accumulator << 4 | format(a) << 7 | format(b) << 10 |
         uint32_t(m >> 4) << 24;
}

StringRef mlir::sage::getMmaFormatName(Type type) {
  if (type.isSignlessInteger(8))
    return "s8";
  if (type.isSignlessInteger(4))
    return "s4";
  if (type.isSignlessInteger(32))
    return "s32";
  if (type.isF16())
    return "f16";
  if (type.isF32())
    return "f32";
  if (isa<Float8E4M3FNType>(type))
    return "e4m3";
  if (isa<Float4E2M1FNType>(type))
    return "e2m1";
  return "";
}

std::optional<MmaScaleKind> mlir::sage::getMmaScaleKind(Type scales) {
  auto type = cast<RankedTensorType>(scales);
  int64_t perRow = type.getShape().back();
  if (perRow == 1)
    return MmaScaleKind::None;
  if (ShapedType::isDynamic(perRow))
    return std::nullopt;
  if (isa<Float8E4M3FNType>(type.getElementType()))
    return MmaScaleKind::Ue4m3Block16;
  if (isa<Float8E8M0FNUType>(type.getElementType()))
    return MmaScaleKind::Ue8m0Block32;
  return std::nullopt;
}

/// The row `attr` describes, or null.
static const MmaInstruction *findInstruction(MmaScope scope, int64_t m,
                                             int64_t n, int64_t k, Type a,
                                             OperandSource aSource, Type b,
                                             OperandSource bSource, Type acc,
                                             MmaScaleKind scales) {
  for (const MmaInstruction &row : kInstructions)
    if (row.scope == scope && row.m == m && row.hasN(n) && row.k == k &&
        row.a == getMmaFormatName(a) && row.b == getMmaFormatName(b) &&
        row.acc == getMmaFormatName(acc) && row.aSource == aSource &&
        row.bSource == bSource && row.scales == scales)
      return &row;
  return nullptr;
}

const MmaInstruction *MmaAttr::getInstruction() const {
  return findInstruction(getScope(), getM(), getN(), getK(), getA(),
                         getASource(), getB(), getBSource(), getAcc(),
                         getScales());
}

LogicalResult MmaAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                              MmaScope scope, int64_t m, int64_t n, int64_t k,
                              Type a, OperandSource aSource, Type b,
                              OperandSource bSource, Type acc,
                              MmaScaleKind scales) {
  if (findInstruction(scope, m, n, k, a, aSource, b, bSource, acc, scales))
    return success();
  InFlightDiagnostic diag = emitError();
  diag << "no " << stringifyMmaScope(scope) << " MMA instruction computes " << m
       << "x" << n << "x" << k << " " << a << " ("
       << stringifyOperandSource(aSource) << ") x " << b << " ("
       << stringifyOperandSource(bSource) << ") -> " << acc;
  if (scales != MmaScaleKind::None)
    diag << " with " << stringifyMmaScaleKind(scales) << " scales";
  // Name the shapes the table has for these formats, if any.
  SmallVector<std::string> shapes;
  for (const MmaInstruction &row : kInstructions)
    if (row.scope == scope && row.a == getMmaFormatName(a) &&
        row.acc == getMmaFormatName(acc))
      shapes.push_back(
          llvm::formatv(
              "m{0}n{1}{2}k{3} ({4}, {5})", row.m, row.nMin,
              row.nMax > row.nMin ? llvm::formatv("..{0}", row.nMax).str() : "",
              row.k, stringifyOperandSource(row.aSource),
              stringifyOperandSource(row.bSource))
              .str());
  if (!shapes.empty())
    diag << "; the table has " << llvm::join(shapes, ", ");
  return diag;
}
