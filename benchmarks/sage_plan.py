"""Runs a sage launch plan (docs/LaunchPlan.md) from Python.

The benchmark needs sage's kernels and PyTorch's attention in one process:
this executes a plan with the CUDA Driver API (cuda-bindings) on buffers
that are PyTorch tensors, on PyTorch's current stream.
"""

import ctypes
import json
import math
import os

import torch
from cuda.bindings import driver as cu

TORCH_TYPES = {
    "f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32,
    "i8": torch.int8, "f8E4M3FN": torch.uint8, "i32": torch.int32,
    "i1": torch.bool,
}


def _check(result):
    err = result[0] if isinstance(result, tuple) else result
    if err != cu.CUresult.CUDA_SUCCESS:
        _, name = cu.cuGetErrorName(err)
        raise RuntimeError(f"CUDA driver call failed: {name.decode()}")
    return result[1] if isinstance(result, tuple) and len(result) == 2 else result


def evaluate(size, sizes):
    """Evaluates a plan size (docs/LaunchPlan.md): an integer, a size name,
    {"cdiv": [a, b]} or {"mul": [a, b]} of sizes."""
    if isinstance(size, int):
        return size
    if isinstance(size, str):
        return sizes[size]
    (op, (a, b)), = size.items()
    a, b = evaluate(a, sizes), evaluate(b, sizes)
    return -(-a // b) if op == "cdiv" else a * b


class Plan:
    """A loaded plan: the module, its kernels, and the plan's description."""

    def __init__(self, path):
        with open(path) as f:
            self.desc = json.load(f)
        # PyTorch's first allocation makes the primary context current.
        torch.zeros(1, device="cuda")
        _check(cu.cuInit(0))
        with open(os.path.join(os.path.dirname(path), self.desc["ptx"]), "rb") as f:
            ptx = f.read() + b"\0"
        self.module = _check(cu.cuModuleLoadData(ptx))
        self.functions = {}
        for k in self.desc["kernels"]:
            if k["name"] not in self.functions:
                self.functions[k["name"]] = _check(
                    cu.cuModuleGetFunction(self.module, k["name"].encode()))
            # Dynamic shared memory past the default 48 KiB needs an opt-in
            # (the attention kernel's K/V stages at D > 128).
            shared = int(k["shared_bytes"])
            if shared > 48 * 1024:
                _check(cu.cuFuncSetAttribute(
                    self.functions[k["name"]],
                    cu.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    shared))

    @property
    def rank(self):
        return len(self.desc["layout"])

    def sizes(self, B, H, Hkv, Nq, Nk):
        if self.rank == 3:
            assert H == Hkv, "a rank-3 plan needs H == Hkv"
            return dict(B=B * H, H=1, Hkv=1, Nq=Nq, Nk=Nk)
        return dict(B=B, H=H, Hkv=Hkv, Nq=Nq, Nk=Nk)

    def allocate(self, sizes, q, k, v, mask=None):
        """Buffers for one run; q, k, v are [B, H, N, D] tensors, mask one
        shaped as the plan's `mask` (one byte per element for i1)."""
        buffers = {}
        for b in self.desc["buffers"]:
            shape = [evaluate(s, sizes) for s in b["shape"]]
            if b["name"] in ("q", "k", "v"):
                buffers[b["name"]] = {"q": q, "k": k, "v": v}[b["name"]].contiguous()
            elif b["name"] == "mask":
                assert mask is not None and list(mask.shape) == shape, \
                    f"the plan needs a mask of shape {shape}"
                assert mask.dtype == TORCH_TYPES[b["type"]], \
                    f"the plan needs a {b['type']} mask, got {mask.dtype}"
                buffers["mask"] = mask.contiguous()
            elif b["kind"] == "output":
                buffers[b["name"]] = torch.full(
                    shape, float("nan"), dtype=TORCH_TYPES[b["type"]], device="cuda")
            else:
                buffers[b["name"]] = torch.empty(
                    shape, dtype=TORCH_TYPES[b["type"]], device="cuda")
        return buffers

    def launches(self, sizes, buffers, only=None):
        """(function, grid, block, dynamic shared bytes, params) of every
        launch, for replay."""
        result = []
        for k in self.desc["kernels"]:
            if only and only not in k["name"]:
                continue
            grid = [evaluate(g, sizes) for g in k["grid"]]
            if 0 in grid:
                continue
            values, types = [], []
            for p in k["params"]:
                if "buffer" in p:
                    values.append(buffers[p["buffer"]].data_ptr())
                    types.append(ctypes.c_void_p)
                else:
                    values.append(evaluate(p["i32"], sizes))
                    types.append(ctypes.c_int)
            result.append((self.functions[k["name"]], grid, k["block"],
                           int(k["shared_bytes"]),
                           (tuple(values), tuple(types))))
        return result

    def zero(self, buffers):
        for b in self.desc["buffers"]:
            if b.get("init") == "zero":
                buffers[b["name"]].zero_()

    def run(self, launches, buffers=None):
        if buffers is not None:
            self.zero(buffers)
        stream = cu.CUstream(torch.cuda.current_stream().cuda_stream)
        for func, grid, block, shared, params in launches:
            _check(cu.cuLaunchKernel(func, *grid, *block, shared, stream,
                                     params, 0))


def reference(q, k, v, causal, scale, top_left=False):
    """FP64 attention on the GPU; causal aligned bottom-right (query i sees
    keys j <= i + Nk - Nq), or top-left (j <= i) with `top_left`."""
    q, k, v = q.double(), k.double(), v.double()
    ratio = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(ratio, dim=1)
    v = v.repeat_interleave(ratio, dim=1)
    s = torch.matmul(q, k.transpose(-1, -2)) * scale
    if causal:
        nq, nk = q.shape[2], k.shape[2]
        i = torch.arange(nq, device=q.device)[:, None]
        j = torch.arange(nk, device=q.device)[None, :]
        s = s.masked_fill(j > i + (0 if top_left else nk - nq),
                          float("-inf"))
    p = torch.softmax(s, dim=-1).nan_to_num(0.0)
    return torch.matmul(p, v)


def metrics(out, ref):
    o, r = out.double().flatten(), ref.double().flatten()
    cos = (o @ r / (o.norm() * r.norm())).item()
    rel_l1 = ((o - r).abs().sum() / r.abs().sum()).item()
    rmse = (o - r).pow(2).mean().sqrt().item()
    nonfinite = (~torch.isfinite(out)).sum().item()
    return cos, rel_l1, rmse, nonfinite


def make_inputs(B, H, Hkv, Nq, Nk, D, dtype, dist, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    q = torch.randn(B, H, Nq, D, generator=g, device="cuda")
    k = torch.randn(B, Hkv, Nk, D, generator=g, device="cuda")
    v = torch.randn(B, Hkv, Nk, D, generator=g, device="cuda")
    if dist == "outliers":
        q += 4 * torch.randn(D, generator=g, device="cuda")
        k += 8 * torch.randn(D, generator=g, device="cuda")
        v += 2 * torch.randn(D, generator=g, device="cuda")
    return q.to(dtype), k.to(dtype), v.to(dtype)
