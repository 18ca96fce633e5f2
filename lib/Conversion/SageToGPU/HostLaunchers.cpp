//===- HostLaunchers.cpp - the host side of an attention as IR -----------===//
//
// Each compiled attention gets three host functions, built from its
// launch plan (docs/Launchers.md):
//
//   i64 @NAME_workspace_size(i64 B, i64 H, i64 Hkv, i64 Nq, i64 Nk)
//   i32 @NAME_launch(ptr stream, (ptr data, ptr strides) per input and
//                    output, ptr workspace, i64 workspace_bytes, i64 B, ...)
//   ptr @NAME_last_error()
//
// Sizes, workspace offsets and grids are i64 arithmetic on the run-time
// sizes; each launch is a gpu.launch_func on the caller's stream. Bad
// arguments return 1 after sageLauncherFail records a message naming the
// argument; otherwise the function returns the runtime's status of the
// launches it enqueued. The launcher runtime (lib/Runtime/Launcher*.cpp)
// supplies those entry points and the mgpu* ones that MLIR's GPU
// translation calls.
//
//===----------------------------------------------------------------------===//

#include "SageToGPUInternal.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/Format.h"

#include <functional>

using namespace mlir;
using namespace mlir::sage;

namespace {
constexpr int64_t kWorkspaceAlignment = 256;
constexpr int64_t kInt32Max = 2147483647;
constexpr int64_t kGridYZLimit = 65535;
// The launcher runtime's entry points (docs/Launchers.md).
constexpr const char *kFail = "sageLauncherFail";
constexpr const char *kMemsetZero = "sageLauncherMemsetZero";
constexpr const char *kTakeStatus = "sageLauncherTakeStatus";
constexpr const char *kLastError = "sageLauncherLastError";

int64_t getElementBytes(StringRef type) {
  return llvm::StringSwitch<int64_t>(type)
      .Case("f16", 2)
      .Case("bf16", 2)
      .Case("f32", 4)
      .Case("i32", 4)
      .Default(1); // i8, f8E4M3FN, i1 (one byte per element)
}

/// Builds one launcher function; the builder sits in its body.
class LauncherBuilder {
public:
  LauncherBuilder(OpBuilder &b, Location loc, ModuleOp module,
                  const LaunchPlan &plan)
      : b(b), loc(loc), module(module), plan(plan) {}

  Value i64(int64_t value) {
    return arith::ConstantIntOp::create(b, loc, value, 64);
  }
  Value i32(int64_t value) {
    return arith::ConstantIntOp::create(b, loc, value, 32);
  }
  Value cmp(arith::CmpIPredicate predicate, Value lhs, Value rhs) {
    return arith::CmpIOp::create(b, loc, predicate, lhs, rhs);
  }
  Value mul(Value lhs, Value rhs) {
    return arith::MulIOp::create(b, loc, lhs, rhs);
  }

  /// The size symbols' values: arguments, or 1 for H and Hkv of a rank-3
  /// plan.
  Value symbol(StringRef name) {
    if (Value value = symbols.lookup(name))
      return value;
    assert((name == "H" || name == "Hkv") && "a plan names an unknown size");
    return i64(1);
  }

  Value build(const SizeExpr &expr) {
    return expr.build(b, loc, [&](StringRef name) { return symbol(name); });
  }

  /// The buffer's bytes for the bound sizes.
  Value getBytes(const PlanBuffer &buffer) {
    Value bytes = i64(getElementBytes(buffer.type));
    for (const SizeExpr &extent : buffer.shape)
      bytes = mul(bytes, build(extent));
    return bytes;
  }

