// RUN: sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_89" -split-input-file | FileCheck %s --implicit-check-not=nvvm.cp.async

// cp.async staging as nvgpu's async copies, ordered by their tokens: each
// thread's 16-byte copies of a K/V block close one group, the loop carries
// the group of the block it is about to read, and the wait names it.
// D = 64: K and V^T rows of 64 bytes, 256 chunks each, two a thread; two
// stages of 64 x (64 + 16) bytes each, no sink.
// CHECK-LABEL: gpu.module @d64
//       CHECK: llvm.mlir.global internal @sage_attention_kv() {{.*}} : !llvm.array<20480 x i8>
//       CHECK: gpu.func @sage_attention(%{{[^:]*}}: !llvm.ptr<1>, %{{[^:]*}}: !llvm.ptr<1>, %{{[^:]*}}: !llvm.ptr<1>, %{{[^:]*}}: !llvm.ptr<1>, %[[K_ARG:[^:]*]]: !llvm.ptr<1>, %{{[^:]*}}: !llvm.ptr<1>, %[[V_ARG:[^:]*]]: !llvm.ptr<1>,
//       CHECK:   %[[STAGING:.*]] = llvm.mlir.addressof @sage_attention_kv : !llvm.ptr<3>
// The operands as byte memrefs over the kernel's pointers.
//       CHECK:   llvm.insertvalue %[[STAGING]], %{{.*}}[1] : !llvm.struct<(ptr<3>, ptr<3>, i64, array<1 x i64>, array<1 x i64>)>
//       CHECK:   %[[STAGE_BYTES:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<?xi8, #gpu.address_space<workgroup>>
//       CHECK:   llvm.insertvalue %[[K_ARG]], %{{.*}}[1] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)>
//       CHECK:   %[[K_BYTES:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<?xi8, #gpu.address_space<global>>
//       CHECK:   llvm.insertvalue %[[V_ARG]], %{{.*}}[1] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)>
//       CHECK:   %[[V_BYTES:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<?xi8, #gpu.address_space<global>>
// Block 0 before the loop. A block past the last copies nothing (no source
// byte read, 16 zeros written), so every thread closes a group a block.
//       CHECK:   %[[FIRST_EXISTS:.*]] = arith.cmpi slt, %c0_i32{{[_0-9]*}}, %[[BLOCK_END:[^ ]*]] : i32
//       CHECK:   %[[SOURCE0:.*]] = arith.select %[[FIRST_EXISTS]], %{{.*}}, %[[C0:[^ ]*]] : index
//  CHECK-NEXT:   %[[C16:.*]] = arith.constant 16 : index
//  CHECK-NEXT:   %[[BYTES0:.*]] = arith.select %[[FIRST_EXISTS]], %[[C16]], %[[C0]] : index
//  CHECK-NEXT:   %[[DEST0:.*]] = arith.index_cast
//  CHECK-NEXT:   %[[K0:.*]] = nvgpu.device_async_copy %[[K_BYTES]][%[[SOURCE0]]], %[[STAGE_BYTES]][%[[DEST0]]], 16, %[[BYTES0]] {bypassL1} : memref<?xi8, #gpu.address_space<global>> to memref<?xi8, #gpu.address_space<workgroup>>
//       CHECK:   %[[K1:.*]] = nvgpu.device_async_copy %[[K_BYTES]]
//       CHECK:   %[[V0:.*]] = nvgpu.device_async_copy %[[V_BYTES]]
//       CHECK:   %[[V1:.*]] = nvgpu.device_async_copy %[[V_BYTES]]
//  CHECK-NEXT:   %[[FIRST:.*]] = nvgpu.device_async_create_group %[[K0]], %[[K1]], %[[V0]], %[[V1]]
//       CHECK:   scf.for %[[J:[^ ]*]] = %{{.*}} to %[[BLOCK_END]] step %{{.*}} iter_args({{.*}}, %[[PENDING:[^ ]*]] = %[[FIRST]]) -> ({{.*}}, !nvgpu.device.async.token)
// Block j + 1's copies go out first ...
//       CHECK:     %[[NEXT:.*]] = arith.addi %[[J]], %c1_i32{{[_0-9]*}} : i32
//  CHECK-NEXT:     %[[EXISTS:.*]] = arith.cmpi slt, %[[NEXT]], %[[BLOCK_END]] : i32
//       CHECK:     arith.select %[[EXISTS]], %[[C16]]{{.*}} : index
// CHECK-COUNT-4:   nvgpu.device_async_copy
//  CHECK-NEXT:     %[[GROUP:.*]] = nvgpu.device_async_create_group
// ... then block j's group is waited for, with block j + 1's in flight.
//       CHECK:     nvgpu.device_async_wait %[[PENDING]] {numGroups = 1 : i32}
//  CHECK-NEXT:     gpu.barrier
//       CHECK:     sage.warp_mma
//       CHECK:     scf.yield {{.*}}, %[[GROUP]] : {{.*}}, !nvgpu.device.async.token
func.func @d64(%q: tensor<1x2x?x64xf16>, %k: tensor<1x2x?x64xf16>, %v: tensor<1x2x?x64xf16>) -> tensor<1x2x?x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>) -> tensor<1x2x?x64xf16>
  return %o : tensor<1x2x?x64xf16>
}

