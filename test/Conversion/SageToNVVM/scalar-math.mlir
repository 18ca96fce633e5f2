// RUN: sage-opt %s --convert-sage-to-nvvm | FileCheck %s

// The quantizers' scalar math: FP8 by the saturating cvt of a pair (x in
// the low byte), magnitudes and roundings by the LLVM intrinsics.
// CHECK-LABEL: func.func @scalars
//  CHECK-SAME:     (%[[X:[^:]+]]: f32,
//       CHECK:   %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
//       CHECK:   %[[PAIR:.+]] = nvvm.convert.f32x2.to.f8x2 %[[ZERO]], %[[X]] {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16(f8E4M3FN)
//       CHECK:   %[[LOW:.+]] = arith.trunci %[[PAIR]] : i16 to i8
//       CHECK:   %[[E4M3:.+]] = arith.bitcast %[[LOW]] : i8 to f8E4M3FN
//       CHECK:   %[[E5M2_PAIR:.+]] = nvvm.convert.f32x2.to.f8x2 {{.*}} : i16(f8E5M2)
//       CHECK:   %[[MAGNITUDE:.+]] = llvm.call_intrinsic "llvm.fabs.f32"(%[[X]]) : (f32) -> f32
//       CHECK:   %[[ROUNDED:.+]] = llvm.call_intrinsic "llvm.roundeven.f32"(%[[X]]) : (f32) -> f32
//       CHECK:   %[[HALF:.+]] = math.absf %{{.*}} : f16
//       CHECK:   return %[[E4M3]], %{{.*}}, %[[MAGNITUDE]], %[[ROUNDED]], %[[HALF]]
func.func @scalars(%x: f32, %h: f16) -> (f8E4M3FN, f8E5M2, f32, f32, f16) {
  %e4m3 = arith.truncf %x : f32 to f8E4M3FN
  %e5m2 = arith.truncf %x : f32 to f8E5M2
  %magnitude = math.absf %x : f32
  %rounded = math.roundeven %x : f32
  // Not f32: left to the upstream conversions.
  %half = math.absf %h : f16
  return %e4m3, %e5m2, %magnitude, %rounded, %half : f8E4M3FN, f8E5M2, f32, f32, f16
}
