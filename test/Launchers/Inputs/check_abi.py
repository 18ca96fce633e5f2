"""Calls a launcher library's functions without a GPU (docs/Launchers.md).

usage: check_abi.py LIB.so NAME PLAN.json

Checks NAME_workspace_size against the plan's workspace buffers (evaluated
here from their JSON size expressions), then calls NAME_launch with one bad
argument at a time and prints each status and message; with every argument
valid the launch reaches the driver, which the test makes unavailable.
"""

import json
import re
import sys

sys.path.insert(0, sys.argv[4] if len(sys.argv) > 4 else ".")
from sage_attention.launcher import Launcher  # noqa: E402

BYTES = {"f16": 2, "bf16": 2, "f32": 4, "i32": 4}


def evaluate(expr, sizes):
    """The plan's expression syntax: left to right, no precedence."""
    tokens = re.findall(r"cdiv|\d+|[A-Za-z]+|[()+*,-]", expr)
    pos = 0

    def term():
        nonlocal pos
        token = tokens[pos]
        pos += 1
        if token == "cdiv":
            pos += 1  # (
            a = expression()
            pos += 1  # ,
            b = expression()
            pos += 1  # )
            return -(-a // b)
        if token == "(":
            value = expression()
            pos += 1
            return value
        return int(token) if token.isdigit() else sizes[token]

    def expression():
        nonlocal pos
        value = term()
        while pos < len(tokens) and tokens[pos] in "+-*":
            op = tokens[pos]
            pos += 1
            rhs = term()
            value = {"+": value + rhs, "-": value - rhs, "*": value * rhs}[op]
        return value

    return expression()


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
    B, Nq, Nk = 2, 100, 300
    sizes = {"B": B, "H": 1, "Hkv": 1, "Nq": Nq, "Nk": Nk}
    need = workspace_bytes(plan, sizes)
    got = launcher.workspace_size(B, Nq, Nk)
    print(f"workspace_size({B}, {Nq}, {Nk}) = {got}, plan says {need}")
    assert got == need > 0

    D = plan["head_dim"]
    fake = 0x7F0000000000  # never dereferenced: the checks come first

    def dense(n):
        return (n * D, D, 1)

    def args(**change):
        a = dict(stream=None, q=fake, qs=dense(Nq), k=fake, ks=dense(Nk),
                 v=fake, vs=dense(Nk), o=fake, os=dense(Nq),
                 ws=fake, wsb=need, B=B, Nq=Nq, Nk=Nk)
        a.update(change)
        return list(a.values())

    cases = [
        ("dense", {}),
        ("q strided", {"qs": (Nq * 2 * D, 2 * D, 1)}),
        ("v channel-major", {"vs": (Nk * D, 1, Nk)}),
        ("o null", {"o": None}),
        ("small workspace", {"wsb": need - 1}),
        ("misaligned workspace", {"ws": fake + 16}),
        ("negative Nk", {"Nk": -1}),
        ("huge Nq", {"Nq": 2**31}),
        ("huge B", {"B": 70000}),
        ("empty batch", {"B": 0}),
    ]
    for label, change in cases:
        status = launcher.launch(*args(**change), check=False)
        print(f"{label}: status {status}: {launcher.last_error()}")


if __name__ == "__main__":
    main()
