#!/usr/bin/env python3
"""Writes a small .npy file, well formed or broken on purpose, for the
sage-run input tests (test/Runtime/npy-inputs.test). Plain Python, no
NumPy, so that the tests run where NumPy is not installed.

  make_npy.py OUT [--descr '<f4'] [--shape 1,1,128,128] [--fortran]
                  [--version 1] [--header TEXT] [--data-bytes N]
                  [--file-bytes N] [--fill BYTE] [--randn SEED]
                  [--poke INDEX=VALUE ...]

The data is zeros (every byte --fill, e.g. 1 for a bool array of true,
255 for float NaNs), as many bytes as the shape and dtype need unless
--data-bytes says otherwise; --header replaces the whole header dict;
--file-bytes cuts the file after that many bytes (a truncated header).
For '<f4' data, --randn fills standard normal values (seeded) and --poke
sets the element at a flat INDEX to a float (nan, inf and -inf too).
"""

import argparse
import random
import re
import struct


def parse_shape(text):
    """'1,2,3' -> (1, 2, 3); '' -> () (a scalar)."""
    return tuple(int(extent) for extent in text.split(",") if extent)


def header_dict(descr, fortran, shape):
    """The dict literal NumPy writes, e.g. {'descr': '<f4', ...}."""
    tuple_text = "(" + ", ".join(str(e) for e in shape)
    tuple_text += ",)" if len(shape) == 1 else ")"
    return "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, "True" if fortran else "False", tuple_text)


def encode(header, version, data):
    """Magic, version, header length, header padded to 64 bytes, data."""
    length_format = "<H" if version == 1 else "<I"
    prefix = 6 + 2 + struct.calcsize(length_format)
    padding = (64 - (prefix + len(header) + 1) % 64) % 64
    header = header + " " * padding + "\n"
    return (b"\x93NUMPY" + bytes([version, 0]) +
            struct.pack(length_format, len(header)) +
            header.encode("latin-1") + data)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--descr", default="<f4")
    parser.add_argument("--shape", default="1")
    parser.add_argument("--fortran", action="store_true")
    parser.add_argument("--version", type=int, default=1)
    parser.add_argument("--header")
    parser.add_argument("--data-bytes", type=int)
    parser.add_argument("--file-bytes", type=int)
    parser.add_argument("--fill", type=int, default=0)
    parser.add_argument("--randn", type=int)
    parser.add_argument("--poke", action="append", default=[])
    args = parser.parse_args()
    shape = parse_shape(args.shape)
    size = 1
    for extent in shape:
        size *= extent
    match = re.search(r"\d+$", args.descr)
    item = int(match.group()) if match else 1
    data_bytes = size * item if args.data_bytes is None else args.data_bytes
    header = args.header or header_dict(args.descr, args.fortran, shape)
    data = bytes([args.fill]) * data_bytes
    if args.randn is not None or args.poke:
        if args.descr != "<f4":
            parser.error("--randn and --poke write '<f4' data")
        rng = random.Random(args.randn)
        values = [rng.gauss(0.0, 1.0) if args.randn is not None else 0.0
                  for _ in range(size)]
        for poke in args.poke:
            index, value = poke.split("=")
            values[int(index)] = float(value)
        data = struct.pack("<%df" % size, *values)
    contents = encode(header, args.version, data)
    if args.file_bytes is not None:
        contents = contents[:args.file_bytes]
    with open(args.out, "wb") as out:
        out.write(contents)


if __name__ == "__main__":
    main()
