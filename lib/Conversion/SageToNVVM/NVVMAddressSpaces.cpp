//===- NVVMAddressSpaces.cpp - GPU memory spaces in NVVM's numbering ------===//
//
// The levels name a kernel's workgroup tiles #gpu.address_space<workgroup>
// (docs/Levels.md, L3). convert-gpu-to-nvvm maps that attribute to NVVM's
// address spaces, but the conversions that run before it on the same
// memrefs (vector-to-llvm, nvgpu-to-nvvm) do not, and fail on it. This
// pass renumbers every type and attribute of a GPU module once, before
// them: workgroup 3, private 5, global 1.
//
//===----------------------------------------------------------------------===//

#include "sage/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace mlir::sage {
#define GEN_PASS_DEF_SAGENVVMADDRESSSPACES
#include "sage/Conversion/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;

static NVVM::NVVMMemorySpace getNVVMSpace(gpu::AddressSpace space) {
  switch (space) {
  case gpu::AddressSpace::Global:
    return NVVM::NVVMMemorySpace::Global;
  case gpu::AddressSpace::Workgroup:
    return NVVM::NVVMMemorySpace::Shared;
  case gpu::AddressSpace::Private:
    return NVVM::NVVMMemorySpace::Local;
  }
  llvm_unreachable("unknown GPU address space");
}

namespace {

struct NVVMAddressSpacesPass
    : public sage::impl::SageNVVMAddressSpacesBase<NVVMAddressSpacesPass> {
  void runOnOperation() override {
    AttrTypeReplacer replacer;
    replacer.addReplacement(
        [](gpu::AddressSpaceAttr attr) -> std::optional<Attribute> {
          return IntegerAttr::get(
              IntegerType::get(attr.getContext(), 64),
              static_cast<int64_t>(getNVVMSpace(attr.getValue())));
        });
    replacer.recursivelyReplaceElementsIn(getOperation(), /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);
  }
};

} // namespace
