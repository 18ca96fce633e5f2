"""Reads the launchers of a generated header (sage-translate
--sage-export-header): each NAME_launch prototype and the comment above it,
which gives every buffer's shape and type (docs/Launchers.md). The tests
bind tensors to the C ABI from this alone, as a frontend would."""

import re
from dataclasses import dataclass, field

_COMMENT = re.compile(r"/\* (\w+)_launch:\n(.*?)\*/\n", re.S)
_PROTOTYPE = re.compile(r"int32_t (\w+)_launch\(([^)]*)\);")


@dataclass
class Launch:
    name: str
    params: list  # C parameter names, in order
    buffers: dict = field(default_factory=dict)  # name -> (dims, type)
    summary: str = ""

    def sizes(self):
        """The size parameters (B, H, Hkv, Nq, Nk or B, Nq, Nk)."""
        return self.params[self.params.index("workspace_bytes") + 1:]


def parse(path):
    text = open(path).read()
    docs = {}
    for name, body in _COMMENT.findall(text):
        lines = [l.strip(" *") for l in body.splitlines() if l.strip(" *")]
        buffers = {}
        for line in lines[:-1]:
            buffer, rest = line.split(": ", 1)
            dims, dtype = rest.rsplit(" ", 1)
            buffers[buffer] = (dims.strip("[]").split(", "), dtype)
        docs[name] = (buffers, lines[-1])
    launches = []
    for name, params in _PROTOTYPE.findall(text):
        names = [p.split()[-1].lstrip("*") for p in params.split(", ")]
        buffers, summary = docs[name]
        launches.append(Launch(name, names, buffers, summary))
    return launches


def extent(dim, sizes):
    """The value of one dim of a buffer's shape: a number or a size name."""
    return int(dim) if dim.isdigit() else sizes[dim]


def dense_strides(shape):
    strides, step = [], 1
    for n in reversed(shape):
        strides.insert(0, step)
        step *= max(n, 1)
    return strides
