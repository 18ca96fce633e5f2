// The recipes other than 8+8 through the whole of --sage-levels, down to
// PTX that ptxas assembles for their chips (docs/Recipes.md): the
// instructions each kernel issues a K/V block and the PTX ISA version
// sage-attach-nvvm-target derives from them. The GPU programs of
// test/Integration/GPU/levels-recipes.test run those the H200 can (sm_80,
// sm_89 and sm_90a PTX).
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int8-fp16" --sage-levels="chip=sm_80" -o %t.fp16.mlir
// RUN: sage-translate %t.fp16.mlir --sage-export-ptx --sage-kernel-module=attention_kernel -o %t.fp16.ptx
// RUN: FileCheck %s --check-prefix=FP16-PTX < %t.fp16.ptx
// RUN: grep -o 'mma.sync[a-z0-9.]*' %t.fp16.ptx | sort | uniq -c | FileCheck %s --check-prefix=FP16
// RUN: %if ptxas %{ %ptxas -arch=sm_80 %t.fp16.ptx -o %t.fp16.cubin %}
// int8-fp16-f16acc: two f16 flushes a K/V block of 64 keys.
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int8-fp16-f16acc" --sage-levels="chip=sm_80" | sage-translate --sage-export-ptx --sage-kernel-module=attention_kernel -o %t.fp16acc.ptx
// RUN: grep -o 'mma.sync[a-z0-9.]*' %t.fp16acc.ptx | sort | uniq -c | FileCheck %s --check-prefix=FP16ACC
// RUN: %if ptxas %{ %ptxas -arch=sm_80 %t.fp16acc.ptx -o %t.fp16acc.cubin %}
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int8-fp8-f16acc" --sage-levels="chip=sm_89" -o %t.f16acc.mlir
// RUN: sage-translate %t.f16acc.mlir --sage-export-ptx --sage-kernel-module=attention_kernel -o %t.f16acc.ptx
// RUN: FileCheck %s --check-prefix=F16ACC-PTX < %t.f16acc.ptx
// RUN: grep -o 'mma.sync[a-z0-9.]*' %t.f16acc.ptx | sort | uniq -c | FileCheck %s --check-prefix=F16ACC
// RUN: %if ptxas %{ %ptxas -arch=sm_89 %t.f16acc.ptx -o %t.f16acc.cubin %}
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int8-fp8-f16acc" --sage-levels="chip=sm_120a" -o %t.f16acc-120.mlir
// RUN: sage-translate %t.f16acc-120.mlir --sage-export-ptx --sage-kernel-module=attention_kernel -o %t.f16acc-120.ptx
// RUN: FileCheck %s --check-prefix=SM120-PTX < %t.f16acc-120.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_120a %t.f16acc-120.ptx -o %t.f16acc-120.cubin %}
// int4-fp8 (4+8): Q and K stored packed (sage-pack-int4), from the
// statistics and quantizers' kernels (which write the bytes) to the s4 MMA.
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int4-fp8" --sage-levels="chip=sm_89" -o %t.int4.mlir
// RUN: FileCheck %s --check-prefix=INT4-HOST < %t.int4.mlir
// RUN: sage-translate %t.int4.mlir --sage-export-ptx --sage-kernel-module=attention_kernel -o %t.int4.ptx
// RUN: FileCheck %s --check-prefix=INT4-PTX < %t.int4.ptx
// RUN: grep -o 'mma.sync[a-z0-9.]*' %t.int4.ptx | sort | uniq -c | FileCheck %s --check-prefix=INT4
// RUN: %if ptxas %{ %ptxas -arch=sm_89 %t.int4.ptx -o %t.int4.cubin %}
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int4-fp8-f16acc" --sage-levels="chip=sm_89" | sage-translate --sage-export-ptx --sage-kernel-module=attention_kernel -o %t.int4-f16acc.ptx
// RUN: grep -o 'mma.sync[a-z0-9.]*' %t.int4-f16acc.ptx | sort | uniq -c | FileCheck %s --check-prefix=INT4-F16ACC
// RUN: %if ptxas %{ %ptxas -arch=sm_89 %t.int4-f16acc.ptx -o %t.int4-f16acc.cubin %}
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int4-fp8" --sage-levels="chip=sm_90a" | sage-translate --sage-export-ptx --sage-kernel-module=attention_kernel -o %t.int4-90a.ptx
// RUN: grep -oE '(wgmma.)?mma[a-z_]*.sync.aligned.m[0-9a-z.]*' %t.int4-90a.ptx | sort | uniq -c | FileCheck %s --check-prefix=INT4-90A
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.int4-90a.ptx -o %t.int4-90a.cubin %}
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int4-fp8" --sage-levels="chip=sm_120a" | sage-translate --sage-export-ptx --sage-kernel-module=attention_kernel -o %t.int4-120.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_120a %t.int4-120.ptx -o %t.int4-120.cubin %}
// The int8-fp8 kernel at D = 128 for sm_90 gets three CTAs an SM from
// sage-bound-registers; for sm_89, whose SM shares 100 KiB, it does not.
// RUN: sage-opt %S/../Integration/Inputs/levels-attention-d128.mlir --sage-levels="chip=sm_90" | sage-translate --sage-export-ptx --sage-kernel-module=attention_d128_kernel -o %t.d128-sm90.ptx
// RUN: FileCheck %s --check-prefix=SM90-D128 < %t.d128-sm90.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.d128-sm90.ptx -o %t.d128-sm90.cubin %}
// RUN: sage-opt %S/../Integration/Inputs/levels-attention-d128.mlir --sage-levels="chip=sm_89" | sage-translate --sage-export-ptx --sage-kernel-module=attention_d128_kernel -o %t.d128-sm89.ptx
// RUN: FileCheck %s --check-prefix=SM89-D128 < %t.d128-sm89.ptx