  /// Workspace buffers' byte offsets (each 256-byte aligned) and the total.
  Value layOutWorkspace(llvm::StringMap<Value> *offsets) {
    Value end = i64(0);
    Value alignMask = i64(kWorkspaceAlignment - 1);
    for (const PlanBuffer &buffer : plan.buffers) {
      if (buffer.kind != "workspace")
        continue;
      Value offset = arith::AndIOp::create(
          b, loc, arith::AddIOp::create(b, loc, end, alignMask),
          i64(~(kWorkspaceAlignment - 1)));
      if (offsets)
        (*offsets)[buffer.name] = offset;
      end = arith::AddIOp::create(b, loc, offset, getBytes(buffer));
    }
    return end;
  }

  /// A NUL-terminated message in a constant global; its address.
  Value message(StringRef text) {
    std::string name = (function + "_message_" + Twine(messages++)).str();
    {
      OpBuilder::InsertionGuard guard(b);
      if (lastMessage)
        b.setInsertionPointAfter(lastMessage);
      else
        b.setInsertionPointToStart(module.getBody());
      std::string value = text.str();
      value.push_back('\0');
      lastMessage = LLVM::GlobalOp::create(
          b, loc, LLVM::LLVMArrayType::get(b.getI8Type(), value.size()),
          /*isConstant=*/true, LLVM::Linkage::Private, name,
          b.getStringAttr(value));
    }
    return LLVM::AddressOfOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext()), name);
  }

  /// If `bad`, returns sageLauncherFail(format, got, expected) from the
  /// function; the builder continues in the block where `bad` is false.
  /// `format` takes `got` and `expected` as two %lld, in that order.
  void failIf(Value bad, StringRef format, Value got, Value expected) {
    Block *current = b.getInsertionBlock();
    Region *region = current->getParent();
    Block *fail = new Block(), *next = new Block();
    region->push_back(fail);
    region->push_back(next);
    cf::CondBranchOp::create(b, loc, bad, fail, next);
    b.setInsertionPointToStart(fail);
    Value code = func::CallOp::create(
                     b, loc, kFail, b.getI32Type(),
                     ValueRange{message((function + ": " + format).str()), got,
                                expected})
                     .getResult(0);
    // NAME_workspace_size returns -1 where NAME_launch returns the status.
    func::ReturnOp::create(b, loc,
                           failureResult ? failureResult(b, loc) : code);
    b.setInsertionPointToStart(next);
  }

  /// Refuses a workspace past i64 (its sum wrapped): only sizes no memory
  /// holds get there.
  void checkWorkspaceFits(Value needed) {
    failIf(cmp(arith::CmpIPredicate::slt, needed, i64(0)),
           "these sizes need more than 2^63 - 1 bytes of workspace (%lld "
           "after wrapping)",
           needed, i64(0));
  }

  /// Refuses run-time sizes the kernels cannot index (docs/LaunchPlan.md,
  /// "Size limits") or launch (grid y and z extents).
  void checkSizes(bool hasHeads, bool tokensBeforeHeads) {
    using P = arith::CmpIPredicate;
    Value zero = i64(0);
    for (StringRef name : {"B", "H", "Hkv", "Nq", "Nk"}) {
      if (!hasHeads && (name == "H" || name == "Hkv"))
        continue;
      failIf(cmp(P::slt, symbol(name), zero),
             (name + " is %lld; sizes cannot be negative").str(), symbol(name),
             zero);
    }
    if (hasHeads) {
      failIf(cmp(P::slt, symbol("Hkv"), i64(1)),
             "Hkv is %lld; it must be at least %lld", symbol("Hkv"), i64(1));
      Value rest = arith::RemUIOp::create(b, loc, symbol("H"), symbol("Hkv"));
      failIf(cmp(P::ne, rest, zero), "H is %lld, not a multiple of Hkv = %lld",
             symbol("H"), symbol("Hkv"));
      // With H = 0 any Hkv divides it: bound Hkv by H (or 1) so that the
      // K/V kernels' limits below hold too.
      Value most = arith::MaxSIOp::create(b, loc, symbol("H"), i64(1));
      failIf(cmp(P::sgt, symbol("Hkv"), most),
             "Hkv is %lld; it must be at most H (or 1 when H is 0), %lld",
             symbol("Hkv"), most);
      failIf(cmp(P::sgt, symbol("H"), i64(kGridYZLimit)),
             "H is %lld; the kernels' grid y extent holds at most %lld",
             symbol("H"), i64(kGridYZLimit));
    }
    failIf(cmp(P::sgt, symbol("B"), i64(kGridYZLimit)),
           "B is %lld; the kernels' grid z extent holds at most %lld",
           symbol("B"), i64(kGridYZLimit));
    // The statistics kernels walk chunks of 256 tokens.
    int64_t tile = std::max({plan.blockQ, plan.blockK, int64_t(256)});
    Value tokenLimit = i64(kInt32Max / tile * tile - 2 * tile);
    for (StringRef name : {"Nq", "Nk"})
      failIf(cmp(P::sgt, symbol(name), tokenLimit),
             (name + " is %lld; the kernels index at most %lld tokens in 32 "
                     "bits")
                 .str(),
             symbol(name), tokenLimit);
    // B, H <= 65535 here, so these products fit in i64.
    int64_t features = std::max(plan.headDim, plan.valueDim);
    failIf(
        cmp(P::sgt, mul(symbol("B"), symbol("H")), i64(kInt32Max / features)),
        (Twine(hasHeads ? "B * H" : "B") +
         " is %lld; the kernels index at most %lld (batch, head) "
         "rows of " +
         Twine(features) + " features in 32 bits")
            .str(),
        mul(symbol("B"), symbol("H")), i64(kInt32Max / features));
    if (!tokensBeforeHeads)
      return;
    for (StringRef name : {"Nq", "Nk"})
      failIf(cmp(P::sgt, mul(symbol("B"), symbol(name)), i64(kInt32Max)),
             ("B * " + name +
              " is %lld; with tokens before heads the kernels index at most "
              "%lld (batch, token) rows in 32 bits")
                 .str(),
             mul(symbol("B"), symbol(name)), i64(kInt32Max));
  }

  /// Refuses, for a non-empty buffer, a null or misaligned pointer and
  /// strides other than the dense ones of the plan's layout (a dim of
  /// extent 1 takes any).
  void checkBuffer(const PlanBuffer &buffer, Value data, Value strides) {
    using P = arith::CmpIPredicate;
    Type ptrType = LLVM::LLVMPointerType::get(b.getContext());
    // Non-empty when no extent is 0 (a mask's byte count may not fit in
    // i64).
    Value nonEmpty = cmp(P::eq, i64(0), i64(0));
    for (const SizeExpr &extent : buffer.shape)
      nonEmpty = arith::AndIOp::create(b, loc, nonEmpty,
                                       cmp(P::ne, build(extent), i64(0)));
    Value address = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), data);
    failIf(arith::AndIOp::create(b, loc, nonEmpty, cmp(P::eq, address, i64(0))),
           buffer.name + " is null and not empty", address, i64(0));
    // The quantizers load Q, K and V 16 bytes at a time and the epilogue
    // stores O in pairs; a mask is read an element, an LSE a float at a
    // time.
    int64_t alignment = buffer.name == "mask"  ? getElementBytes(buffer.type)
                        : buffer.name == "lse" ? 4
                                               : 16;
    if (alignment > 1) {
      Value misaligned =
          arith::AndIOp::create(b, loc, address, i64(alignment - 1));
      failIf(arith::AndIOp::create(b, loc, nonEmpty,
                                   cmp(P::ne, misaligned, i64(0))),
             buffer.name + " is %lld bytes past a multiple of %lld; the "
                           "kernels need it aligned to that",
             misaligned, i64(alignment));
    }
    std::string layout;
    for (const SizeExpr &extent : buffer.shape)
      layout += (layout.empty() ? "" : ", ") + extent.str();
    Value expected = i64(1);
    for (int64_t dim = int64_t(buffer.shape.size()) - 1; dim >= 0; --dim) {
      Value extent = build(buffer.shape[dim]);
      Value address =
          LLVM::GEPOp::create(b, loc, ptrType, b.getI64Type(), strides,
                              ArrayRef<LLVM::GEPArg>{int32_t(dim)});
      Value stride = LLVM::LoadOp::create(b, loc, b.getI64Type(), address);
      Value bad = arith::AndIOp::create(
          b, loc, nonEmpty,
          arith::AndIOp::create(b, loc, cmp(P::sgt, extent, i64(1)),
                                cmp(P::ne, stride, expected)));
      failIf(bad,
             (buffer.name + "_strides[" + Twine(dim) +
              "] is %lld; the kernels read " + buffer.name +
              " dense in the order [" + layout + "], stride %lld there")
                 .str(),
             stride, expected);
      expected = mul(expected, extent);
    }
  }

  /// Enqueues the plan's zeroing and launches on `stream`.
  void enqueue(Value stream, const llvm::StringMap<Value> &pointers) {
    using P = arith::CmpIPredicate;
    auto globalPtr = LLVM::LLVMPointerType::get(b.getContext(), 1);
    for (const PlanBuffer &buffer : plan.buffers) {
      if (!buffer.zeroInit)
        continue;
      Value bytes = getBytes(buffer);
      auto ifOp = scf::IfOp::create(b, loc, cmp(P::ne, bytes, i64(0)));
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      func::CallOp::create(
          b, loc, kMemsetZero, TypeRange{},
          ValueRange{pointers.lookup(buffer.name), bytes, stream});
    }
    for (const PlanLaunch &launch : plan.launches) {
      Value grid[3];
      Value blocks = i64(1);
      for (int d = 0; d < 3; ++d) {
        grid[d] = build(launch.grid[d]);
        blocks = mul(blocks, grid[d]);
      }
      // A grid with an empty extent is skipped, as the plan says.
      auto ifOp = scf::IfOp::create(b, loc, cmp(P::ne, blocks, i64(0)));
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      SmallVector<Value> operands;
      for (const PlanParam &param : launch.params) {
        if (param.isBuffer)
          operands.push_back(LLVM::AddrSpaceCastOp::create(
              b, loc, globalPtr, pointers.lookup(param.value)));
        else
          operands.push_back(arith::TruncIOp::create(b, loc, b.getI32Type(),
                                                     symbol(param.value)));
      }
      auto kernel = SymbolRefAttr::get(
          b.getStringAttr(plan.name),
          {FlatSymbolRefAttr::get(b.getContext(), launch.kernel)});
      gpu::LaunchFuncOp::create(b, loc, kernel, {grid[0], grid[1], grid[2]},
                                {i64(launch.blockSize), i64(1), i64(1)},
                                i32(launch.sharedBytes), operands, stream);
    }
  }

  OpBuilder &b;
  Location loc;
  ModuleOp module;
  const LaunchPlan &plan;
  llvm::StringMap<Value> symbols;
  /// The function the messages name, and what it returns on a failed
  /// check (none: sageLauncherFail's status).
  std::string function;
  std::function<Value(OpBuilder &, Location)> failureResult;
  int messages = 0;
  /// Messages stay in the order the checks run.
  Operation *lastMessage = nullptr;
};