// -----

// D = 112: V^T's 112 rows of 64 bytes are 448 chunks, three and a half
// rounds of the 128 threads. In the last round a thread without a chunk
// (chunk >= 448) copies nothing into its own 16 bytes of the sink after
// the two stages of 18176 bytes (2 KiB, one slot a thread: no two threads
// write the same bytes), so the group still closes on the same four V
// copies a thread.
// CHECK-LABEL: gpu.module @d112
//       CHECK: llvm.mlir.global internal @sage_attention_kv() {{.*}} : !llvm.array<38400 x i8>
//       CHECK: gpu.func @sage_attention(
//       CHECK:   %[[TID:.*]] = arith.index_castui %thread_id_x : index to i32
//       CHECK:   %[[EXISTS:.*]] = arith.cmpi slt, %c0_i32{{[_0-9]*}}, %{{.*}} : i32
// CHECK-COUNT-7:   nvgpu.device_async_copy
//       CHECK:   %[[HAS_CHUNK:.*]] = arith.cmpi ult, %[[CHUNK:[^ ]*]], %c448_i32 : i32
//  CHECK-NEXT:   %[[C16_I32:.*]] = arith.constant 16 : i32
//  CHECK-NEXT:   %[[SLOT:.*]] = arith.muli %[[TID]], %[[C16_I32]] : i32
//  CHECK-NEXT:   %[[SINK:.*]] = arith.constant 36352 : i32
//  CHECK-NEXT:   %[[SINK_SLOT:.*]] = arith.addi %[[SINK]], %[[SLOT]] : i32
//  CHECK-NEXT:   %[[DEST:.*]] = arith.select %[[HAS_CHUNK]], %{{.*}}, %[[SINK_SLOT]] : i32
//  CHECK-NEXT:   %[[COPIES:.*]] = arith.andi %[[EXISTS]], %[[HAS_CHUNK]] : i1
//  CHECK-NEXT:   %[[SOURCE_INDEX:.*]] = arith.index_cast %{{.*}} : i64 to index
//  CHECK-NEXT:   %[[C0:.*]] = arith.constant 0 : index
//  CHECK-NEXT:   %[[SOURCE:.*]] = arith.select %[[COPIES]], %[[SOURCE_INDEX]], %[[C0]] : index
//  CHECK-NEXT:   %[[C16:.*]] = arith.constant 16 : index
//  CHECK-NEXT:   %[[BYTES:.*]] = arith.select %[[COPIES]], %[[C16]], %[[C0]] : index
//  CHECK-NEXT:   %[[DEST_INDEX:.*]] = arith.index_cast %[[DEST]] : i32 to index
//  CHECK-NEXT:   %[[LAST:.*]] = nvgpu.device_async_copy %{{.*}}[%[[SOURCE]]], %{{.*}}[%[[DEST_INDEX]]], 16, %[[BYTES]] {bypassL1}
//  CHECK-NEXT:   nvgpu.device_async_create_group {{.*}}, %[[LAST]]{{$}}
func.func @d112(%q: tensor<1x2x?x112xf16>, %k: tensor<1x2x?x112xf16>, %v: tensor<1x2x?x112xf16>) -> tensor<1x2x?x112xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<1x2x?x112xf16>, tensor<1x2x?x112xf16>, tensor<1x2x?x112xf16>) -> tensor<1x2x?x112xf16>
  return %o : tensor<1x2x?x112xf16>
}
