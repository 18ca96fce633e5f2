"""Binds every launcher of a model's header through the C ABI without a GPU
(SAGE_CUDA_LIBRARY points at a missing driver): dense buffers of the shapes
the header gives, at aligned addresses, pass every check of the launch,
which then fails only at the driver.

usage: check_model_abi.py LIB HEADER PYTHONPATH"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import header_abi  # noqa: E402


def main():
    library, header, pythonpath = sys.argv[1:4]
    sys.path.insert(0, pythonpath)
    from sage_attention.launcher import Launcher

    sizes = {"B": 2, "H": 4, "Hkv": 4, "Nq": 100, "Nk": 300}
    for launch in header_abi.parse(header):
        launcher = Launcher(library, launch.name)
        values = [sizes[s] for s in launch.sizes()]
        workspace = launcher.workspace_size(*values)
        args = [0]  # the legacy default stream
        address = 1 << 20
        for param in launch.params[1:launch.params.index("workspace")]:
            if param.endswith("_strides"):
                continue
            dims, _ = launch.buffers[param]
            shape = [header_abi.extent(d, sizes) for d in dims]
            args += [address, header_abi.dense_strides(shape)]
            address += 1 << 30
        args += [address, workspace] + values
        status = launcher.launch(*args, check=False)
        print(f"{launch.name}: {launch.summary}; workspace {workspace} "
              f"bytes; status {status}: {launcher.last_error()}")


if __name__ == "__main__":
    main()
