// RUN: sage-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: sage-opt %s -split-input-file -verify-diagnostics --mlir-print-op-generic | sage-opt -split-input-file | FileCheck %s

// A ring of shared-memory stages and its mbarriers (docs/Levels.md, L4):
// the copier initializes, acquires a stage, arms its full barrier; the
// readers wait on it and release the stage.
// CHECK-LABEL: func @ring
//  CHECK-SAME: (%[[BASE:.*]]: !llvm.ptr<3>, %[[OFFSET:.*]]: i32, %[[J:.*]]: i32)
//       CHECK:   %[[RING:.*]] = sage.stage_ring %[[BASE]][%[[OFFSET]]] : !sage.stage_ring<stages = 3, consumers = 256>
//       CHECK:   sage.stage_ring_init %[[RING]] : !sage.stage_ring<stages = 3, consumers = 256>
//       CHECK:   sage.stage_ring_acquire %[[RING]][%[[J]]] : !sage.stage_ring<stages = 3, consumers = 256>
//       CHECK:   %{{.*}} = sage.stage_ring_arm %[[RING]][%[[J]]], 16384 : !sage.stage_ring<stages = 3, consumers = 256>
//       CHECK:   sage.stage_ring_wait %[[RING]][%[[J]]] : !sage.stage_ring<stages = 3, consumers = 256>
//       CHECK:   sage.stage_ring_release %[[RING]][%[[J]]] : !sage.stage_ring<stages = 3, consumers = 256>
// Without consumers the type prints no count.
//       CHECK:   sage.stage_ring %[[BASE]][%[[OFFSET]]] : !sage.stage_ring<stages = 1>
func.func @ring(%base: !llvm.ptr<3>, %offset: i32, %j: i32) -> !llvm.ptr<3> {
  %ring = sage.stage_ring %base[%offset] : !sage.stage_ring<stages = 3, consumers = 256>
  sage.stage_ring_init %ring : !sage.stage_ring<stages = 3, consumers = 256>
  sage.stage_ring_acquire %ring[%j] : !sage.stage_ring<stages = 3, consumers = 256>
  %bar = sage.stage_ring_arm %ring[%j], 16384 : !sage.stage_ring<stages = 3, consumers = 256>
  sage.stage_ring_wait %ring[%j] : !sage.stage_ring<stages = 3, consumers = 256>
  sage.stage_ring_release %ring[%j] : !sage.stage_ring<stages = 3, consumers = 256>
  %one = sage.stage_ring %base[%offset] : !sage.stage_ring<stages = 1>
  sage.stage_ring_wait %one[%j] : !sage.stage_ring<stages = 1>
  return %bar : !llvm.ptr<3>
}

// -----

func.func @negative_unaligned_offset(%base: !llvm.ptr<3>) {
  %c = arith.constant 20 : i32
  // expected-error @+1 {{'sage.stage_ring' op mbarriers are 8-byte words; offset 20 is not a multiple of 8}}
  %ring = sage.stage_ring %base[%c] : !sage.stage_ring<stages = 2>
  return
}

// -----

func.func @negative_no_stages(%base: !llvm.ptr<3>, %offset: i32) {
  // expected-error @+1 {{a stage ring needs at least one stage; got 0}}
  %ring = sage.stage_ring %base[%offset] : !sage.stage_ring<stages = 0>
  return
}

// -----

func.func @negative_consumers(%base: !llvm.ptr<3>, %offset: i32) {
  // expected-error @+1 {{a stage ring's consumers are a thread count; got -1}}
  %ring = sage.stage_ring %base[%offset] : !sage.stage_ring<stages = 2, consumers = -1>
  return
}

// -----

// Readers that release on a CTA barrier have no empty barriers to arrive
// on or to wait for.
func.func @negative_release_without_consumers(%base: !llvm.ptr<3>, %offset: i32, %j: i32) {
  %ring = sage.stage_ring %base[%offset] : !sage.stage_ring<stages = 2>
  // expected-error @+1 {{'sage.stage_ring_release' op needs the stages' empty barriers; '!sage.stage_ring<stages = 2>' has no consumers}}
  sage.stage_ring_release %ring[%j] : !sage.stage_ring<stages = 2>
  return
}

// -----

func.func @negative_acquire_without_consumers(%base: !llvm.ptr<3>, %offset: i32, %j: i32) {
  %ring = sage.stage_ring %base[%offset] : !sage.stage_ring<stages = 2>
  // expected-error @+1 {{'sage.stage_ring_acquire' op needs the stages' empty barriers; '!sage.stage_ring<stages = 2>' has no consumers}}
  sage.stage_ring_acquire %ring[%j] : !sage.stage_ring<stages = 2>
  return
}

// -----

// The lowering finds the barriers' offsets at the ring's sage.stage_ring:
// a ring passed in is refused.
func.func @negative_ring_argument(%ring: !sage.stage_ring<stages = 2>, %j: i32) {
  // expected-error @+1 {{'sage.stage_ring_wait' op expected the ring of a sage.stage_ring, not one passed through a block argument}}
  sage.stage_ring_wait %ring[%j] : !sage.stage_ring<stages = 2>
  return
}

// -----

// The barriers are in shared memory (the custom form types the base
// !llvm.ptr<3>; the generic one can give another).
func.func @negative_private_pointer(%base: !llvm.ptr, %offset: i32) {
  // expected-error @+1 {{'sage.stage_ring' op operand #0 must be LLVM pointer in address space 3}}
  %ring = "sage.stage_ring"(%base, %offset) : (!llvm.ptr, i32) -> !sage.stage_ring<stages = 2>
  return
}
