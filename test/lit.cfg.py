# -*- Python -*-
# lit configuration of the sage regression tests.

import os
import shutil
import subprocess
import sys

import lit.formats
from lit.llvm import llvm_config

config.name = "SAGE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.sage_obj_root, "test")
# Unit/ has its own configuration (GoogleTest binaries).
config.excludes = ["Unit", "Inputs", "CMakeLists.txt", "lit.cfg.py",
                   "lit.site.cfg.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.sage_tools_dir, config.llvm_tools_dir]
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(
    ["sage-opt", "sage-translate", "sage-run", "sage-check-levels",
     "sage-check-levels-pipelined", "not",
     "count"], tool_dirs)
config.substitutions.append(
    ("%sage_kernels", os.path.join(config.sage_obj_root, "kernels")))

# sage-run is built where cuda.h is found; GPU tests need a usable device.
# With SAGE_REQUIRE_GPU=1 a failed probe is fatal, so a GPU run can never
# silently skip its tests.
sage_run = os.path.join(config.sage_tools_dir, "sage-run")
if os.path.exists(sage_run):
    config.available_features.add("sage-run")
    probe = subprocess.run([sage_run, "--probe"], capture_output=True,
                           text=True)
    if probe.returncode == 0:
        config.available_features.add("cuda-gpu")
        lit_config.note("GPU tests run on: " + probe.stdout.strip())
    elif os.environ.get("SAGE_REQUIRE_GPU") == "1":
        lit_config.fatal("SAGE_REQUIRE_GPU=1 but sage-run --probe failed: " +
                         (probe.stderr or probe.stdout).strip())
elif os.environ.get("SAGE_REQUIRE_GPU") == "1":
    lit_config.fatal("SAGE_REQUIRE_GPU=1 but sage-run was not built")
# JAX (the GPU machine has it) runs the StableHLO forms for comparison.
if subprocess.run([sys.executable, "-c", "import jax"],
                  capture_output=True).returncode == 0:
    config.available_features.add("jax")

# GPU tests that take minutes (N = 128k) run only when asked for with
# SAGE_LONG_GPU_TESTS=1, so that the everyday GPU suite stays short.
if os.environ.get("SAGE_LONG_GPU_TESTS") == "1":
    config.available_features.add("long-gpu")

# Upstream mlir-opt comes with the LLVM tools (not in the GPU bundle); the
# mlir-opt plugin (tools/sage-plugin) is built unless sanitizing.
if shutil.which("mlir-opt", path=config.llvm_tools_dir):
    config.available_features.add("mlir-opt")
    llvm_config.add_tool_substitutions(["mlir-opt"], [config.llvm_tools_dir])
# mlir-runner (with the LLVM tools) runs small functions lowered for the
# CPU: checks of sage's rewrites by the values they compute.
c_runner_utils = os.path.normpath(os.path.join(
    config.llvm_tools_dir, "..", "lib", "libmlir_c_runner_utils.so"))
if shutil.which("mlir-runner", path=config.llvm_tools_dir) and \
        os.path.exists(c_runner_utils):
    config.available_features.add("mlir-runner")
    llvm_config.add_tool_substitutions(["mlir-runner"],
                                       [config.llvm_tools_dir])
    config.substitutions.append(("%mlir_c_runner_utils", c_runner_utils))
sage_plugin = os.path.join(config.sage_obj_root, "lib", "SagePlugin.so")
if config.sage_build_plugin and os.path.exists(sage_plugin) and \
        "mlir-opt" in config.available_features:
    config.available_features.add("sage-plugin")
    config.substitutions.append(("%sage_plugin", sage_plugin))

# ptxas checks of emitted PTX run where the CUDA toolkit is installed.
ptxas = shutil.which("ptxas") or (
    "/usr/local/cuda/bin/ptxas"
    if os.path.exists("/usr/local/cuda/bin/ptxas") else None)
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))

# Launcher libraries (docs/Launchers.md) are built where sage-launcher is
# (SageLauncherRuntime needs cuda.h) and llc is (not in the GPU bundle).
if os.path.exists(os.path.join(config.sage_tools_dir, "sage-launcher")) and \
        shutil.which("llc", path=config.llvm_tools_dir):
    config.available_features.add("sage-launcher")
    llvm_config.add_tool_substitutions(["sage-launcher"], tool_dirs)
    # A C program against a launcher header: the build's C++ driver in C
    # mode, with cuda.h.
    config.substitutions.append(
        ("%c_compile", config.sage_cxx_compiler + " -x c -std=c11 -Wall "
         "-Wextra -Werror -I" + config.sage_cuda_include_dir))
config.substitutions.append(
    ("%sage_python", os.path.join(config.sage_src_root, "python")))
config.substitutions.append(
    ("%sage_launchers", os.path.join(config.sage_obj_root, "launchers")))
config.substitutions.append(("%sage_tools", config.sage_tools_dir))
import glob
for wheel in glob.glob(os.path.join(config.sage_obj_root, "python", "dist",
                                    "sage_attention-*.whl")):
    config.substitutions.append(("%sage_wheel", wheel))
config.substitutions.append(
    ("%sage_torch_library",
     os.path.join(config.sage_obj_root, "python", "sage_attention", "lib")))
# The GPU tests of the launcher libraries drive them from PyTorch.
import importlib.util
if importlib.util.find_spec("torch"):
    config.available_features.add("torch")
if importlib.util.find_spec("pip"):
    config.available_features.add("pip")
