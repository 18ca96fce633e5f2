//===- SageTypes.td - sage types ---------------------------*- tablegen -*-===//
//
// Types of the fragment level (docs/Levels.md, L4): tokens that tie an
// asynchronous instruction's results to the wait that makes them readable.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_DIALECT_SAGE_IR_SAGETYPES_TD
#define SAGE_DIALECT_SAGE_IR_SAGETYPES_TD

include "mlir/IR/AttrTypeBase.td"
include "sage/Dialect/Sage/IR/SageBase.td"

def Sage_WgmmaGroupType : TypeDef<Sage_Dialect, "WgmmaGroup"> {
  let mnemonic = "wgmma_group";
  let summary = "a committed group of a warpgroup's wgmmas";
  let description = [{
    The token `sage.warpgroup_commit` returns for the wgmmas it commits
    (`wgmma.commit_group`), and `sage.warpgroup_wait` takes: the wait makes
    that group's results readable, and nothing else takes (not a loop's
    iter_args nor a region's results). It exists in the IR only, so that
    the dependence of a wgmma's readers on its group's completion is data
    flow a pass can see; it lowers to nothing.
  }];
}

#endif // SAGE_DIALECT_SAGE_IR_SAGETYPES_TD
