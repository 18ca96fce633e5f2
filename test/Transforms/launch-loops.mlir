// RUN: sage-opt %s --sage-launch-loops --split-input-file -verify-diagnostics | FileCheck %s
// RUN: not sage-opt %s --sage-launch-loops=block-size=0 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIZE

// A host function's row sums and copy: one thread per point of the
// parallel loops, flattened (the last dimension fastest), the reduction
// in order in each thread with its output element in a register, the
// kernels named in one module per function.
// CHECK-LABEL: func.func @rows
//  CHECK-SAME:     (%[[X:.+]]: memref<?x64xf32>, %[[MAX:.+]]: memref<?xf32>, %[[Y:.+]]: memref<?x64xf32>)
//       CHECK:   %[[ROWS:.+]] = memref.dim %[[X]]
//       CHECK:   %[[COUNT:.+]] = arith.ceildivui %{{.*}}, %{{.*}} : index
//       CHECK:   %[[POINTS:.+]] = arith.muli %{{.*}}, %[[COUNT]] : index
//       CHECK:   %[[THREADS:.+]] = arith.constant 256 : index
//       CHECK:   %[[BLOCKS:.+]] = arith.ceildivui %[[POINTS]], %[[THREADS]] : index
//       CHECK:   %[[ANY:.+]] = arith.cmpi sgt, %[[BLOCKS]]
//       CHECK:   scf.if %[[ANY]] {
//       CHECK:     gpu.launch blocks(%[[BLOCK:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[BLOCKS]], {{.*}} threads(%[[THREAD:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[THREADS]], {{.*}} module(@rows_loops) function(@loop_0) {
//       CHECK:       %[[FIRST:.+]] = arith.muli %[[BLOCK]], %[[THREADS]]
//       CHECK:       %[[POINT:.+]] = arith.addi %[[FIRST]], %[[THREAD]]
//       CHECK:       %[[INSIDE:.+]] = arith.cmpi ult, %[[POINT]], %[[POINTS]]
//       CHECK:       scf.if %[[INSIDE]] {
//       CHECK:         %[[ROW:.+]] = arith.remui %[[POINT]], %[[COUNT]]
//       CHECK:         %[[INITIAL:.+]] = memref.load %[[MAX]]
//       CHECK:         %[[RESULT:.+]] = scf.for {{.*}} iter_args(%[[ACC:.+]] = %[[INITIAL]]) -> (f32) {
//       CHECK:           %[[ELEMENT:.+]] = memref.load %[[X]]
//       CHECK:           %[[NEW:.+]] = arith.addf %[[ACC]], %[[ELEMENT]]
//       CHECK:           scf.yield %[[NEW]]
//       CHECK:         memref.store %[[RESULT]], %[[MAX]]
//       CHECK:       gpu.terminator
//       CHECK:     gpu.launch {{.*}} module(@rows_loops) function(@loop_1) {
//       CHECK:         %[[COLUMN:.+]] = arith.remui %[[POINT2:.+]], %[[COLUMNS:.+]] : index
//       CHECK:         %[[REST:.+]] = arith.divui %[[POINT2]], %[[COLUMNS]] : index
//       CHECK:         %[[VALUE:.+]] = memref.load %[[X]]
//       CHECK:         memref.store %[[VALUE]], %[[Y]]
//   CHECK-NOT:   memref.copy
//   CHECK-NOT:   linalg.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @rows(%x: memref<?x64xf32>, %max: memref<?xf32>, %y: memref<?x64xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x64xf32>) outs(%max : memref<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.addf %out, %in : f32
    linalg.yield %m : f32
  }
  memref.copy %x, %y : memref<?x64xf32> to memref<?x64xf32>
  return
}

// -----