/// Declares the launcher runtime's entry points the functions call.
void declareRuntime(OpBuilder &b, Location loc, ModuleOp module) {
  MLIRContext *ctx = b.getContext();
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  Type i64 = b.getI64Type(), i32 = b.getI32Type();
  std::pair<const char *, FunctionType> entries[] = {
      {kFail, FunctionType::get(ctx, {ptr, i64, i64}, {i32})},
      {kMemsetZero, FunctionType::get(ctx, {ptr, i64, ptr}, {})},
      {kTakeStatus, FunctionType::get(ctx, {}, {i32})},
      {kLastError, FunctionType::get(ctx, {}, {ptr})},
  };
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  for (auto &[name, type] : entries) {
    if (module.lookupSymbol(name))
      continue;
    auto decl = func::FuncOp::create(b, loc, name, type);
    decl.setPrivate();
  }
}

/// Names an argument for the C header (docs/Launchers.md).
void nameArgument(func::FuncOp func, unsigned index, StringRef name,
                  StringRef cType) {
  Builder b(func.getContext());
  func.setArgAttr(index, "sage.c_name", b.getStringAttr(name));
  func.setArgAttr(index, "sage.c_type", b.getStringAttr(cType));
}
} // namespace

/// What a caller of NAME_launch must pass, for the header's comment: each
/// buffer's shape and type, and what the attention computes.
static std::string describeLaunch(const LaunchPlan &plan,
                                  ArrayRef<const PlanBuffer *> io) {
  std::string doc;
  llvm::raw_string_ostream os(doc);
  for (const PlanBuffer *buffer : io) {
    os << buffer->name << ": [";
    llvm::interleaveComma(buffer->shape, os,
                          [&](const SizeExpr &size) { os << size.str(); });
    os << "] " << buffer->type << "\n";
  }
  os << "recipe " << plan.variant << " for " << plan.chip << ", scale "
     << llvm::format("%g", plan.scale);
  if (plan.causal)
    os << ", causal (aligned "
       << (plan.causalTopLeft ? "top-left" : "bottom-right") << ")";
  return doc;
}

