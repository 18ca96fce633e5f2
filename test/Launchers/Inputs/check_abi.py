"""Calls a launcher library's functions without a GPU (docs/Launchers.md).

usage: check_abi.py LIB.so NAME PLAN.json

Checks NAME_workspace_size against the plan's workspace buffers (evaluated
here from their JSON size expressions), then calls NAME_launch with one bad
argument at a time and prints each status and message; with every argument
valid the launch reaches the driver, which the test makes unavailable.
"""

import json
import sys

sys.path.insert(0, sys.argv[4] if len(sys.argv) > 4 else ".")
from sage_attention.launcher import Launcher  # noqa: E402

BYTES = {"f16": 2, "bf16": 2, "f32": 4, "i32": 4}


def evaluate(size, sizes):
    """A plan size (docs/LaunchPlan.md): an integer, a size name,
    {"cdiv": [a, b]} or {"mul": [a, b]} of sizes."""
    if isinstance(size, int):
        return size
    if isinstance(size, str):
        return sizes[size]
    (op, (a, b)), = size.items()
    a, b = evaluate(a, sizes), evaluate(b, sizes)
    return -(-a // b) if op == "cdiv" else a * b


def workspace_bytes(plan, sizes):
    end = 0
    for buffer in plan["buffers"]:
        if buffer["kind"] != "workspace":
            continue
        offset = (end + 255) // 256 * 256
        count = 1
        for extent in buffer["shape"]:
            count *= evaluate(extent, sizes)
        end = offset + count * BYTES.get(buffer["type"], 1)
    return end


def main():
    library, name, plan_path = sys.argv[1:4]
    plan = json.load(open(plan_path))
    launcher = Launcher(library, name)
    heads = len(plan["layout"]) == 4
    btnh = heads and plan["layout"][1] == "tokens"
    B, H, Hkv, Nq, Nk = 2, (4 if heads else 1), (2 if heads else 1), 100, 300
    sizes = {"B": B, "H": H, "Hkv": Hkv, "Nq": Nq, "Nk": Nk}

    def size_args(s):
        return ([s["B"], s["H"], s["Hkv"]] if heads else [s["B"]]) + \
            [s["Nq"], s["Nk"]]

    need = workspace_bytes(plan, sizes)
    got = launcher.workspace_size(*size_args(sizes))
    print(f"workspace_size{tuple(size_args(sizes))} = {got}, plan says {need}")
    assert got == need > 0
    bad = launcher.workspace_size(*size_args(dict(sizes, Nk=-1)))
    print(f"workspace_size with Nk = -1: {bad}: {launcher.last_error()}")

    D = plan["head_dim"]
    fake = 0x7F0000000000  # never dereferenced: the checks come first

    def dense(h, n):
        if not heads:
            return (n * D, D, 1)
        if btnh:
            return (n * h * D, h * D, D, 1)
        return (h * n * D, n * D, D, 1)

    def args(**change):
        s = dict(sizes, **{k: v for k, v in change.items() if k in sizes})
        a = dict(stream=None, q=fake, qs=dense(s["H"], s["Nq"]), k=fake,
                 ks=dense(s["Hkv"], s["Nk"]), v=fake,
                 vs=dense(s["Hkv"], s["Nk"]), o=fake,
                 os=dense(s["H"], s["Nq"]), ws=fake, wsb=need)
        a.update({k: v for k, v in change.items() if k not in sizes})
        return list(a.values()) + size_args(s)

    cases = [
        ("dense", {}),
        ("q strided", {"qs": tuple(2 * x if x > 1 else x
                                   for x in dense(H, Nq))}),
        ("v strides permuted", {"vs": dense(Hkv, Nk)[:-1][::-1] + (1,)}),
        ("o null", {"o": None}),
        ("k misaligned", {"k": fake + 8}),
        ("small workspace", {"wsb": need - 1}),
        ("misaligned workspace", {"ws": fake + 16}),
        ("negative Nk", {"Nk": -1}),
        ("huge Nq", {"Nq": 2**31}),
        ("huge B", {"B": 70000}),
        ("empty batch", {"B": 0}),
        ("no queries, any strides", {"Nq": 0, "qs": (0,) * len(dense(H, 1)),
                                     "os": (0,) * len(dense(H, 1))}),
    ]
    if heads:
        cases += [
            ("H not a multiple of Hkv", {"H": 5}),
            ("Hkv above H", {"H": 0, "Hkv": 3}),
            ("huge H", {"H": 70000, "Hkv": 70000}),
            ("B * H rows", {"B": 65535, "H": 65535, "Hkv": 65535}),
        ]
        if btnh:
            cases.append(("B * Nq rows", {"B": 65535, "Nq": 65536}))
    for label, change in cases:
        status = launcher.launch(*args(**change), check=False)
        print(f"{label}: status {status}"
              + (f": {launcher.last_error()}" if status else ""))


if __name__ == "__main__":
    main()
