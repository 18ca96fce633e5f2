//===- KernelModule.cpp - kernels and their launches ----------------------===//

#include "SageToGPUInternal.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::sage;

KernelFunc KernelModule::addKernel(StringRef name, ArrayRef<KernelParam> params,
                                   int64_t threads,
                                   ArrayRef<int64_t> sharedF32) {
  MLIRContext *ctx = builder.getContext();
  Type ptrType = LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/1);
  SmallVector<Type> argTypes;
  for (const KernelParam &param : params)
    argTypes.push_back(param.isBuffer ? ptrType : builder.getI32Type());
  auto workgroup = gpu::AddressSpaceAttr::get(
      ctx, gpu::GPUDialect::getWorkgroupAddressSpace());
  SmallVector<Type> sharedTypes;
  for (int64_t size : sharedF32)
    sharedTypes.push_back(MemRefType::get(
        {size}, builder.getF32Type(), MemRefLayoutAttrInterface(), workgroup));

  builder.setInsertionPointToEnd(module.getBody());
  auto func = gpu::GPUFuncOp::create(
      builder, loc, name, FunctionType::get(ctx, argTypes, {}), sharedTypes);
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                builder.getUnitAttr());
  func.setKnownBlockSizeAttr(
      builder.getDenseI32ArrayAttr({int32_t(threads), 1, 1}));

  KernelFunc kernel;
  kernel.func = func;
  // The entry block's arguments are the parameters, then the workgroup
  // attributions.
  for (auto [param, arg] :
       llvm::zip_equal(params, func.getArguments().take_front(params.size())))
    kernel.args[param.name] = arg;
  kernel.shared.append(func.getWorkgroupAttributions().begin(),
                       func.getWorkgroupAttributions().end());
  builder.setInsertionPointToStart(&func.getBody().front());
  gpu::ReturnOp::create(builder, loc);
  builder.setInsertionPointToStart(&func.getBody().front());
  return kernel;
}

Value KernelModule::addSharedBytes(KernelBuilder &kb, const KernelFunc &kernel,
                                   StringRef symbol, int64_t bytes) {
  assert(bytes <= 48 * 1024 && "static shared memory is at most 48 KiB");
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(kernel.func);
    LLVM::GlobalOp::create(
        builder, loc, LLVM::LLVMArrayType::get(builder.getI8Type(), bytes),
        /*isConstant=*/false, LLVM::Linkage::Internal, symbol, Attribute(),
        /*alignment=*/16, /*addrSpace=*/3);
  }
  return LLVM::AddressOfOp::create(kb.b, kb.loc, kb.sharedPtrType(), symbol);
}

void KernelModule::addLaunch(StringRef name, ArrayRef<KernelParam> params,
                             std::array<SizeExpr, 3> grid, int64_t threads,
                             int64_t sharedBytes) {
  PlanLaunch launch;
  launch.kernel = name.str();
  launch.grid = grid;
  launch.blockSize = threads;
  launch.sharedBytes = sharedBytes;
  for (const KernelParam &param : params)
    launch.params.push_back({param.isBuffer, param.name});
  plan.launches.push_back(std::move(launch));
}

Value mlir::sage::getChannelOffset(KernelBuilder &kb, Value head, int64_t dim,
                                   Value channel) {
  return kb.toI64(kb.add(kb.mul(head, kb.i32(dim)), channel));
}

Value mlir::sage::loadChannelMean(KernelBuilder &kb, Value sums, Value offset,
                                  Value tokenCount) {
  return kb.divf(kb.loadAsF32(kb.f32Type(), sums, offset), tokenCount);
}

Value mlir::sage::loadValueDelta(KernelBuilder &kb, Value absMax, Value offset,
                                 double vRange) {
  return kb.divf(kb.loadAsF32(kb.f32Type(), absMax, offset), kb.f32(vRange));
}

Value mlir::sage::linearOffset(KernelBuilder &kb, Value outer, Value inner0,
                               Value i0, Value inner1, Value i1) {
  Value row = kb.add(kb.mul(kb.toI64(outer), kb.toI64(inner0)), kb.toI64(i0));
  return kb.add(kb.mul(row, kb.toI64(inner1)), kb.toI64(i1));
}

Value IoLayout::offset(KernelBuilder &kb, Value head, Value heads, Value tokens,
                       Value token, int64_t dim, Value channel) const {
  if (!tokensBeforeHeads)
    return linearOffset(kb, head, tokens, token, kb.i32(dim), channel);
  // ((b * N + t) * H + h) * D + c
  Value batch = kb.divu(head, heads), index = kb.remu(head, heads);
  return linearOffset(kb, kb.add(kb.mul(batch, tokens), token), heads, index,
                      kb.i32(dim), channel);
}