// Parallel dimensions first: a column sum (reduction, parallel) is one
// thread a column, the rows in order (linalg's loop form alone would run
// the columns in a loop inside the rows' loop).
// CHECK-LABEL: func.func @columns
//  CHECK-SAME:     (%[[X:.+]]: memref<?x64xf32>, %[[SUM:.+]]: memref<64xf32>)
//       CHECK:   gpu.launch
//       CHECK:     %[[COLUMN:.+]] = affine.apply
//       CHECK:     %[[INITIAL:.+]] = memref.load %[[SUM]][%[[COLUMN]]]
//       CHECK:     %[[RESULT:.+]] = scf.for %[[ROW:[^ ]+]] = {{.*}} iter_args(%[[ACC:.+]] = %[[INITIAL]]) -> (f32) {
//       CHECK:       %[[I:.+]] = affine.apply #{{.+}}(%[[ROW]])
//       CHECK:       memref.load %[[X]][%[[I]], %[[COLUMN]]]
//       CHECK:     memref.store %[[RESULT]], %[[SUM]][%[[COLUMN]]]
//   CHECK-NOT:   scf.parallel
func.func @columns(%x: memref<?x64xf32>, %sum: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (c)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<?x64xf32>) outs(%sum : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Only reductions: one thread runs the loop nest.
// CHECK-LABEL: func.func @total
//       CHECK:   arith.cmpi sgt, %[[ONE:[a-z0-9_]+]],
//       CHECK:   gpu.launch blocks({{.*}}) in (%{{.+}} = %[[ONE]], {{.*}} threads({{.*}}) in (%{{.+}} = %[[ONE]], {{.*}} module(@total_loops) function(@loop_0) {
//  CHECK-NEXT:     scf.for
#all = affine_map<(d0) -> (d0)>
#none = affine_map<(d0) -> ()>
func.func @total(%x: memref<?xf32>, %sum: memref<f32>) {
  linalg.generic {indexing_maps = [#all, #none], iterator_types = ["reduction"]}
      ins(%x : memref<?xf32>) outs(%sum : memref<f32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// An op a kernel already runs is left alone.
// CHECK-LABEL: func.func @in_kernel
//       CHECK:   gpu.launch
//       CHECK:     linalg.fill
func.func @in_kernel(%x: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %c1, %g1 = %c1, %g2 = %c1)
             threads(%t0, %t1, %t2) in (%s0 = %c1, %s1 = %c1, %s2 = %c1) {
    linalg.fill ins(%zero : f32) outs(%x : memref<64xf32>)
    gpu.terminator
  }
  return
}

// -----

func.func @negative_tensors(%x: tensor<64xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  // expected-error@+1 {{'linalg.fill' op is left on tensors in a host function; bufferize before sage-launch-loops}}
  %y = linalg.fill ins(%zero : f32) outs(%x : tensor<64xf32>) -> tensor<64xf32>
  return %y : tensor<64xf32>
}

// -----

func.func @negative_no_loops(%x: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error@+1 {{'linalg.fill' op has no loops to launch}}
  linalg.fill ins(%zero : f32) outs(%x : memref<f32>)
  return
}

// SIZE: error: block-size must be in [1, 1024], got 0

// -----

// A short static innermost dimension (16 points) is each thread's loop:
// the grid has a thread per row of 16, whose points share the row's index
// computations and write 16 contiguous bytes.
// CHECK-LABEL: func.func @thread_loop
//  CHECK-SAME:     (%[[X:.+]]: memref<?x4x16xi8>, %[[Y:.+]]: memref<?x4x16xi8>)
//       CHECK:   gpu.launch
//       CHECK:       %[[POINT:.+]] = arith.addi
//       CHECK:       scf.if
//       CHECK:         %[[C:.+]] = arith.remui %[[POINT]], %{{.+}}
//       CHECK:         %[[REST:.+]] = arith.divui %[[POINT]], %{{.+}}
//       CHECK:         arith.remui %[[REST]]
//   CHECK-NOT:         arith.divui
//       CHECK:         scf.for %[[X16:.+]] = %{{.+}} to %c16 step
//       CHECK:           %[[AT:.+]] = affine.apply #{{.+}}(%[[X16]])
//       CHECK:           %[[VALUE:.+]] = memref.load %[[X]][%{{.+}}, %{{.+}}, %[[AT]]]
//       CHECK:           memref.store %[[VALUE]], %[[Y]][%{{.+}}, %{{.+}}, %[[AT]]]
// A longer innermost dimension stays a thread a point.
// CHECK-LABEL: func.func @long_rows
//       CHECK:   gpu.launch
//   CHECK-NOT:   scf.for
//       CHECK:   gpu.terminator
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @thread_loop(%x: memref<?x4x16xi8>, %y: memref<?x4x16xi8>) {
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<?x4x16xi8>) outs(%y : memref<?x4x16xi8>) {
  ^bb0(%in: i8, %out: i8):
    linalg.yield %in : i8
  }
  return
}
func.func @long_rows(%x: memref<?x32xi8>, %y: memref<?x32xi8>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<?x32xi8>) outs(%y : memref<?x32xi8>) {
  ^bb0(%in: i8, %out: i8):
    linalg.yield %in : i8
  }
  return
}

// -----

// A thread loop whose one store writes whole rows of a buffer allocated
// 16-byte aligned, 16 bytes a row, is unrolled and stores the row as one
// vector (@thread_loop's output is an argument, of unknown alignment).
// The row its points read from the argument %x is one run of 32 bytes:
// where %x's base is 16-byte aligned (checked: the caller owns it), one
// vector load reads it; elsewhere the points load one by one.
// CHECK-LABEL: func.func @row_store
//  CHECK-SAME:     (%[[X:.+]]: memref<?x4x16xf16>)
//       CHECK:   %[[Y:.+]] = memref.alloc(%{{.+}}) {alignment = 64 : i64} : memref<?x4x16xi8>
//       CHECK:   gpu.launch
//   CHECK-NOT:     scf.for
//   CHECK-NOT:     memref.store
//       CHECK:     %[[BASE:.+]] = memref.extract_aligned_pointer_as_index %[[X]]
//       CHECK:     %[[MISALIGNMENT:.+]] = arith.remui %[[BASE]], %c16{{[_0-9]*}}
//       CHECK:     %[[ALIGNED:.+]] = arith.cmpi eq, %[[MISALIGNMENT]], %c0
//       CHECK:     %[[ROW:.+]] = scf.if %[[ALIGNED]] -> (vector<16xi8>) {
//       CHECK:       %[[READ:.+]] = vector.load %[[X]][%{{.+}}, %{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<?x4x16xf16>, vector<16xf16>
//   CHECK-NOT:       memref.load
//       CHECK:       vector.extract %[[READ]][15]
//       CHECK:       %[[FAST:.+]] = vector.from_elements {{.*}} : vector<16xi8>
//       CHECK:       scf.yield %[[FAST]]
//       CHECK:     } else {
// CHECK-COUNT-16:    memref.load %[[X]]
//       CHECK:       %[[SLOW:.+]] = vector.from_elements {{.*}} : vector<16xi8>
//       CHECK:       scf.yield %[[SLOW]]
//       CHECK:     vector.store %[[ROW]], %[[Y]][%{{.+}}, %{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<?x4x16xi8>, vector<16xi8>
//   CHECK-NOT:     memref.store
// CHECK-LABEL: func.func @negative_row_store_unaligned
//       CHECK:   gpu.launch
//       CHECK:     scf.for
//       CHECK:       memref.store
//   CHECK-NOT:     vector.store
#rows3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @row_store(%x: memref<?x4x16xf16>) -> memref<?x4x16xi8> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x4x16xf16>
  %y = memref.alloc(%n) {alignment = 64 : i64} : memref<?x4x16xi8>
  linalg.generic {indexing_maps = [#rows3, #rows3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<?x4x16xf16>) outs(%y : memref<?x4x16xi8>) {
  ^bb0(%in: f16, %out: i8):
    %q = arith.fptosi %in : f16 to i8
    linalg.yield %q : i8
  }
  return %y : memref<?x4x16xi8>
}
func.func @negative_row_store_unaligned(%x: memref<?x4x16xf16>) -> memref<?x4x16xi8> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x4x16xf16>
  %y = memref.alloc(%n) {alignment = 8 : i64} : memref<?x4x16xi8>
  linalg.generic {indexing_maps = [#rows3, #rows3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<?x4x16xf16>) outs(%y : memref<?x4x16xi8>) {
  ^bb0(%in: f16, %out: i8):
    %q = arith.fptosi %in : f16 to i8
    linalg.yield %q : i8
  }
  return %y : memref<?x4x16xi8>
}

// A run of an aligned allocation needs no check: 16 f32 (64 bytes) at a
// multiple of 64 bytes, read 16 bytes at a time.
// CHECK-LABEL: func.func @row_load_allocated
//       CHECK:   %[[X:.+]] = memref.alloc(%{{.+}}) {alignment = 64 : i64} : memref<?x16xf32>
//       CHECK:   gpu.launch
//   CHECK-NOT:     memref.extract_aligned_pointer_as_index
//   CHECK-NOT:     memref.load
//       CHECK:     vector.load %[[X]][%{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<?x16xf32>, vector<16xf32>
//   CHECK-NOT:     memref.load
//       CHECK:     vector.store
// A row read across its points' rows (x transposed) is no run: its
// points load one by one, and nothing checks the base.
// CHECK-LABEL: func.func @negative_row_load_transposed
//       CHECK:   gpu.launch
//   CHECK-NOT:     memref.extract_aligned_pointer_as_index
//   CHECK-NOT:     vector.load
// CHECK-COUNT-16:  memref.load
//       CHECK:     vector.store
#rows2 = affine_map<(d0, d1) -> (d0, d1)>
#transposed2 = affine_map<(d0, d1) -> (d1, d0)>
func.func @row_load_allocated(%n: index) -> memref<?x16xi8> {
  %x = memref.alloc(%n) {alignment = 64 : i64} : memref<?x16xf32>
  %y = memref.alloc(%n) {alignment = 64 : i64} : memref<?x16xi8>
  linalg.generic {indexing_maps = [#rows2, #rows2], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<?x16xf32>) outs(%y : memref<?x16xi8>) {
  ^bb0(%in: f32, %out: i8):
    %q = arith.fptosi %in : f32 to i8
    linalg.yield %q : i8
  }
  return %y : memref<?x16xi8>
}
func.func @negative_row_load_transposed(%x: memref<16x?xf16>) -> memref<?x16xi8> {
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c1 : memref<16x?xf16>
  %y = memref.alloc(%n) {alignment = 64 : i64} : memref<?x16xi8>
  linalg.generic {indexing_maps = [#transposed2, #rows2], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<16x?xf16>) outs(%y : memref<?x16xi8>) {
  ^bb0(%in: f16, %out: i8):
    %q = arith.fptosi %in : f16 to i8
    linalg.yield %q : i8
  }
  return %y : memref<?x16xi8>
}

// A thread whose row is a column of its input (a transpose, as V^T's
// quantizer reads V) also takes 8 consecutive points of the next
// dimension: each of its 16 points loads 8 contiguous f16 of one input
// row at once, and it stores its 8 rows. The grid counts 64 / 8 of them.
// CHECK-LABEL: func.func @column_runs
//  CHECK-SAME:     (%[[X:.+]]: memref<?x16x64xf16>)
//       CHECK:   %[[Y:.+]] = memref.alloc(%{{.+}}) {alignment = 64 : i64} : memref<?x64x16xi8>
//       CHECK:   %[[EIGHT:.+]] = arith.constant 8 : index
//       CHECK:   arith.ceildivui %{{.+}}, %[[EIGHT]] : index
//       CHECK:   gpu.launch
//       CHECK:     %[[BASE:.+]] = memref.extract_aligned_pointer_as_index %[[X]]
//       CHECK:     %[[ROWS:.+]]:8 = scf.if %{{.+}} -> (vector<16xi8>, vector<16xi8>, vector<16xi8>, vector<16xi8>, vector<16xi8>, vector<16xi8>, vector<16xi8>, vector<16xi8>) {
// CHECK-COUNT-16:    vector.load %[[X]][%{{.+}}, %{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<?x16x64xf16>, vector<8xf16>
//   CHECK-NOT:       memref.load
//       CHECK:     } else {
// CHECK-COUNT-128:   memref.load %[[X]]
//       CHECK:     }
// CHECK-COUNT-8:   vector.store %[[ROWS]]#{{[0-7]}}, %[[Y]][%{{.+}}, %{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<?x64x16xi8>, vector<16xi8>
#transposed3 = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
func.func @column_runs(%x: memref<?x16x64xf16>) -> memref<?x64x16xi8> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x16x64xf16>
  %y = memref.alloc(%n) {alignment = 64 : i64} : memref<?x64x16xi8>
  linalg.generic {indexing_maps = [#transposed3, #rows3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<?x16x64xf16>) outs(%y : memref<?x64x16xi8>) {
  ^bb0(%in: f16, %out: i8):
    %q = arith.fptosi %in : f16 to i8
    linalg.yield %q : i8
  }
  return %y : memref<?x64x16xi8>
}

// Column runs beside row runs: %w's row depends on the thread's column
// (channel), so each of the 8 rows loads its own 16 f16 of %w (8 loads,
// one a row), while each of the 16 points loads 8 channels of %x once.
// CHECK-LABEL: func.func @column_and_row_runs
//  CHECK-SAME:     (%[[X:.+]]: memref<?x16x64xf16>, %[[W:.+]]: memref<?x64x16xf16>)
//       CHECK:   gpu.launch
//       CHECK:     scf.if %{{.+}} -> (vector<16xi8>, vector<16xi8>, vector<16xi8>, vector<16xi8>, vector<16xi8>, vector<16xi8>, vector<16xi8>, vector<16xi8>) {
//   CHECK-DAG:       vector.load %[[W]]{{.*}} : memref<?x64x16xf16>, vector<16xf16>
//   CHECK-DAG:       vector.load %[[W]]{{.*}} : memref<?x64x16xf16>, vector<16xf16>
//   CHECK-DAG:       vector.load %[[W]]{{.*}} : memref<?x64x16xf16>, vector<16xf16>
//   CHECK-DAG:       vector.load %[[W]]{{.*}} : memref<?x64x16xf16>, vector<16xf16>
//   CHECK-DAG:       vector.load %[[W]]{{.*}} : memref<?x64x16xf16>, vector<16xf16>
//   CHECK-DAG:       vector.load %[[W]]{{.*}} : memref<?x64x16xf16>, vector<16xf16>
//   CHECK-DAG:       vector.load %[[W]]{{.*}} : memref<?x64x16xf16>, vector<16xf16>
//   CHECK-DAG:       vector.load %[[W]]{{.*}} : memref<?x64x16xf16>, vector<16xf16>
//   CHECK-DAG:       vector.load %[[X]]{{.*}} : memref<?x16x64xf16>, vector<8xf16>
//   CHECK-DAG:       vector.load %[[X]]{{.*}} : memref<?x16x64xf16>, vector<8xf16>
//   CHECK-DAG:       vector.load %[[X]]{{.*}} : memref<?x16x64xf16>, vector<8xf16>
//   CHECK-DAG:       vector.load %[[X]]{{.*}} : memref<?x16x64xf16>, vector<8xf16>
//   CHECK-DAG:       vector.load %[[X]]{{.*}} : memref<?x16x64xf16>, vector<8xf16>
//   CHECK-DAG:       vector.load %[[X]]{{.*}} : memref<?x16x64xf16>, vector<8xf16>
//   CHECK-DAG:       vector.load %[[X]]{{.*}} : memref<?x16x64xf16>, vector<8xf16>
//   CHECK-DAG:       vector.load %[[X]]{{.*}} : memref<?x16x64xf16>, vector<8xf16>
//   CHECK-DAG:       vector.load %[[X]]{{.*}} : memref<?x16x64xf16>, vector<8xf16>
//   CHECK-DAG:       vector.load %[[X]]{{.*}} : memref<?x16x64xf16>, vector<8xf16>
//   CHECK-DAG:       vector.load %[[X]]{{.*}} : memref<?x16x64xf16>, vector<8xf16>
//   CHECK-DAG:       vector.load %[[X]]{{.*}} : memref<?x16x64xf16>, vector<8xf16>
//   CHECK-DAG:       vector.load %[[X]]{{.*}} : memref<?x16x64xf16>, vector<8xf16>
//   CHECK-DAG:       vector.load %[[X]]{{.*}} : memref<?x16x64xf16>, vector<8xf16>
//   CHECK-DAG:       vector.load %[[X]]{{.*}} : memref<?x16x64xf16>, vector<8xf16>
//   CHECK-DAG:       vector.load %[[X]]{{.*}} : memref<?x16x64xf16>, vector<8xf16>
//   CHECK-NOT:       memref.load
//       CHECK:     } else {
#rows3b = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#transposed3b = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
func.func @column_and_row_runs(%x: memref<?x16x64xf16>, %w: memref<?x64x16xf16>) -> memref<?x64x16xi8> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x16x64xf16>
  %y = memref.alloc(%n) {alignment = 64 : i64} : memref<?x64x16xi8>
  linalg.generic {indexing_maps = [#transposed3b, #rows3b, #rows3b], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %w : memref<?x16x64xf16>, memref<?x64x16xf16>) outs(%y : memref<?x64x16xi8>) {
  ^bb0(%in: f16, %weight: f16, %out: i8):
    %product = arith.mulf %in, %weight : f16
    %q = arith.fptosi %product : f16 to i8
    linalg.yield %q : i8
  }
  return %y : memref<?x64x16xi8>
}

// -----

// A row maximum over a static multiple of 16 contiguous elements is
// shared by 16 lanes a row, the lanes' maxima meet by shuffles, and lane 0
// stores. Every lane runs the shuffles (a point past the end redoes the
// last row); only the store is guarded. A lane takes runs of consecutive
// elements, here 4 (64 / 16) as one 8-byte vector load, where the
// caller's buffer is aligned for it (checked at run time); else elements
// l, l + 16, ... one at a time. A sum keeps its order (@rows).
// CHECK-LABEL: func.func @row_maxima
//  CHECK-SAME:     (%[[X:.+]]: memref<?x64xf16>, %[[MAX:.+]]: memref<?xf32>)
//       CHECK:   %[[SIXTEEN:.+]] = arith.constant 16 : index
//       CHECK:   %[[WORK:.+]] = arith.muli %[[POINTS:.+]], %[[SIXTEEN]] : index
//       CHECK:   %[[BLOCKS:.+]] = arith.ceildivui %[[WORK]], %{{.+}} : index
//       CHECK:   gpu.launch blocks(%[[BLOCK:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[BLOCKS]]
//       CHECK:     %[[GLOBAL:.+]] = arith.addi
//       CHECK:     %[[LANE:.+]] = arith.remui %[[GLOBAL]], %[[SIXTEEN]]
//       CHECK:     %[[POINT:.+]] = arith.divui %[[GLOBAL]], %[[SIXTEEN]]
//       CHECK:     %[[INSIDE:.+]] = arith.cmpi ult, %[[POINT]], %[[POINTS]]
//       CHECK:     %[[LAST:.+]] = arith.subi %[[POINTS]]
//       CHECK:     %[[ROW:.+]] = arith.select %[[INSIDE]], %[[POINT]], %[[LAST]]
//   CHECK-NOT:     scf.if
//       CHECK:     %[[INITIAL:.+]] = memref.load %[[MAX]]
//       CHECK:     %[[BASE:.+]] = memref.extract_aligned_pointer_as_index %[[X]]
//       CHECK:     %[[OFF:.+]] = arith.remui %[[BASE]], %c8
//       CHECK:     %[[ALIGNED:.+]] = arith.cmpi eq, %[[OFF]]
//       CHECK:     %[[PARTIAL:.+]] = scf.if %[[ALIGNED]] -> (f32) {
//       CHECK:       %[[FIRST4:.+]] = arith.muli %[[LANE]], %c4
//       CHECK:       %[[RUNS:.+]] = scf.for %[[AT:.+]] = %[[FIRST4]] to %c64 step %{{.+}} iter_args(%[[RACC:.+]] = %[[INITIAL]]) -> (f32) {
//       CHECK:         %[[LOADED:.+]] = vector.load %[[X]][%{{.+}}, %{{.+}}] {alignment = 8 : i64} : memref<?x64xf16>, vector<4xf16>
//       CHECK:         vector.extract %[[LOADED]][0]
//       CHECK:         %[[R0:.+]] = arith.maximumf %[[RACC]]
//       CHECK:         vector.extract %[[LOADED]][1]
//       CHECK:         arith.maximumf %[[R0]]
//       CHECK:         vector.extract %[[LOADED]][3]
//   CHECK-NOT:         memref.load
//       CHECK:         scf.yield
//       CHECK:       scf.yield %[[RUNS]] : f32
//       CHECK:     } else {
//       CHECK:       %[[ONES:.+]] = scf.for %{{.+}} = %[[LANE]] to %c64 step %{{.+}} iter_args(%[[ACC:.+]] = %[[INITIAL]]) -> (f32) {
//       CHECK:         memref.load %[[X]]
//       CHECK:         arith.maximumf %[[ACC]]
//       CHECK:       scf.yield %[[ONES]] : f32
//       CHECK:     %[[OTHER8:.+]], %{{.+}} = gpu.shuffle  xor %[[PARTIAL]], %c8_i32, %c32_i32 : f32
//       CHECK:     %[[M8:.+]] = arith.maximumf %[[PARTIAL]], %[[OTHER8]]
//       CHECK:     gpu.shuffle  xor %[[M8]], %c4_i32
//       CHECK:     gpu.shuffle  xor %{{.+}}, %c2_i32
//       CHECK:     gpu.shuffle  xor %{{.+}}, %c1_i32
//       CHECK:     %[[M1:.+]] = arith.maximumf
//       CHECK:     %[[FIRST:.+]] = arith.cmpi eq, %[[LANE]], %{{.+}}
//       CHECK:     %[[STORES:.+]] = arith.andi %[[INSIDE]], %[[FIRST]]
//       CHECK:     scf.if %[[STORES]] {
//       CHECK:       memref.store %[[M1]], %[[MAX]]
// Rows of 128 f16 less an allocated f32 mean (K's row maxima after its
// smoothing): runs of 8, one 16-byte load of the row, two of the mean (an
// allocation aligned for them, so only the caller's row is checked).
// CHECK-LABEL: func.func @row_maxima_smoothed
//       CHECK:     %[[MBASE:.+]] = memref.extract_aligned_pointer_as_index %arg0
//       CHECK:     arith.remui %[[MBASE]], %c16{{[_0-9]*}}
//       CHECK:     scf.if %{{.+}} -> (f32) {
//       CHECK:       scf.for %[[AT8:.+]] = %{{.+}} to %c128 step %{{.+}} iter_args
//       CHECK:         vector.load %arg0[%{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<?x128xf16>, vector<8xf16>
//       CHECK:         vector.load %[[MEAN:.+]][%{{.+}}] {alignment = 16 : i64} : memref<128xf32>, vector<4xf32>
//       CHECK:         %[[AT4:.+]] = arith.addi %[[AT8]], %c4
//       CHECK:         vector.load %[[MEAN]][%[[AT4]]] {alignment = 16 : i64} : memref<128xf32>, vector<4xf32>
//   CHECK-NOT:         memref.load
//       CHECK:     } else {
// A row of 40 (not a multiple of 16) keeps a thread a row.
// CHECK-LABEL: func.func @negative_row_maxima_short
//   CHECK-NOT:   gpu.shuffle
//       CHECK:   return
func.func @row_maxima(%x: memref<?x64xf16>, %max: memref<?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x64xf16>) outs(%max : memref<?xf32>) {
  ^bb0(%in: f16, %out: f32):
    %e = arith.extf %in : f16 to f32
    %a = math.absf %e : f32
    %m = arith.maximumf %out, %a : f32
    linalg.yield %m : f32
  }
  return
}
func.func @row_maxima_smoothed(%x: memref<?x128xf16>, %max: memref<?xf32>) {
  %mean = memref.alloc() {alignment = 64 : i64} : memref<128xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>,
                                   affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : memref<?x128xf16>, memref<128xf32>) outs(%max : memref<?xf32>) {
  ^bb0(%in: f16, %m: f32, %out: f32):
    %e = arith.extf %in : f16 to f32
    %s = arith.subf %e, %m : f32
    %a = math.absf %s : f32
    %r = arith.maximumf %out, %a : f32
    linalg.yield %r : f32
  }
  return
}
func.func @negative_row_maxima_short(%x: memref<?x40xf16>, %max: memref<?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x40xf16>) outs(%max : memref<?xf32>) {
  ^bb0(%in: f16, %out: f32):
    %e = arith.extf %in : f16 to f32
    %a = math.absf %e : f32
    %m = arith.maximumf %out, %a : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A column reduction (K's means: a point a chunk of tokens and a channel,
// its loop carrying the sum): a thread takes 8 consecutive channels, their
// loops fused into one carrying 8 sums, each token's 8 channels one
// 16-byte load where the caller's buffer is aligned (checked at run time);
// each channel's sum keeps its order.
// CHECK-LABEL: func.func @column_chunks
//  CHECK-SAME:     (%[[X:.+]]: memref<?x64xf16>, %{{.+}}: index, %[[SUMS:.+]]: memref<?x64xf64>)
//       CHECK:   gpu.launch
//       CHECK:     %[[BASE:.+]] = memref.extract_aligned_pointer_as_index %[[X]]
//       CHECK:     arith.remui %[[BASE]], %c16{{[_0-9]*}}
//       CHECK:     %[[COLUMNS:.+]]:8 = scf.if %{{.+}} -> (f64, f64, f64, f64, f64, f64, f64, f64) {
//       CHECK:       scf.for {{.+}} -> (f64, f64, f64, f64, f64, f64, f64, f64) {
//       CHECK:         %[[LOADED:.+]] = vector.load %[[X]][%{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<?x64xf16>, vector<8xf16>
//       CHECK:         vector.extract %[[LOADED]][0]
//       CHECK:         vector.extract %[[LOADED]][7]
//   CHECK-NOT:         memref.load
//       CHECK:         scf.yield
//       CHECK:     } else {
//       CHECK:       scf.for
// CHECK-COUNT-8:         memref.load %[[X]]
//       CHECK:     memref.store %[[COLUMNS]]#0, %[[SUMS]]
//       CHECK:     memref.store %[[COLUMNS]]#7, %[[SUMS]]
func.func @column_chunks(%x: memref<?x64xf16>, %n: index, %sums: memref<?x64xf64>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      outs(%sums : memref<?x64xf64>) {
  ^bb0(%out: f64):
    %chunk = linalg.index 0 : index
    %f = linalg.index 1 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f64
    %first = arith.muli %chunk, %c256 : index
    %s = scf.for %t = %c0 to %c256 step %c1 iter_args(%acc = %zero) -> (f64) {
      %token = arith.addi %first, %t : index
      %inside = arith.cmpi ult, %token, %n : index
      %read = arith.select %inside, %token, %c0 : index
      %v = memref.load %x[%read, %f] : memref<?x64xf16>
      %e = arith.extf %v : f16 to f64
      %kept = arith.select %inside, %e, %zero : f64
      %sum = arith.addf %acc, %kept : f64
      scf.yield %sum : f64
    }
    linalg.yield %s : f64
  }
  return
}
