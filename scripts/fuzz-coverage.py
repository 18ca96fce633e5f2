#!/usr/bin/env python3
"""Sums libFuzzer's -print_coverage=1 report by source folder: covered /
instrumented edges and functions of lib/Transforms, lib/Conversion, ...

  sage-fuzz CORPUS -runs=0 -print_coverage=1 2>&1 | scripts/fuzz-coverage.py
"""
import collections
import re
import sys

# Function names are demangled signatures with spaces: take the last field.
LINE = re.compile(r"^(UN)?COVERED_FUNC: hits: (\d+) edges: (\d+)/(\d+) .* (\S+):\d+$")

def folder(path):
    parts = path.split("/")
    for anchor in ("lib", "tools"):
        if anchor in parts:
            i = parts.index(anchor)
            return "/".join(parts[i:i + 2])
    return None

def main():
    edges = collections.defaultdict(lambda: [0, 0])
    funcs = collections.defaultdict(lambda: [0, 0])
    for line in sys.stdin:
        match = LINE.match(line.strip())
        if not match:
            continue
        name = folder(match.group(5))
        if name is None:
            continue
        covered, total = int(match.group(3)), int(match.group(4))
        edges[name][0] += covered
        edges[name][1] += total
        funcs[name][0] += 0 if match.group(1) else 1
        funcs[name][1] += 1
    print(f"{'folder':<24} {'edges':>15} {'functions':>15}")
    for name in sorted(edges):
        (ec, et), (fc, ft) = edges[name], funcs[name]
        print(f"{name:<24} {ec:>6}/{et:<6} {100 * ec / max(et, 1):3.0f}%"
              f" {fc:>5}/{ft:<5} {100 * fc / max(ft, 1):3.0f}%")

if __name__ == "__main__":
    main()
