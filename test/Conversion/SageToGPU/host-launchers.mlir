// RUN: sage-opt %s --sage-decompose-attention --convert-sage-to-gpu="chip=sm_90" -split-input-file | FileCheck %s

// The host side of an attention as IR (docs/Launchers.md): a workspace
// size, a launcher that checks its arguments, zeroes the accumulated
// workspaces and launches every kernel on the caller's stream, and the
// last error. GQA, a mask broadcast over heads and an LSE output.
// CHECK-DAG: llvm.mlir.global private constant @gqa_masked_lse_launch_message_{{[0-9]+}}("gqa_masked_lse_launch: H is %lld, not a multiple of Hkv = %lld\00")
// CHECK-DAG: llvm.mlir.global private constant @gqa_masked_lse_launch_message_{{[0-9]+}}("gqa_masked_lse_launch: q_strides[2] is %lld; the kernels read q dense in the order [B, H, Nq, 64], stride %lld there\00")
// CHECK-DAG: llvm.mlir.global private constant @gqa_masked_lse_workspace_size_message_{{[0-9]+}}("gqa_masked_lse_workspace_size: Hkv is %lld; it must be at most H (or 1 when H is 0), %lld\00")
// CHECK-DAG: llvm.mlir.global private constant @gqa_masked_lse_launch_message_{{[0-9]+}}("gqa_masked_lse_launch: q is %lld bytes past a multiple of %lld; the kernels need it aligned to that\00")
// CHECK-DAG: llvm.mlir.global private constant @gqa_masked_lse_launch_message_{{[0-9]+}}("gqa_masked_lse_launch: workspace_bytes is %lld; these sizes need %lld (gqa_masked_lse_workspace_size)\00")
// CHECK-LABEL: func.func @gqa_masked_lse_workspace_size(
//  CHECK-SAME:   %{{.*}}: i64 {sage.c_name = "B", sage.c_type = "int64_t"}, %{{.*}}: i64 {sage.c_name = "H", {{.*}}}, %{{.*}}: i64 {sage.c_name = "Hkv", {{.*}}}, %{{.*}}: i64 {sage.c_name = "Nq", {{.*}}}, %{{.*}}: i64 {sage.c_name = "Nk", {{.*}}}) -> i64 attributes {sage.launcher}
//       CHECK:   call @sageLauncherFail(%{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, i64, i64) -> i32
//  CHECK-NEXT:   %[[FAILED:.*]] = arith.constant -1 : i64
//  CHECK-NEXT:   return %[[FAILED]] : i64
//       CHECK:   %[[ALIGN:.*]] = arith.constant -256 : i64
//       CHECK:   arith.andi %{{.*}}, %[[ALIGN]] : i64
//       CHECK:   return %{{.*}} : i64
// CHECK-LABEL: func.func @gqa_masked_lse_last_error() -> !llvm.ptr attributes {sage.c_result = "const char *", sage.launcher}
//       CHECK:   %[[MESSAGE:.*]] = call @sageLauncherLastError() : () -> !llvm.ptr
//       CHECK:   return %[[MESSAGE]]
// CHECK-LABEL: func.func @gqa_masked_lse_launch(
//  CHECK-SAME:   %[[STREAM:[^:]+]]: !llvm.ptr {sage.c_name = "stream", sage.c_type = "CUstream"}
//  CHECK-SAME:   {sage.c_name = "q", sage.c_type = "const void *"}, %{{.*}}: !llvm.ptr {sage.c_name = "q_strides", sage.c_type = "const int64_t *"}
//  CHECK-SAME:   {sage.c_name = "mask", sage.c_type = "const void *"}
//  CHECK-SAME:   {sage.c_name = "o", sage.c_type = "void *"}
//  CHECK-SAME:   {sage.c_name = "lse", sage.c_type = "void *"}
//  CHECK-SAME:   {sage.c_name = "workspace", sage.c_type = "void *"}, %[[BYTES:[^:]+]]: i64 {sage.c_name = "workspace_bytes"
//  CHECK-SAME:   %[[B:[^:]+]]: i64 {sage.c_name = "B", {{.*}}}, %[[H:[^:]+]]: i64 {sage.c_name = "H", {{.*}}}, %[[HKV:[^:]+]]: i64 {sage.c_name = "Hkv", {{.*}}}, %[[NQ:[^:]+]]: i64 {sage.c_name = "Nq", {{.*}}}, %[[NK:[^:]+]]: i64 {sage.c_name = "Nk", {{.*}}}) -> i32
//  CHECK-SAME:   attributes {sage.c_doc = "q: [B, H, Nq, 64] f16\0Ak: [B, Hkv, Nk, 64] f16\0Av: [B, Hkv, Nk, 64] f16\0Amask: [B, 1, Nq, Nk] i1\0Ao: [B, H, Nq, 64] f16\0Alse: [B, H, Nq] f32\0Arecipe int8-fp8 for sm_90, scale 0.125", sage.launcher}
//       CHECK:   %[[NEG:.*]] = arith.cmpi slt, %[[B]], %{{.*}} : i64
//  CHECK-NEXT:   cf.cond_br %[[NEG]], ^[[FAIL:.*]], ^
//       CHECK: ^[[FAIL]]:
//  CHECK-NEXT:   %[[TEXT:.*]] = llvm.mlir.addressof @gqa_masked_lse_launch_message_0 : !llvm.ptr
//  CHECK-NEXT:   %[[CODE:.*]] = call @sageLauncherFail(%[[TEXT]], %[[B]], %{{.*}}) : (!llvm.ptr, i64, i64) -> i32
//  CHECK-NEXT:   return %[[CODE]] : i32
//       CHECK:   arith.remui %[[H]], %[[HKV]] : i64
//       CHECK:   arith.cmpi slt, %[[BYTES]], %{{.*}} : i64
//       CHECK:   scf.if
//  CHECK-NEXT:     func.call @sageLauncherMemsetZero(%{{.*}}, %{{.*}}, %[[STREAM]])
//       CHECK:   gpu.launch_func <%[[STREAM]] : !llvm.ptr> @gqa_masked_lse::@sage_sum_tokens_d64 blocks in (%{{.*}}, %[[HKV]], %[[B]])
//       CHECK:   arith.ceildivui %[[NQ]], %{{.*}} : i64
//       CHECK:   scf.if
//       CHECK:     gpu.launch_func <%[[STREAM]] : !llvm.ptr> @gqa_masked_lse::@sage_attention blocks in (%{{.*}}, %[[H]], %[[B]]) threads in ({{.*}}) : i64 dynamic_shared_memory_size %{{.*}} args(
//       CHECK:   %[[STATUS:.*]] = call @sageLauncherTakeStatus() : () -> i32
//  CHECK-NEXT:   return %[[STATUS]] : i32
func.func @gqa_masked_lse(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>, %m: tensor<?x1x?x?xi1>) -> (tensor<?x?x?x64xf16>, tensor<?x?x?xf32>) {
  %o, %lse = sage.attention %q, %k, %v mask(%m) {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x1x?x?xi1>) -> (tensor<?x?x?x64xf16>, tensor<?x?x?xf32>)
  return %o, %lse : tensor<?x?x?x64xf16>, tensor<?x?x?xf32>
}

// -----

// Rank 3 ([batch, tokens, features]): no heads, so the sizes are B, Nq, Nk.
// CHECK-LABEL: func.func @rank3_launch(
//   CHECK-NOT:   "Hkv"
//  CHECK-SAME:   {sage.c_name = "B", {{.*}}}, %{{.*}}: i64 {sage.c_name = "Nq", {{.*}}}, %{{.*}}: i64 {sage.c_name = "Nk", {{.*}}}) -> i32
func.func @rank3(%q: tensor<?x?x64xf16>, %k: tensor<?x?x64xf16>, %v: tensor<?x?x64xf16>) -> tensor<?x?x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<?x?x64xf16>, tensor<?x?x64xf16>, tensor<?x?x64xf16>) -> tensor<?x?x64xf16>
  return %o : tensor<?x?x64xf16>
}
