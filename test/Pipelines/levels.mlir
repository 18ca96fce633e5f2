// RUN: sage-opt %S/../../examples/attention.mlir --sage-levels="chip=sm_89 store-values=0" --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s
// RUN: sage-opt %S/../../examples/attention.mlir --sage-levels="chip=sm_89 block-q=128 block-k=128" --mlir-print-ir-after=convert-sage-to-nvvm -o /dev/null 2>&1 | FileCheck %s --check-prefix=WIDE
// RUN: not sage-opt %S/../../examples/attention.mlir --sage-levels="chip=sm_70" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: sage-opt %S/../../examples/attention.mlir --sage-levels="chip=sm_89 store-values=0" -o %t.levels.mlir
// RUN: sage-translate %t.levels.mlir --sage-export-ptx --sage-kernel-module=attention_kernel -o %t.ptx
// RUN: sage-translate %t.levels.mlir --sage-export-ptx --sage-kernel-module=attention_loops -o %t.loops.ptx
// RUN: FileCheck %s --check-prefix=LOOPS < %t.loops.ptx
// RUN: not grep __nv_ %t.loops.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_89 %t.loops.ptx -o %t.loops.cubin %}
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: grep -o 'mma.sync[a-z0-9.]*' %t.ptx | sort | uniq -c | FileCheck %s --check-prefix=MMAS
// RUN: grep -oE 'ld[a-z0-9.]*shared[a-z0-9.]*' %t.ptx | sort | uniq -c | FileCheck %s --check-prefix=READS
// RUN: %if ptxas %{ %ptxas -arch=sm_89 %t.ptx -o %t.cubin %}
// RUN: sage-opt %S/../Integration/Inputs/levels-attention.mlir --sage-levels="chip=sm_89" | sage-translate --sage-export-ptx --sage-kernel-module=attention_kernel -o %t.stored.ptx
// RUN: grep -oE '(cp.async|fence.proxy|st.shared|ld.shared|ldmatrix)[a-z0-9_.]*' %t.stored.ptx | sort | uniq -c | FileCheck %s --check-prefix=STORED
// RUN: sage-opt %S/../Integration/Inputs/levels-attention-f16.mlir --sage-levels="chip=sm_89" | sage-translate --sage-export-ptx --sage-kernel-module=attention_f16_kernel -o %t.f16-stored.ptx
// RUN: grep -oE '(cp.async|fence.proxy|st.shared|ld.shared|ldmatrix)[a-z0-9_.]*' %t.f16-stored.ptx | sort | uniq -c | FileCheck %s --check-prefix=STORED
// RUN: sage-opt %S/../../examples/attention.mlir --sage-levels="chip=sm_89 stages=2 store-values=0" --mlir-print-ir-after=sage-pipeline-tiles --mlir-print-ir-after=sage-lower-staging -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPE
// RUN: sage-opt %S/../../examples/attention.mlir --sage-levels="chip=sm_89 stages=2 ctas-per-sm=3 store-values=0" | sage-translate --sage-export-ptx --sage-kernel-module=attention_kernel -o %t.pipe.ptx
// RUN: FileCheck %s --check-prefix=PIPE-PTX < %t.pipe.ptx
// RUN: grep -o 'mma.sync[a-z0-9.]*' %t.pipe.ptx | sort | uniq -c | FileCheck %s --check-prefix=MMAS
// RUN: %if ptxas %{ %ptxas -arch=sm_89 %t.pipe.ptx -o %t.pipe.cubin %}
// RUN: sage-opt %S/../Integration/Inputs/levels-attention.mlir --sage-levels="chip=sm_90a mma-scope=warpgroup stages=1" --mlir-print-ir-after=sage-distribute-tiles -o %t.wgmma.mlir 2>&1 | FileCheck %s --check-prefix=WG-IR
// RUN: sage-translate %t.wgmma.mlir --sage-export-ptx --sage-kernel-module=attention_kernel -o %t.wgmma.ptx
// RUN: grep -oE '(wgmma|mma.sync|cp.async|mbarrier|fence|ldmatrix|st.shared|ld.shared)[a-z0-9_.:]*' %t.wgmma.ptx | sort | uniq -c | FileCheck %s --check-prefix=WGMMA
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.wgmma.ptx -o %t.wgmma.cubin %}
// RUN: sage-opt %S/../Integration/Inputs/levels-attention.mlir --sage-levels="chip=sm_90a mma-scope=warpgroup stages=2" --mlir-print-ir-after=sage-pipeline-tiles -o %t.wgmma-pipe.mlir 2>&1 | FileCheck %s --check-prefix=WG-PIPE
// RUN: sage-translate %t.wgmma-pipe.mlir --sage-export-ptx --sage-kernel-module=attention_kernel -o %t.wgmma-pipe.ptx
// RUN: grep -oE '(wgmma|cp.async|mbarrier|fence|bar.sync)[a-z0-9_.:]*' %t.wgmma-pipe.ptx | sort | uniq -c | FileCheck %s --check-prefix=WG-PIPE-PTX
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.wgmma-pipe.ptx -o %t.wgmma-pipe.cubin %}
// RUN: sage-opt %S/../../examples/attention.mlir --sage-levels="chip=sm_90a" --mlir-print-ir-after=sage-decompose-attention --mlir-print-ir-after=sage-store-stage-order --mlir-print-ir-after=sage-pipeline-tiles -o %t.wgmma-default.mlir 2>&1 | FileCheck %s --check-prefix=WG-DEFAULT
// RUN: sage-translate %t.wgmma-default.mlir --sage-export-ptx --sage-kernel-module=attention_kernel -o %t.wgmma-default.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.wgmma-default.ptx -o %t.wgmma-default.cubin %}

