// RUN: sage-opt %s --sage-raise-attention --sage-to-llvm="chip=sm_90a" -o %t.mlir
// RUN: FileCheck %s --check-prefix=DIALECT < %t.mlir
// RUN: sage-translate --mlir-to-llvmir %t.mlir | FileCheck %s
// RUN: sage-translate --sage-export-header %t.mlir | FileCheck %s --check-prefix=HEADER

// --sage-to-llvm: the launchers in the LLVM dialect, the gpu.launch_func
// ops kept with their stream; LLVM IR in which each launch runs on the
// caller's stream (the launcher's first argument) and the kernels' PTX
// is embedded and loaded by a constructor (docs/Launchers.md).
//       DIALECT: gpu.binary @attention
// DIALECT-LABEL: llvm.func @attention_launch(
//  DIALECT-SAME:   %[[STREAM:[^:]+]]: !llvm.ptr {sage.c_name = "stream"
//       DIALECT:   gpu.launch_func <%[[STREAM]] : !llvm.ptr> @attention::@sage_attention

// CHECK: @attention_binary = internal constant {{.*}}.target sm_90a
// CHECK: @llvm.global_ctors = appending global {{.*}} ptr @attention_load
// CHECK-LABEL: define i64 @attention_workspace_size(i64 %0, i64 %1, i64 %2)
// CHECK-LABEL: define i32 @attention_launch(ptr %0,
//       CHECK:   call ptr @mgpuModuleGetFunction(ptr %{{.*}}, ptr @attention_sage_attention_name)
//       CHECK:   call void @mgpuLaunchKernel(ptr %{{.*}}, i32 0, ptr %0, ptr %{{.*}}, ptr null, i64 {{[0-9]+}})
//       CHECK:   call i32 @sageLauncherTakeStatus()
// CHECK-LABEL: define internal void @attention_load()
//       CHECK:   call ptr @mgpuModuleLoadJIT(ptr @attention_binary

// HEADER: int64_t attention_workspace_size(int64_t B, int64_t Nq, int64_t Nk);
// HEADER: int32_t attention_launch(CUstream stream, const void *q, const int64_t *q_strides,

#map_q = affine_map<(b, m, n, k) -> (b, m, k)>
#map_k = affine_map<(b, m, n, k) -> (b, n, k)>
#map_s = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(b, m, n) -> (b, m, n)>

func.func @attention(%q: tensor<?x?x64xf16>, %k: tensor<?x?x64xf16>,
                     %v: tensor<?x?x64xf16>) -> tensor<?x?x64xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %bh = tensor.dim %q, %c0 : tensor<?x?x64xf16>
  %nq = tensor.dim %q, %c1 : tensor<?x?x64xf16>
  %nk = tensor.dim %k, %c1 : tensor<?x?x64xf16>

  // S = Q K^T, accumulated in f32; K is transposed by the indexing maps.
  %s_empty = tensor.empty(%bh, %nq, %nk) : tensor<?x?x?xf32>
  %s_init = linalg.fill ins(%zero : f32) outs(%s_empty : tensor<?x?x?xf32>)
      -> tensor<?x?x?xf32>
  %s = linalg.batch_matmul indexing_maps = [#map_q, #map_k, #map_s]
      ins(%q, %k : tensor<?x?x64xf16>, tensor<?x?x64xf16>)
      outs(%s_init : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>

  // S = S / sqrt(D)
  %scaled = linalg.generic {indexing_maps = [#id, #id],
                            iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<?x?x?xf32>) outs(%s_empty : tensor<?x?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %scale : f32
    linalg.yield %m : f32
  } -> tensor<?x?x?xf32>

  // P = softmax over the keys, back to f16 for the second product.
  %p = linalg.softmax dimension(2) ins(%scaled : tensor<?x?x?xf32>)
      outs(%s_empty : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %p16_empty = tensor.empty(%bh, %nq, %nk) : tensor<?x?x?xf16>
  %p16 = linalg.generic {indexing_maps = [#id, #id],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p : tensor<?x?x?xf32>) outs(%p16_empty : tensor<?x?x?xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<?x?x?xf16>

  // O = P V
  %o_empty = tensor.empty(%bh, %nq) : tensor<?x?x64xf16>
  %zero16 = arith.constant 0.0 : f16
  %o_init = linalg.fill ins(%zero16 : f16) outs(%o_empty : tensor<?x?x64xf16>)
      -> tensor<?x?x64xf16>
  %o = linalg.batch_matmul ins(%p16, %v : tensor<?x?x?xf16>, tensor<?x?x64xf16>)
      outs(%o_init : tensor<?x?x64xf16>) -> tensor<?x?x64xf16>
  return %o : tensor<?x?x64xf16>
}