// int8-fp16 (sm_80): INT8 Q K^T, f16 P V through m16n8k16 with an f32
// accumulator (32 = 8 N tiles x 4 chunks of 16 keys), PTX ISA 8.4.
// FP16-PTX: .version 8.4
// FP16-PTX: .target sm_80
// FP16: 32 mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// FP16: 16 mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32

// int8-fp16-f16acc (sm_80): f16 P V into f16 accumulators flushed every
// two MMAs of 16 keys, two flushes a block: 8 N tiles x 4 chunks of 16 keys.
// FP16ACC: 32 mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16
// FP16ACC: 16 mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32

// int8-fp8-f16acc (SageAttention2++, sm_89): E4M3 P V into f16
// accumulators, which need PTX ISA 8.7 (LLVM would emit them under 8.4,
// which ptxas refuses).
// F16ACC-PTX: .version 8.7
// F16ACC-PTX: .target sm_89
// F16ACC: 16 mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16
// F16ACC: 16 mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32

// SM120-PTX: .version 8.7
// SM120-PTX: .target sm_120a
// SM120-PTX: mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16

// int4-fp8 (sm_89): each lane's Q row is 64 nibbles, one m16n8k64 a key
// tile of 8 (8 a 64-key block); E4M3 P V as for 8+8. The host function
// quantizes into i8 buffers of D / 2 bytes a token.
// INT4-HOST: func.func @attention
// INT4-HOST: gpu.alloc async {{.*}} : memref<?x1x?x32xi8>
// INT4-HOST: gpu.alloc async {{.*}} : memref<?x1x?x32xi8>
// INT4-PTX: .version 8.4
// INT4-PTX: .target sm_89
// INT4: 16 mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// INT4: 8 mma.sync.aligned.m16n8k64.row.col.satfinite.s32.s4.s4.s32
// INT4-F16ACC: 16 mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16
// INT4-F16ACC: 8 mma.sync.aligned.m16n8k64.row.col.satfinite.s32.s4.s4.s32
// sm_90a: wgmma has no s4, so Q K^T stays on mma.sync; P V is wgmma's.
// INT4-90A: 8 mma.sync.aligned.m16n8k64.row.col.satfinite.s32.s4.s4.s32
// INT4-90A: 2 wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3

// SM90-D128: .target sm_90
// SM90-D128: .entry attention_d128_kernel(
// SM90-D128: .maxntid 128, 1, 1
// SM90-D128-NEXT: .minnctapersm 3
// SM89-D128: .entry attention_d128_kernel(
// SM89-D128: .maxntid 128, 1, 1
// SM89-D128-NOT: .minnctapersm
