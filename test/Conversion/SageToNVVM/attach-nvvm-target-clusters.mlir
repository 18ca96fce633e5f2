// The kernels launched in clusters take the launch's static cluster shape
// as nvvm.cluster_dim (PTX .reqnctapercluster), which sage-lower-staging
// reads to multicast; a launch without clusters leaves its kernel alone.
// RUN: sage-opt %s --split-input-file --verify-diagnostics --sage-attach-nvvm-target="chip=sm_90a" | FileCheck %s
// RUN: not sage-opt %s --split-input-file --sage-attach-nvvm-target="chip=sm_89" 2>&1 | FileCheck %s --check-prefix=OLD

// CHECK-LABEL: gpu.func @clustered
//  CHECK-SAME:   nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK-LABEL: gpu.func @alone
//   CHECK-NOT:   nvvm.cluster_dim
// OLD: error: 'gpu.launch_func' op launches clusters, which need sm_90 or newer; the kernels are compiled for sm_89
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @clustered() kernel {
      gpu.return
    }
    gpu.func @alone() kernel {
      gpu.return
    }
  }
  func.func @host(%blocks: index) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    gpu.launch_func @kernels::@clustered clusters in (%c2, %c1, %c1) blocks in (%blocks, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @kernels::@alone blocks in (%blocks, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @dynamic() kernel {
      gpu.return
    }
  }
  func.func @host(%blocks: index, %size: index) {
    %c1 = arith.constant 1 : index
    // expected-error @below {{launches clusters of a size known only at run time; a kernel's cluster is static}}
    gpu.launch_func @kernels::@dynamic clusters in (%size, %c1, %c1) blocks in (%blocks, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @twice() kernel {
      gpu.return
    }
  }
  func.func @host(%blocks: index) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@twice clusters in (%c2, %c1, %c1) blocks in (%blocks, %c1, %c1) threads in (%c1, %c1, %c1)
    // expected-error @below {{launches @twice in clusters of array<i32: 4, 1, 1>, another launch in array<i32: 2, 1, 1>}}
    gpu.launch_func @kernels::@twice clusters in (%c4, %c1, %c1) blocks in (%blocks, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