// The README's example through every level of docs/Levels.md, printed
// after each pass: the tiles of sage.qmma / sage.online_softmax /
// sage.accumulate, the instruction each sage.qmma runs, the fragment
// encodings, the lanes' fragment ops, the lanes reading the operands, the
// tiles the CTA shares staged in workgroup memory, the grid bufferized and
// launched, the kernel outlined, the staging split among its threads, NVVM.
// With store-values=0, so that V comes row-major and each CTA transposes
// its V^T tile (the default stores V for the MMA: STORED, below).
//       CHECK: IR Dump After SageRaiseAttention
//       CHECK:   sage.attention
//       CHECK: IR Dump After SageDecomposeAttention
//       CHECK:   sage.quantized_attention
//       CHECK: IR Dump After SageLowerQuantizers
//   CHECK-NOT:   sage.smooth
//       CHECK:   linalg.generic {{.*}} outs({{.*}} : tensor<?x1x1x64xf64>)
//       CHECK:   math.roundeven
//       CHECK:   arith.truncf {{.*}} : f32 to f8E4M3FN
//       CHECK:   sage.quantized_attention
//       CHECK: IR Dump After SageTileAttention
//       CHECK:   scf.forall
//       CHECK:     scf.for
//       CHECK:       sage.qmma {{.*}} : tensor<64x64xi8>, {{.*}} -> tensor<64x64xf32>
//       CHECK:       sage.online_softmax {{.*}} : tensor<64x64xf32>, tensor<64xf32>
//       CHECK:       sage.accumulate {{.*}} : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xf32>
//       CHECK: IR Dump After SageSelectMma
//       CHECK:   sage.qmma {{.*}}mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8
//       CHECK: IR Dump After SageAssignFragments
//       CHECK:   sage.online_softmax {{.*}} : tensor<64x64xf32, #acc_fragment{{.*}}>, tensor<64xf32, #row_fragment>
//       CHECK: IR Dump After SageDistributeTiles
//       CHECK:   tensor.pad
//       CHECK:   linalg.matvec
//       CHECK:   sage.warp_mma {{.*}} : vector<16xi8>, vector<8xi8> -> vector<4xi32>
//       CHECK:   sage.online_softmax {{.*}} : vector<32xf32>, vector<2xf32>
//       CHECK:   linalg.transpose
//       CHECK:   sage.accumulate {{.*}} : vector<32xf32>, vector<2xf32> -> vector<32xf32>
//       CHECK:   sage.from_lanes
//       CHECK: IR Dump After SagePromoteTiles
//       CHECK:   %[[QBUF:.*]] = bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<64x64xi8>
//       CHECK:   sage.stage_tile {{.*}} pad({{.*}}) into %[[QBUF]] : tensor<?x64xi8> into tensor<64x64xi8> -> tensor<64x64xi8>
//       CHECK:   scf.for
//       CHECK:     sage.stage_tile {{.*}} : tensor<?x64xi8> into tensor<64x64xi8> -> tensor<64x64xi8>
//       CHECK:     sage.stage_tile {{.*}} : tensor<?x64xf8E4M3FN> into tensor<64x64xf8E4M3FN> -> tensor<64x64xf8E4M3FN>
//       CHECK:     bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<64xf32>
//       CHECK:     linalg.matvec {{.*}} outs({{.*}} : tensor<?xf32>)
//       CHECK:     sage.warp_mma
//       CHECK: IR Dump After SageFoldLaneReads
//       CHECK:   scf.forall
//   CHECK-NOT:   tensor.pad
//   CHECK-NOT:   linalg.transpose
//       CHECK:   linalg.matvec
//       CHECK: IR Dump After OneShotBufferize
//       CHECK:   linalg.generic {{.*}} outs({{.*}} : memref<?x1x?x64xi8>)
//       CHECK:   scf.forall
//       CHECK:     memref.alloc() {{.*}} : memref<64x64xi8, #gpu.address_space<workgroup>>
//       CHECK:     sage.stage_tile {{.*}} : memref<?x64xi8, {{.*}}> into memref<64x64xi8, #gpu.address_space<workgroup>>
//       CHECK:     memref.copy
//       CHECK: IR Dump After SageLaunchGrid
//       CHECK:   gpu.launch blocks({{.*}}) in ({{.*}}) threads({{.*}}) in (%{{[a-z0-9]+}} = %c128{{.*}})
// CHECK-COUNT-16:   vector.transfer_write {{.*}} : vector<1x2xf16>
//       CHECK: IR Dump After SageLaunchLoops
//       CHECK:   gpu.launch {{.*}} threads({{.*}}) in (%{{[a-z0-9]+}} = %c256{{.*}}) module(@attention_loops) function(@loop_0)
//       CHECK: IR Dump After SageDeviceAllocations
//       CHECK:   gpu.alloc async
//       CHECK:   gpu.dealloc async
//       CHECK: IR Dump After GpuKernelOutliningPass
//       CHECK:   gpu.launch_func @attention_loops::@loop_0
//       CHECK:   gpu.launch_func @attention_kernel::@attention_kernel
//       CHECK:   gpu.module @attention_loops
//       CHECK:   gpu.func @attention_kernel({{.*}}) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
//       CHECK: IR Dump After SageAttachNVVMTarget
//       CHECK:   gpu.module @attention_loops [#nvvm.target<O = 3, chip = "sm_89", features = "+ptx84">]
//       CHECK:   gpu.module @attention_kernel [#nvvm.target<O = 3, chip = "sm_89", features = "+ptx84">]
//       CHECK: IR Dump After SageLowerStaging
//       CHECK:   gpu.func @attention_kernel({{.*}}) workgroup(%{{.*}} : memref<64x80xi8, #gpu.address_space<workgroup>> {llvm.align = 16 : i64},
//       CHECK:     nvgpu.device_async_copy {{.*}}, 16, %{{.*}} {bypassL1}
//       CHECK:     nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
//       CHECK:     gpu.barrier
//       CHECK:     scf.for
//       CHECK:       nvgpu.device_async_copy
//   CHECK-NOT:   sage.stage_tile
//       CHECK: IR Dump After ConvertSageToNVVM
//       CHECK:   nvvm.mma.sync
//       CHECK:   llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e4m3.f32"
//       CHECK: IR Dump After GpuModuleToBinaryPass
//       CHECK:   gpu.binary @attention_kernel

