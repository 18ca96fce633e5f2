#!/usr/bin/env python3
"""Writes the fuzzer's seed corpus: every .mlir under the test folder,
split at `// -----` as -split-input-file does, one module per file."""
import hashlib
import pathlib
import sys

def main():
    tests, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for path in sorted(tests.rglob("*.mlir")):
        for chunk in path.read_text().split("// -----"):
            body = "\n".join(line for line in chunk.splitlines()
                             if not line.lstrip().startswith("//"))
            if not body.strip():
                continue
            name = hashlib.sha1(body.encode()).hexdigest()[:16] + ".mlir"
            (out / name).write_text(body + "\n")
            count += 1
    print(f"fuzz-corpus: {count} seeds from {tests} in {out}")

if __name__ == "__main__":
    main()
