"""Writes the sage_attention wheel: the Python package and the precompiled
launcher libraries, so that a machine without MLIR runs
`sage_attention.attention` (docs/Launchers.md, "PyTorch").

usage: build_wheel.py --lib-dir DIR --out DIR [--version V]

A wheel is a zip with a .dist-info directory (PEP 427); it is written
here with zipfile so that building one needs nothing but Python. Tagged
py3-none-linux_<machine>: the libraries are native, the Python is not.
"""

import argparse
import base64
import glob
import hashlib
import os
import platform
import zipfile

NAME = "sage_attention"
PACKAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), NAME)


def record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest())
    return f"{path},sha256={digest.rstrip(b'=').decode()},{len(data)}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lib-dir", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--version", default="0.1.0")
    args = parser.parse_args()
    files = {}
    for source in sorted(glob.glob(os.path.join(PACKAGE, "*.py"))):
        files[f"{NAME}/{os.path.basename(source)}"] = source
    for pattern in ("*.so", "*.json", "*.h"):
        for source in sorted(glob.glob(os.path.join(args.lib_dir, pattern))):
            files[f"{NAME}/lib/{os.path.basename(source)}"] = source
    if not any(path.endswith(".so") for path in files):
        raise SystemExit(f"build_wheel.py: no libraries in {args.lib_dir}")
    tag = f"py3-none-linux_{platform.machine()}"
    info = f"{NAME}-{args.version}.dist-info"
    metadata = {
        f"{info}/METADATA": (
            "Metadata-Version: 2.1\n"
            f"Name: {NAME}\nVersion: {args.version}\n"
            "Summary: sage's quantized attention kernels for PyTorch\n"
            "Requires-Python: >=3.9\n"),
        f"{info}/WHEEL": ("Wheel-Version: 1.0\nGenerator: sage build_wheel.py\n"
                          f"Root-Is-Purelib: false\nTag: {tag}\n"),
    }
    os.makedirs(args.out, exist_ok=True)
    wheel = os.path.join(args.out, f"{NAME}-{args.version}-{tag}.whl")
    records = []
    with zipfile.ZipFile(wheel + ".tmp", "w", zipfile.ZIP_DEFLATED) as z:
        for path, source in files.items():
            with open(source, "rb") as f:
                data = f.read()
            info_entry = zipfile.ZipInfo(path, date_time=(2026, 1, 1, 0, 0, 0))
            mode = 0o755 if path.endswith(".so") else 0o644
            info_entry.external_attr = (0o100000 | mode) << 16
            info_entry.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info_entry, data)
            records.append(record_line(path, data))
        for path, text in metadata.items():
            z.writestr(path, text)
            records.append(record_line(path, text.encode()))
        records.append(f"{info}/RECORD,,")
        z.writestr(f"{info}/RECORD", "\n".join(records) + "\n")
    os.replace(wheel + ".tmp", wheel)
    print(wheel)


if __name__ == "__main__":
    main()
