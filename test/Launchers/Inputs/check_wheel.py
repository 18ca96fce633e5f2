"""Checks the sage_attention wheel without a GPU or torch
(docs/Launchers.md, "PyTorch").

usage: check_wheel.py WHEEL WORKDIR SAGE_LAUNCHER

Unpacks the wheel as pip would, checks every RECORD entry's hash and size,
finds a precompiled configuration of each chip's library from the
installed package, and compiles a missing configuration on first use
(once: the second lookup hits the cache).
"""

import base64
import hashlib
import os
import sys
import zipfile

wheel, work, sage_launcher = sys.argv[1:4]
site = os.path.join(work, "site")
with zipfile.ZipFile(wheel) as z:
    z.extractall(site)
    names = z.namelist()
info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/RECORD"))
bad = 0
recorded = set()
for line in open(os.path.join(site, info, "RECORD")).read().splitlines():
    path, digest, size = line.split(",")
    recorded.add(path)
    if path == f"{info}/RECORD":
        bad += bool(digest or size)  # RECORD holds no hash of itself
        continue
    data = open(os.path.join(site, path), "rb").read()
    expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest())
    if digest != "sha256=" + expected.rstrip(b"=").decode() or \
            int(size) != len(data):
        bad += 1
bad += len(set(names) ^ recorded)  # every member recorded, nothing else
print(f"{os.path.basename(wheel)}: {len(names)} files, {bad} bad records")

sys.path.insert(0, site)
os.environ.pop("SAGE_LAUNCHER", None)
os.environ["PATH"] = "/usr/bin:/bin"
os.environ["SAGE_ATTENTION_CACHE"] = os.path.join(work, "cache")
from sage_attention import library  # noqa: E402
from sage_attention.launcher import Launcher  # noqa: E402

package_lib = os.path.join(os.path.dirname(library.__file__), "lib")
print("package inside the unpacked wheel:", package_lib.startswith(site))


def index(chip):
    return [os.path.join(package_lib, f"sage_attention_{chip}.json")]


for chip in sorted(library.CHIPS.values()):
    path, name = library.lookup(index(chip), chip, dict(
        head_dim=64, dtype="bf16", causal=True, layout="bnhd",
        recipe="int8-fp8-smooth-k"))
    launcher = Launcher(path, name)
    print(f"{chip}: {os.path.basename(path)} {name} workspace "
          f"{launcher.workspace_size(1, 2, 2, 64, 64)}")

missing = dict(head_dim=96, dtype="f16", causal=False, layout="bhnd",
               recipe="int8-fp8", scale=0.1)
try:
    library.lookup(index("sm_90a"), "sm_90a", missing)
except LookupError as error:
    print("without sage:", error)
os.environ["SAGE_LAUNCHER"] = sage_launcher
for attempt in ("first", "second"):
    path, name = library.lookup(index("sm_90a"), "sm_90a", missing,
                                log=lambda m: print("  log:", m))
    print(f"{attempt} lookup: {os.path.relpath(path, work)} {name}")
launcher = Launcher(path, name)
print("compiled workspace:", launcher.workspace_size(1, 2, 2, 64, 64))
status = launcher.launch(None, *([0x7F0000000000, (2 * 64 * 96, 64 * 96, 96, 1)] * 4),
                         0x7F0000000000, launcher.workspace_size(1, 2, 2, 64, 64),
                         1, 2, 2, 64, 64, check=False)
print(f"compiled launch: status {status}: {launcher.last_error()}")
