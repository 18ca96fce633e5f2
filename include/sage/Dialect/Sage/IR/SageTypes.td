//===- SageTypes.td - sage types ---------------------------*- tablegen -*-===//
//
// Types of the fragment level (docs/Levels.md, L4): tokens that tie an
// asynchronous instruction's results to the wait that makes them readable,
// and the channels through which threads hand shared-memory stages over.
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

def Sage_StageGroupType : TypeDef<Sage_Dialect, "StageGroup"> {
  let mnemonic = "stage_group";
  let summary = "a group of tile stagings issued together, awaited together";
  let description = [{
    The token `sage.stage_async` returns for the tiles its region stages
    (docs/Levels.md, L3), and the one `sage.stage_await` that makes them
    readable takes. On sm_80 to sm_120 the group is one cp.async commit
    group. Like `!sage.wgmma_group` it exists in the IR only, so that the
    readers' dependence on the copies is data flow; it does not cross
    loops or region boundaries.
  }];
}

def Sage_StageRingType : TypeDef<Sage_Dialect, "StageRing"> {
  let mnemonic = "stage_ring";
  let summary = "the mbarriers of a ring of shared-memory stages";
  let description = [{
    The channel between the threads that fill a ring of `stages`
    shared-memory stages and those that read them (docs/Levels.md, L4),
    as `sage.stage_ring` lays it out: block j goes to stage j mod
    `stages`, whose "full" mbarrier completes its phase j / `stages` once
    the block's bytes have arrived, and, with `consumers`, whose "empty"
    mbarrier completes the same phase once that many threads have released
    the stage, so that block j + `stages` may overwrite it. Without
    `consumers` (0) the readers release stages some other way (a CTA
    barrier).
  }];
  let parameters = (ins "int64_t":$stages,
                        DefaultValuedParameter<"int64_t", "0">:$consumers);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // SAGE_DIALECT_SAGE_IR_SAGETYPES_TD
