//===- SageInterfaces.td - sage attribute interfaces -------*- tablegen -*-===//

#ifndef SAGE_DIALECT_SAGE_IR_SAGEINTERFACES_TD
#define SAGE_DIALECT_SAGE_IR_SAGEINTERFACES_TD

include "mlir/IR/OpBase.td"

def Sage_OperandLayoutAttrInterface
    : AttrInterface<"OperandLayoutAttrInterface"> {
  let cppNamespace = "::mlir::sage";
  let description = [{
    Where the elements of an MMA operand live: the one description that the
    code writing an operand (a quantizer's stores) and the code reading it
    (the MMA's fragment loads) both follow, so that the two cannot drift
    apart (docs/Layouts.md).

    Along the operand's contraction axis, element `index` sits at MMA
    position `getPositionOf(index)` (a permutation within one MMA k-chunk:
    the sum over k does not care about the order, which lets an operand
    follow the order in which another MMA's accumulator holds its values)
    and is stored at `getStorageIndex(position)`. Positions are stored in
    groups of `getGroupSize()` elements, of which each lane of a quad loads
    `getLaneBytes()` contiguous bytes at once.
  }];
  let methods = [
    InterfaceMethod<"The axis of the tensor the contraction runs along "
                    "(features for Q and K, tokens for V).",
      "::mlir::sage::DimRole", "getContractionAxis">,
    InterfaceMethod<"Elements of the contraction axis one MMA consumes.",
      "int64_t", "getMmaK">,
    InterfaceMethod<"Elements stored as one group (a multiple of the MMA "
                    "k); an axis is stored padded to whole groups.",
      "int64_t", "getGroupSize">,
    InterfaceMethod<"Bytes of a group one lane loads with one load.",
      "int64_t", "getLaneBytes">,
    InterfaceMethod<"The MMA position (along k) that holds element `index` "
                    "of the contraction axis.",
      "int64_t", "getPositionOf", (ins "int64_t":$index)>,
    InterfaceMethod<"The element of the contraction axis held at MMA "
                    "position `position` (the inverse of getPositionOf).",
      "int64_t", "getIndexAt", (ins "int64_t":$position)>,
    InterfaceMethod<"getIndexAt as an affine expression of `position`, for "
                    "index arithmetic on tiles held in MMA position order.",
      "::mlir::AffineExpr", "getIndexExpr",
      (ins "::mlir::AffineExpr":$position)>,
    InterfaceMethod<"getPositionOf as an affine expression of `index`, for "
                    "tiles read from an operand stored in MMA position "
                    "order.",
      "::mlir::AffineExpr", "getPositionExpr",
      (ins "::mlir::AffineExpr":$index)>,
    InterfaceMethod<"Where MMA position `position` is stored, counted in "
                    "elements from the start of the axis.",
      "int64_t", "getStorageIndex", (ins "int64_t":$position)>,
    InterfaceMethod<"How the operand's rows are placed: one after another, "
                    "or as the core-matrix tiles of a shared-memory stage.",
      "::mlir::sage::OperandTiling", "getOperandTiling", (ins), [{}],
      [{ return ::mlir::sage::OperandTiling::Rows; }]>
  ];
  let extraClassDeclaration = [{
    /// The length an axis of `extent` elements is stored with: whole groups,
    /// the padding zeros.
    int64_t getPaddedExtent(int64_t extent) const;
  }];
}

def Sage_FragmentEncodingAttrInterface
    : AttrInterface<"FragmentEncodingAttrInterface"> {
  let cppNamespace = "::mlir::sage";
  let description = [{
    A tensor encoding that says how a tile is spread over the threads of a
    CTA (docs/Levels.md, distribute): which elements each lane holds, and in
    which order, as one vector. `sage-assign-fragments` puts these encodings
    on the tiles of the tile level; `sage-distribute-tiles` replaces each
    encoded tile by the lane's vector.
  }];
  let methods = [
    InterfaceMethod<"The vector one lane holds of a tile of `shape` and "
                    "`elementType`, or null where the tile does not fit the "
                    "encoding.",
      "::mlir::VectorType", "getLaneType",
      (ins "::llvm::ArrayRef<int64_t>":$shape, "::mlir::Type":$elementType)>
  ];
}

#endif // SAGE_DIALECT_SAGE_IR_SAGEINTERFACES_TD
