// RUN: sage-opt %s --convert-sage-to-nvvm | FileCheck %s --implicit-check-not=sage.

// convert-sage-to-nvvm (L5): the ops on a stage ring become the mbarrier
// instructions of block j's stage j mod stages: its full barrier at the
// ring's offset + 8 (j mod stages), its empty one `stages` barriers on, the
// phase parity (j / stages) & 1 (docs/Levels.md, L4).

// Two stages at byte 64, 256 consumers: full barriers at 64 and 72 (one
// arrival), empty ones at 80 and 88 (256).
// CHECK-LABEL: func @ring
//  CHECK-SAME: (%[[BASE:.*]]: !llvm.ptr<3>, %[[J:.*]]: i32)
//   CHECK-DAG:   %[[BYTES:.*]] = arith.constant 16384 : i32
//   CHECK-DAG:   %[[HINT:.*]] = arith.constant 1000000 : i32
//   CHECK-DAG:   %[[C8:.*]] = arith.constant 8 : i32
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : i32
//   CHECK-DAG:   %[[C256:.*]] = arith.constant 256 : i32
//   CHECK-DAG:   %[[C64:.*]] = arith.constant 64 : i32
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : i32
//       CHECK:   %[[FULL0:.*]] = llvm.getelementptr %[[BASE]][64]
//  CHECK-NEXT:   nvvm.mbarrier.init %[[FULL0]], %[[C1]]
//  CHECK-NEXT:   %[[FULL1:.*]] = llvm.getelementptr %[[BASE]][72]
//  CHECK-NEXT:   nvvm.mbarrier.init %[[FULL1]], %[[C1]]
//  CHECK-NEXT:   %[[EMPTY0:.*]] = llvm.getelementptr %[[BASE]][80]
//  CHECK-NEXT:   nvvm.mbarrier.init %[[EMPTY0]], %[[C256]]
//  CHECK-NEXT:   %[[EMPTY1:.*]] = llvm.getelementptr %[[BASE]][88]
//  CHECK-NEXT:   nvvm.mbarrier.init %[[EMPTY1]], %[[C256]]
// Acquire: from block 2 on, the empty barrier's phase of block j - 2.
//  CHECK-NEXT:   %[[REUSED:.*]] = arith.cmpi sge, %[[J]], %[[C2]] : i32
//  CHECK-NEXT:   scf.if %[[REUSED]] {
//  CHECK-NEXT:     %[[PREVIOUS:.*]] = arith.subi %[[J]], %[[C2]] : i32
//  CHECK-NEXT:     %[[PHASE:.*]] = arith.divui %[[PREVIOUS]], %[[C2]] : i32
//  CHECK-NEXT:     %[[PARITY:.*]] = arith.andi %[[PHASE]], %[[C1]] : i32
//  CHECK-NEXT:     %[[STAGE:.*]] = arith.andi %[[J]], %[[C1]] : i32
//  CHECK-NEXT:     %[[INDEX:.*]] = arith.addi %[[STAGE]], %[[C2]] : i32
//  CHECK-NEXT:     %[[SKIP:.*]] = arith.muli %[[INDEX]], %[[C8]] : i32
//  CHECK-NEXT:     %[[OFFSET:.*]] = arith.addi %[[SKIP]], %[[C64]] : i32
//  CHECK-NEXT:     %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][%[[OFFSET]]]
//  CHECK-NEXT:     nvvm.mbarrier.try_wait.parity %[[EMPTY]], %[[PARITY]], %[[HINT]]
//  CHECK-NEXT:   }
// Arm: the full barrier of block j's stage expects the bytes; it is what
// the op returns.
//  CHECK-NEXT:   %[[STAGE:.*]] = arith.andi %[[J]], %[[C1]] : i32
//  CHECK-NEXT:   %[[SKIP:.*]] = arith.muli %[[STAGE]], %[[C8]] : i32
//  CHECK-NEXT:   %[[OFFSET:.*]] = arith.addi %[[SKIP]], %[[C64]] : i32
//  CHECK-NEXT:   %[[ARMED:.*]] = llvm.getelementptr %[[BASE]][%[[OFFSET]]]
//  CHECK-NEXT:   nvvm.mbarrier.arrive.expect_tx %[[ARMED]], %[[BYTES]]
// Wait: phase j / 2 of the same barrier.
//  CHECK-NEXT:   %[[PHASE:.*]] = arith.divui %[[J]], %[[C2]] : i32
//  CHECK-NEXT:   %[[PARITY:.*]] = arith.andi %[[PHASE]], %[[C1]] : i32
//       CHECK:   %[[FULL:.*]] = llvm.getelementptr %[[BASE]]
//  CHECK-NEXT:   nvvm.mbarrier.try_wait.parity %[[FULL]], %[[PARITY]], %[[HINT]]
// Release: an arrival on the stage's empty barrier.
//  CHECK-NEXT:   %[[STAGE:.*]] = arith.andi %[[J]], %[[C1]] : i32
//  CHECK-NEXT:   %[[INDEX:.*]] = arith.addi %[[STAGE]], %[[C2]] : i32
//  CHECK-NEXT:   %[[SKIP:.*]] = arith.muli %[[INDEX]], %[[C8]] : i32
//  CHECK-NEXT:   %[[OFFSET:.*]] = arith.addi %[[SKIP]], %[[C64]] : i32
//  CHECK-NEXT:   %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][%[[OFFSET]]]
//  CHECK-NEXT:   nvvm.mbarrier.arrive %[[EMPTY]] : !llvm.ptr<3>
//  CHECK-NEXT:   return %[[ARMED]]
func.func @ring(%base: !llvm.ptr<3>, %j: i32) -> !llvm.ptr<3> {
  %c64 = arith.constant 64 : i32
  %ring = sage.stage_ring %base[%c64] : !sage.stage_ring<stages = 2, consumers = 256>
  sage.stage_ring_init %ring : !sage.stage_ring<stages = 2, consumers = 256>
  sage.stage_ring_acquire %ring[%j] : !sage.stage_ring<stages = 2, consumers = 256>
  %bar = sage.stage_ring_arm %ring[%j], 16384 : !sage.stage_ring<stages = 2, consumers = 256>
  sage.stage_ring_wait %ring[%j] : !sage.stage_ring<stages = 2, consumers = 256>
  sage.stage_ring_release %ring[%j] : !sage.stage_ring<stages = 2, consumers = 256>
  return %bar : !llvm.ptr<3>
}