void mlir::sage::buildHostLaunchers(OpBuilder &builder, Location loc,
                                    ModuleOp module, const LaunchPlan &plan) {
  declareRuntime(builder, loc, module);
  MLIRContext *ctx = builder.getContext();
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  Type i64 = builder.getI64Type(), i32 = builder.getI32Type();
  bool hasHeads = plan.layout.size() == 4;
  bool tokensBeforeHeads = hasHeads && plan.layout[1] == "tokens";
  SmallVector<StringRef> sizeNames = {"B", "H", "Hkv", "Nq", "Nk"};
  if (!hasHeads)
    sizeNames = {"B", "Nq", "Nk"};
  SmallVector<Type> sizeTypes(sizeNames.size(), i64);
  auto bindSizes = [&](LauncherBuilder &lb, func::FuncOp func, unsigned first) {
    for (auto [i, name] : llvm::enumerate(sizeNames)) {
      lb.symbols[name] = func.getArgument(first + i);
      nameArgument(func, first + i, name, "int64_t");
    }
  };

  // i64 NAME_workspace_size(sizes...)
  auto sizeFunc =
      func::FuncOp::create(builder, loc, plan.name + "_workspace_size",
                           FunctionType::get(ctx, sizeTypes, {i64}));
  sizeFunc->setAttr("sage.launcher", builder.getUnitAttr());
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(sizeFunc.addEntryBlock());
    LauncherBuilder lb(builder, loc, module, plan);
    lb.function = plan.name + "_workspace_size";
    lb.failureResult = [](OpBuilder &b, Location loc) -> Value {
      return arith::ConstantIntOp::create(b, loc, -1, 64);
    };
    bindSizes(lb, sizeFunc, 0);
    lb.checkSizes(hasHeads, tokensBeforeHeads);
    Value needed = lb.layOutWorkspace(/*offsets=*/nullptr);
    lb.checkWorkspaceFits(needed);
    func::ReturnOp::create(builder, loc, needed);
  }

  // const char *NAME_last_error(): the calling thread's last message.
  auto errorFunc = func::FuncOp::create(builder, loc, plan.name + "_last_error",
                                        FunctionType::get(ctx, {}, {ptr}));
  errorFunc->setAttr("sage.launcher", builder.getUnitAttr());
  errorFunc->setAttr("sage.c_result", builder.getStringAttr("const char *"));
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(errorFunc.addEntryBlock());
    func::ReturnOp::create(
        builder, loc,
        func::CallOp::create(builder, loc, kLastError, ptr, ValueRange{})
            .getResult(0));
  }

  // i32 NAME_launch(stream, (data, strides)..., workspace, bytes, sizes...)
  SmallVector<const PlanBuffer *> io;
  for (StringRef kind : {"input", "output"})
    for (const PlanBuffer &buffer : plan.buffers)
      if (buffer.kind == kind)
        io.push_back(&buffer);
  SmallVector<Type> argTypes = {ptr};
  argTypes.append(2 * io.size(), ptr);
  argTypes.append({ptr, i64});
  argTypes.append(sizeTypes);
  auto launchFunc =
      func::FuncOp::create(builder, loc, plan.name + "_launch",
                           FunctionType::get(ctx, argTypes, {i32}));
  launchFunc->setAttr("sage.launcher", builder.getUnitAttr());
  launchFunc->setAttr("sage.c_doc",
                      builder.getStringAttr(describeLaunch(plan, io)));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(launchFunc.addEntryBlock());
  LauncherBuilder lb(builder, loc, module, plan);
  lb.function = plan.name + "_launch";
  Value stream = launchFunc.getArgument(0);
  nameArgument(launchFunc, 0, "stream", "CUstream");
  unsigned workspaceArg = 1 + 2 * io.size();
  bindSizes(lb, launchFunc, workspaceArg + 2);
  nameArgument(launchFunc, workspaceArg, "workspace", "void *");
  nameArgument(launchFunc, workspaceArg + 1, "workspace_bytes", "int64_t");

  lb.checkSizes(hasHeads, tokensBeforeHeads);
  llvm::StringMap<Value> pointers;
  for (auto [i, buffer] : llvm::enumerate(io)) {
    Value data = launchFunc.getArgument(1 + 2 * i);
    Value strides = launchFunc.getArgument(2 + 2 * i);
    bool isInput = buffer->kind == "input";
    nameArgument(launchFunc, 1 + 2 * i, buffer->name,
                 isInput ? "const void *" : "void *");
    nameArgument(launchFunc, 2 + 2 * i, buffer->name + "_strides",
                 "const int64_t *");
    lb.checkBuffer(*buffer, data, strides);
    pointers[buffer->name] = data;
  }

  using P = arith::CmpIPredicate;
  Value workspace = launchFunc.getArgument(workspaceArg);
  Value workspaceBytes = launchFunc.getArgument(workspaceArg + 1);
  llvm::StringMap<Value> offsets;
  Value needed = lb.layOutWorkspace(&offsets);
  lb.checkWorkspaceFits(needed);
  lb.failIf(lb.cmp(P::slt, workspaceBytes, needed),
            "workspace_bytes is %lld; these sizes need %lld (" + plan.name +
                "_workspace_size)",
            workspaceBytes, needed);
  Value address = LLVM::PtrToIntOp::create(builder, loc, i64, workspace);
  Value misaligned = arith::AndIOp::create(builder, loc, address,
                                           lb.i64(kWorkspaceAlignment - 1));
  lb.failIf(lb.cmp(P::ne, misaligned, lb.i64(0)),
            "workspace is %lld bytes past a multiple of %lld; it must be "
            "aligned to it",
            misaligned, lb.i64(kWorkspaceAlignment));
  lb.failIf(
      arith::AndIOp::create(builder, loc, lb.cmp(P::eq, address, lb.i64(0)),
                            lb.cmp(P::ne, needed, lb.i64(0))),
      "workspace is null; these sizes need %lld bytes", needed, lb.i64(0));
  for (const PlanBuffer &buffer : plan.buffers)
    if (buffer.kind == "workspace")
      pointers[buffer.name] =
          LLVM::GEPOp::create(builder, loc, ptr, builder.getI8Type(), workspace,
                              ValueRange{offsets.lookup(buffer.name)});

  lb.enqueue(stream, pointers);
  Value status =
      func::CallOp::create(builder, loc, kTakeStatus, i32, ValueRange{})
          .getResult(0);
  func::ReturnOp::create(builder, loc, status);
}