// The statistics and quantizers' kernels (sage-lower-quantizers, then
// sage-launch-loops): f64 sums divided in f64, magnitudes and their NaN-
// keeping maxima, IEEE divisions by the scales, integers rounded half to
// even, E4M3 by the saturating cvt; no libdevice calls.
//      LOOPS: .visible .entry loop_0(
//  LOOPS-DAG: add.rn.f64
//  LOOPS-DAG: div.rn.f64
//  LOOPS-DAG: abs.f32
//  LOOPS-DAG: max.NaN.f32
//  LOOPS-DAG: div.rn.f32
//  LOOPS-DAG: cvt.rni.f32.f32
//  LOOPS-DAG: cvt.rn.satfinite.e4m3x2.f32

// The kernel, as PTX. Per K/V block, 2 x 8 Q K^T MMAs (two 32-feature
// chunks, eight 8-key tiles) and 2 x 8 P V MMAs a warp; 128 threads.
//       PTX: .visible .entry attention_kernel(
//       PTX: .maxntid 128, 1, 1
// Q and K staged in workgroup memory by 16-byte asynchronous copies,
// zero-filled past the window (src-size), V^T by word loads and stores
// (P's key order), in 64 x 64-byte tiles whose rows are padded to 80
// bytes; dS there too. The warps read their MMA registers of Q, K and V^T
// with ldmatrix (x4: Q's two 32-feature chunks, then per block eight
// 8-key tiles of K, eight 8-channel tiles of V^T); the only other shared
// loads are dS's pairs.
//   PTX-DAG: .shared .align 16 .b8 {{.*}}[5120];
//   PTX-DAG: .shared .align 16 .b8 {{.*}}[256];
//       PTX: cp.async.cg.shared.global [%{{.*}}], [%{{.*}}], 16, %{{.*}};
//       PTX: cp.async.commit_group;
//       PTX: cp.async.wait_group 0;
//       PTX: bar.sync 0;
//   PTX-NOT: ld.shared.{{[us]}}8
//   PTX-NOT: ld.shared.b8
//      READS: {{^ *}}8 ld.shared.v2.b32
// READS-NEXT: {{^ *}}18 ldmatrix.sync.aligned.m8n8.x4.shared.b16
//  READS-NOT: ld
// V stored for the P V MMA (v_layout, the kernel sage-check-levels runs):
// Q's two 16-byte copies a thread before the loop, K's two and V's two a
// block; V^T's fragments by ldmatrix from the copied tile, with none of
// the transposed word stores above (one st.shared is dS's). From f16 by
// default (store-values), V's quantizer writes that form: the same counts.
//      STORED: {{^ *}}6 cp.async.cg.shared.global
// STORED-NEXT: {{^ *}}2 cp.async.commit_group
// STORED-NEXT: {{^ *}}2 cp.async.wait_group
// STORED-NEXT: {{^ *}}8 ld.shared.v2.b32
// STORED-NEXT: {{^ *}}18 ldmatrix.sync.aligned.m8n8.x4.shared.b16
// STORED-NEXT: {{^ *}}1 st.shared.b32
//  STORED-NOT: {{.}}
// The wgmma rows (chip=sm_90a mma-scope=warpgroup, V stored): each
// sage.qmma is one warpgroup's chain of two k32 wgmmas on descriptors of
// core-matrix tiles (P V's A from registers), fenced, committed and
// waited for; Q, K and V^T stored in stage order arrive by one bulk copy
// each, completing on the staging mbarrier every thread arrives on and
// waits for; no mma.sync, no ldmatrix (dS's reads and store stay).
//      WG-IR: IR Dump After SageDistributeTiles
//      WG-IR:   sage.tile_descriptor {{.*}} : tensor<4x64x16xi8> -> i64
//      WG-IR:   sage.warpgroup_mma {{.*}} {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = i8, a_source = shared{{.*}}>} : i64 -> vector<32xi32>
//      WG-IR:   sage.warpgroup_commit
//      WG-IR:   sage.warpgroup_wait 0
//      WG-IR:   sage.online_softmax
//      WG-IR:   sage.warpgroup_fence({{.*}} : vector<16xf8E4M3FN>, vector<16xf8E4M3FN>)
//      WG-IR:   sage.warpgroup_mma {{.*}} {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = f8E4M3FN, a_source = registers{{.*}}>} : vector<16xf8E4M3FN> -> vector<32xf32>
//      WGMMA: {{^ *}}3 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
// WGMMA-NEXT: {{^ *}}1 fence.mbarrier_init.release.cluster
// WGMMA-NEXT: {{^ *}}2 fence.proxy.async.shared::cta
// WGMMA-NEXT: {{^ *}}8 ld.shared.v2.b32
// WGMMA-NEXT: {{^ *}}2 mbarrier.arrive.expect_tx.shared.b64
// WGMMA-NEXT: {{^ *}}2 mbarrier.arrive.shared.b64
// WGMMA-NEXT: {{^ *}}1 mbarrier.init.shared.b64
// WGMMA-NEXT: {{^ *}}2 mbarrier.try_wait.shared::cta.b64
// WGMMA-NEXT: {{^ *}}1 st.shared.b32
// WGMMA-NEXT: {{^ *}}2 wgmma.commit_group.sync.aligned
// WGMMA-NEXT: {{^ *}}2 wgmma.fence.sync.aligned
// WGMMA-NEXT: {{^ *}}2 wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// WGMMA-NEXT: {{^ *}}2 wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8
// WGMMA-NEXT: {{^ *}}2 wgmma.wait_group.sync.aligned
//  WGMMA-NOT: {{.}}
// Two stages of the wgmma kernel (stages=2): the wgmma ops read the
// stages through descriptors and write only their queue, so the
// pipeline sees past them; block j + 1's cp.async into the other stage of
// each core-matrix tile goes out before block j's wgmmas, and its wait is
// published to the async proxy before the barrier.
//       WG-PIPE: IR Dump After SagePipelineTiles
//       WG-PIPE:   memref.alloc() {{.*}} : memref<2x4x64x16xi8, #gpu.address_space<workgroup>>
//       WG-PIPE:   memref.alloc() {{.*}} : memref<2x4x64x16xf8E4M3FN, #gpu.address_space<workgroup>>
//       WG-PIPE:   scf.for
//       WG-PIPE:     %[[NEXT:.*]] = sage.stage_async {
//       WG-PIPE:     sage.warpgroup_mma
//       WG-PIPE:     sage.warpgroup_wait 0
//       WG-PIPE:     sage.warpgroup_mma
//       WG-PIPE:     sage.warpgroup_wait 0
//       WG-PIPE:     sage.stage_await %[[NEXT]]
//  WG-PIPE-NEXT:     scf.yield
//      WG-PIPE-PTX: {{^ *}}5 bar.sync
// WG-PIPE-PTX-NEXT: {{^ *}}5 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
// WG-PIPE-PTX-NEXT: {{^ *}}1 fence.mbarrier_init.release.cluster
// WG-PIPE-PTX-NEXT: {{^ *}}3 fence.proxy.async.shared::cta
// WG-PIPE-PTX-NEXT: {{^ *}}3 mbarrier.arrive.expect_tx.shared.b64
// WG-PIPE-PTX-NEXT: {{^ *}}3 mbarrier.arrive.shared.b64
// WG-PIPE-PTX-NEXT: {{^ *}}1 mbarrier.init.shared.b64
// WG-PIPE-PTX-NEXT: {{^ *}}3 mbarrier.try_wait.shared::cta.b64
// WG-PIPE-PTX-NEXT: {{^ *}}2 wgmma.commit_group.sync.aligned
// WG-PIPE-PTX-NEXT: {{^ *}}2 wgmma.fence.sync.aligned
// WG-PIPE-PTX-NEXT: {{^ *}}2 wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// WG-PIPE-PTX-NEXT: {{^ *}}2 wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8
// WG-PIPE-PTX-NEXT: {{^ *}}2 wgmma.wait_group.sync.aligned
//  WG-PIPE-PTX-NOT: {{.}}
// sm_90a's defaults (mma-scope=auto: wgmma; block-q 0: 128; stages 0:
// 2): sage.attention decomposed into Q groups of 128 tokens and V stored
// for the P V MMA, a CTA of two warpgroups, block j + 1 staged while
// block j's wgmmas run.
//      WG-DEFAULT: IR Dump After SageDecomposeAttention
//      WG-DEFAULT:   sage.quantized_attention {{.*}}q_quant = #sage.quant<i8, per_thread, operand = a, block = 128, warp = 16>{{.*}}v_layout = #sage.mma_ordered<along = tokens, k = 32, order = accumulator>
// Q, K and V^T stored before the grid in the order their stages hold them
// (a tile's core matrices after each other), each stage a plain copy.
//      WG-DEFAULT: IR Dump After SageStoreStageOrder
//      WG-DEFAULT:   %[[Q_STORED:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<?x1x?x4x128x16xi8>)
//      WG-DEFAULT:   %[[K_STORED:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<?x1x?x4x64x16xi8>)
//      WG-DEFAULT:   %[[V_STORED:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<?x1x?x4x64x16xf8E4M3FN>)
//      WG-DEFAULT:   scf.forall
//      WG-DEFAULT:     %[[Q_TILE:.*]] = tensor.extract_slice %[[Q_STORED]]
//      WG-DEFAULT:     sage.stage_tile %[[Q_TILE]] pad({{.*}}) into %{{.*}} : tensor<4x128x16xi8> into
//      WG-DEFAULT:     scf.for
//      WG-DEFAULT:       %[[K_TILE:.*]] = tensor.extract_slice %[[K_STORED]]
//      WG-DEFAULT:       sage.stage_tile %[[K_TILE]] pad({{.*}}) into %{{.*}} : tensor<4x64x16xi8> into
//      WG-DEFAULT:       %[[V_TILE:.*]] = tensor.extract_slice %[[V_STORED]]
//      WG-DEFAULT:       sage.stage_tile %[[V_TILE]] pad({{.*}}) into %{{.*}} : tensor<4x64x16xf8E4M3FN> into
//      WG-DEFAULT: IR Dump After SagePipelineTiles
//      WG-DEFAULT:   gpu.func @attention_kernel({{.*}}known_block_size = array<i32: 256, 1, 1>
//      WG-DEFAULT:     scf.for
//      WG-DEFAULT:       sage.stage_async {
//      WG-DEFAULT:       sage.warpgroup_mma
//      WG-DEFAULT:       sage.stage_await
//  WG-DEFAULT-NEXT:       scf.yield
//       MMAS: {{^ *}}16 mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
//  MMAS-NEXT: {{^ *}}16 mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
//   MMAS-NOT: mma.sync