// Three stages: the stage is j mod 3 (remui), the phase j / 3.
// CHECK-LABEL: func @three
//  CHECK-SAME: (%[[BASE:.*]]: !llvm.ptr<3>, %[[J:.*]]: i32)
//       CHECK:   %[[PHASE:.*]] = arith.divui %[[J]], %[[C3:.*]] : i32
//  CHECK-NEXT:   %[[PARITY:.*]] = arith.andi %[[PHASE]], %{{.*}} : i32
//  CHECK-NEXT:   %[[STAGE:.*]] = arith.remui %[[J]], %[[C3]] : i32
//  CHECK-NEXT:   %[[OFFSET:.*]] = arith.muli %[[STAGE]], %{{.*}} : i32
//  CHECK-NEXT:   %[[FULL:.*]] = llvm.getelementptr %[[BASE]][%[[OFFSET]]]
//  CHECK-NEXT:   nvvm.mbarrier.try_wait.parity %[[FULL]], %[[PARITY]]
func.func @three(%base: !llvm.ptr<3>, %j: i32) {
  %c0 = arith.constant 0 : i32
  %ring = sage.stage_ring %base[%c0] : !sage.stage_ring<stages = 3>
  sage.stage_ring_wait %ring[%j] : !sage.stage_ring<stages = 3>
  return
}
