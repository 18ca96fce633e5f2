//===- FrontendDialects.cpp - frontend namespaces sage-opt reads ----------===//

#include "FrontendDialects.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/ArrayRef.h"

using namespace mlir;

namespace {
/// A frontend project and how its users print the generic form.
struct Frontend {
  const char *project;
  const char *printGeneric;
};

constexpr Frontend kTorchMlir = {
    "torch-mlir", "torch-mlir-opt --mlir-print-op-generic, or from Python "
                  "module.operation.get_asm(print_generic_op_form=True)"};
constexpr Frontend kIree = {
    "IREE", "iree-opt --mlir-print-op-generic (iree-compile "
            "--compile-to=input --mlir-print-op-generic for a model)"};
constexpr Frontend kStableHlo = {
    "StableHLO (JAX, XLA)",
    "stablehlo-opt --mlir-print-op-generic, or from JAX "
    "jax.jit(f).lower(*args).compiler_ir('stablehlo').operation.get_asm("
    "print_generic_op_form=True)"};

struct FrontendNamespace {
  const char *name;
  const Frontend *frontend;
};

constexpr FrontendNamespace kNamespaces[] = {
    {"tm_tensor", &kTorchMlir}, {"torch", &kTorchMlir},
    {"torch_c", &kTorchMlir},   {"iree_linalg_ext", &kIree},
    {"util", &kIree},           {"hal", &kIree},
    {"flow", &kIree},           {"stablehlo", &kStableHlo},
    {"chlo", &kStableHlo},      {"mhlo", &kStableHlo},
};

/// The placeholder dialect of kNamespaces[Index]: its generic-form ops are
/// unregistered ops, its attributes and types opaque ones; a custom-form
/// op is an error.
template <unsigned Index> class FrontendDialect : public Dialect {
public:
  explicit FrontendDialect(MLIRContext *ctx)
      : Dialect(getDialectNamespace(), ctx,
                TypeID::get<FrontendDialect<Index>>()) {
    allowUnknownOperations();
    allowUnknownTypes();
  }
  static StringRef getDialectNamespace() { return kNamespaces[Index].name; }
  // An explicit TypeID per instance: MLIR's name-based fallback refuses
  // classes in anonymous namespaces when it is built with assertions.
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FrontendDialect)

  std::optional<ParseOpHook>
  getParseOperationHook(StringRef opName) const override {
    return ParseOpHook(refuseCustomForm);
  }

  Attribute parseAttribute(DialectAsmParser &parser, Type type) const override {
    // As the parser makes them for unregistered dialects: untyped is none.
    return OpaqueAttr::get(StringAttr::get(getContext(), getNamespace()),
                           parser.getFullSymbolSpec(),
                           type ? type : NoneType::get(getContext()));
  }
  Type parseType(DialectAsmParser &parser) const override {
    return OpaqueType::get(StringAttr::get(getContext(), getNamespace()),
                           parser.getFullSymbolSpec());
  }

private:
  /// The custom-form parser of every op name. ParseOpHook is a
  /// function_ref: it must refer to a function, not a temporary. The
  /// parser prefixes "custom op 'NAME' ".
  static ParseResult refuseCustomForm(OpAsmParser &parser,
                                      OperationState &state) {
    const Frontend *frontend = kNamespaces[Index].frontend;
    StringRef name = state.name.getStringRef();
    return parser.emitError(parser.getNameLoc())
           << "is in " << frontend->project
           << "'s custom form, which sage-opt does not parse: sage reads "
              "these ops in MLIR's generic form (\""
           << name << "\"(...) : ...); print it with "
           << frontend->printGeneric;
  }
};

template <unsigned... Indices>
void registerAll(DialectRegistry &registry,
                 std::integer_sequence<unsigned, Indices...>) {
  (registry.insert<FrontendDialect<Indices>>(), ...);
}
} // namespace

void mlir::sage::registerFrontendDialects(DialectRegistry &registry) {
  registerAll(registry,
              std::make_integer_sequence<unsigned, std::size(kNamespaces)>());
}