// Two stages (stages=2): block 0 staged before the K/V loop, block j + 1
// issued as a group at the top of iteration j and awaited at its end,
// into the other stage of each tile; one barrier a block. With
// ctas-per-sm, the kernel asks ptxas for that many CTAs an SM.
//       PIPE: IR Dump After SagePipelineTiles
//       PIPE:   memref.alloc() {{.*}} : memref<2x64x64xi8, #gpu.address_space<workgroup>>
//       PIPE:   scf.if
//       PIPE:     %[[FIRST:.*]] = sage.stage_async {
//       PIPE:     sage.stage_await %[[FIRST]]
//       PIPE:   scf.for
//       PIPE:     %[[NEXT:.*]] = sage.stage_async {
//       PIPE:     sage.warp_mma
//       PIPE:     sage.stage_await %[[NEXT]]
//       PIPE: IR Dump After SageLowerStaging
//       PIPE:   gpu.func @attention_kernel({{.*}}) workgroup(%{{.*}} : memref<64x80xi8, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<2x64x80xi8, #gpu.address_space<workgroup>> {llvm.align = 16 : i64},
//       PIPE:     scf.for
//   PIPE-NOT:       gpu.barrier
//       PIPE:       nvgpu.device_async_copy
//       PIPE:       sage.warp_mma
//       PIPE:       nvgpu.device_async_wait
//       PIPE:       gpu.barrier
//  PIPE-NEXT:       scf.yield
//   PIPE-NOT:   sage.stage
//       PIPE-PTX: .visible .entry attention_kernel(
//       PIPE-PTX: .maxntid 128, 1, 1
//       PIPE-PTX: .minnctapersm 3
//   PIPE-PTX-DAG: .shared .align 16 .b8 {{.*}}[5120];
//   PIPE-PTX-DAG: .shared .align 16 .b8 {{.*}}[10240];
//   PIPE-PTX-DAG: .shared .align 16 .b8 {{.*}}[10240];
//   PIPE-PTX-DAG: .shared .align 16 .b8 {{.*}}[512];

// Tiles of 128 queries and 128 keys: 8 warps of 16 rows, each lane with
// the same 32 output accumulators and 16 x 2 Q K^T MMAs a block.
//       WIDE: scf.for {{.*}} -> (vector<32xf32>, vector<2xf32>, vector<2xf32>)
// WIDE-COUNT-32: nvvm.mma.sync
//   WIDE-NOT: nvvm.mma.sync
//       WIDE: scf.yield

// A chip without these MMAs is refused at the instruction choice.
// CHIP: error: 'sage.qmma' op has no MMA instruction on sm_70
