//===- FrontendDialects.h - frontend namespaces sage-opt reads --*- C++ -*-===//
//
// sage matches torch-mlir, IREE and StableHLO attention by op name and
// structure, without linking those projects, so sage-opt reads their ops
// in MLIR's generic form. It registers a placeholder dialect per frontend
// namespace: generic-form ops, attributes and types of it parse (as
// unregistered ops and opaque attributes) without
// --allow-unregistered-dialect, and an op in the project's custom form
// gets an error that names the project and says how to print the generic
// form.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_TOOLS_SAGE_OPT_FRONTENDDIALECTS_H
#define SAGE_TOOLS_SAGE_OPT_FRONTENDDIALECTS_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::sage {
/// Registers the placeholder dialects of the frontends' namespaces
/// (tm_tensor, torch, iree_linalg_ext, util, hal, flow, stablehlo, chlo).
void registerFrontendDialects(DialectRegistry &registry);
} // namespace mlir::sage

#endif // SAGE_TOOLS_SAGE_OPT_FRONTENDDIALECTS_H
