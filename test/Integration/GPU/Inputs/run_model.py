"""Runs the launchers of a whole model's library on the GPU, bound from its
generated header alone (docs/Launchers.md, "Whole models"), against FP64:

1. each launcher on randn and channel-outlier inputs of the shapes its
   header comment gives (a padding mask where it takes one), O poisoned
   with NaN, on a side stream;
2. the decoder layer of examples/decoder_layer.mlir: its other ops in
   PyTorch (f16 matmuls, f32 layer-norm statistics), its two attentions
   through the launchers on the [B, N, H, D] views of the projections, as
   the rewritten model passes them (no copies), against the layer in FP64.

usage: run_model.py LIB HEADER PYTHONPATH
"""

import math
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "Launchers", "Inputs"))
import header_abi  # noqa: E402

TYPES = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}
DEV = torch.device("cuda")


def metrics(out, ref):
    out, ref = out.double().flatten(), ref.double().flatten()
    cos = torch.nn.functional.cosine_similarity(out, ref, dim=0).item()
    rel = ((out - ref).abs().sum() / ref.abs().sum()).item()
    rmse = (out - ref).pow(2).mean().sqrt().item()
    return cos, rel, rmse


def reference_attention(q, k, v, mask, scale):
    """FP64 attention of [B, N, H, D] tensors, with an additive mask
    [B, 1, Nq, Nk]."""
    q, k, v = (x.double().transpose(1, 2) for x in (q, k, v))
    s = torch.einsum("bhqd,bhkd->bhqk", q, k) * scale
    if mask is not None:
        s = s + mask.double()
    p = torch.softmax(s, dim=-1)
    return torch.einsum("bhqk,bhkd->bhqd", p, v).transpose(1, 2)


class Bound:
    """One launcher, called with tensors by the names its header gives."""

    def __init__(self, library, launch, stream):
        from sage_attention.launcher import Launcher
        self.launch = launch
        self.launcher = Launcher(library, launch.name)
        self.stream = stream
        self.scale = float(launch.summary.rsplit("scale ", 1)[1].split(",")[0])

    def __call__(self, sizes, **tensors):
        values = [sizes[s] for s in self.launch.sizes()]
        workspace = torch.empty(self.launcher.workspace_size(*values),
                                dtype=torch.uint8, device=DEV)
        args = [self.stream.cuda_stream]
        for param in self.launch.params[1:self.launch.params.index("workspace")]:
            if not param.endswith("_strides"):
                t = tensors[param]
                dims, dtype = self.launch.buffers[param]
                assert list(t.shape) == [header_abi.extent(d, sizes) for d in dims]
                assert t.dtype == TYPES[dtype], (param, t.dtype, dtype)
                args += [t.data_ptr(), list(t.stride())]
        args += [workspace.data_ptr(), workspace.numel()] + values
        # The caller's tensors were made on the current stream.
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            self.launcher.launch(*args)
        torch.cuda.current_stream().wait_stream(self.stream)
        # Keep the workspace alive until the kernels are done.
        workspace.record_stream(self.stream)


def padding_mask(B, Nq, Nk, g):
    """Additive [B, 1, Nq, Nk]: -inf past each batch's key length (at least
    half the keys kept), and a small bias elsewhere."""
    mask = 0.5 * torch.randn(B, 1, Nq, Nk, generator=g, device=DEV)
    for b in range(B):
        keep = Nk - b * (Nk // (2 * B))
        mask[b, :, :, keep:] = float("-inf")
    return mask


def check_launchers(bound, sizes):
    for name, fn in bound.items():
        launch = fn.launch
        for label, outlier in (("randn", False), ("outliers", True)):
            g = torch.Generator(device=DEV).manual_seed(1)
            tensors = {}
            for buffer, (dims, dtype) in launch.buffers.items():
                shape = [header_abi.extent(d, sizes) for d in dims]
                if buffer == "o":
                    tensors[buffer] = torch.full(shape, float("nan"),
                                                 dtype=TYPES[dtype], device=DEV)
                elif buffer == "mask":
                    tensors[buffer] = padding_mask(
                        sizes["B"], sizes["Nq"], sizes["Nk"], g).to(TYPES[dtype])
                else:
                    x = torch.randn(shape, generator=g, device=DEV)
                    if outlier:
                        D = shape[-1]
                        x = x + 12 * torch.randn(D, generator=g, device=DEV) * (
                            torch.rand(D, generator=g, device=DEV) < 0.1)
                    tensors[buffer] = x.to(TYPES[dtype])
            fn(sizes, **tensors)
            torch.cuda.synchronize()
            ref = reference_attention(tensors["q"], tensors["k"], tensors["v"],
                                      tensors.get("mask"), fn.scale)
            o = tensors["o"]
            nonfinite = (~torch.isfinite(o)).sum().item()
            cos, rel, rmse = metrics(o, ref)
            bars = (0.999, 0.05) if not outlier else (0.9995, 0.03)
            ok = nonfinite == 0 and cos >= bars[0] and rel <= bars[1]
            print(f"{name} {label}: non-finite {nonfinite} CosSim {cos:.6f} "
                  f"RelL1 {rel:.4f} RMSE {rmse:.5f}: {'PASS' if ok else 'FAIL'}")


def decoder_layer(x, memory, mask, w, attention, dtype):
    """examples/decoder_layer.mlir in PyTorch; `attention(i, q, k, v, mask)`
    computes the i-th attention on [B, N, H, D] tensors."""
    B, N, E = x.shape
    H, D = 4, E // 4

    def layer_norm(t, g, b):
        tf = t.float() if dtype != torch.float64 else t
        mean = tf.mean(-1, keepdim=True)
        var = (tf - mean).pow(2).mean(-1, keepdim=True)
        y = (tf - mean) * torch.rsqrt(var + 1e-5) * g.to(tf.dtype) + b.to(tf.dtype)
        return y.to(dtype)

    def heads(t):  # [B * N, E] rows -> the model's [B, N, H, D] view
        return t.view(B, -1, H, D)

    def merge(o):
        return o.reshape(B * o.shape[1], E)

    x2, m2 = x.reshape(B * N, E), memory.reshape(-1, E)
    h = layer_norm(x2, w["g1"], w["b1"])
    o = attention(0, heads(h @ w["wq"].T), heads(h @ w["wk"].T),
                  heads(h @ w["wv"].T), mask)
    x1 = x2 + merge(o) @ w["wo"].T
    h2 = layer_norm(x1, w["g2"], w["b2"])
    o2 = attention(1, heads(h2 @ w["cq"].T), heads(m2 @ w["ck"].T),
                   heads(m2 @ w["cv"].T), None)
    return (x1 + merge(o2) @ w["co"].T).view(B, N, E)


def check_layer(bound, B=2, N=333, M=700, E=256):
    g = torch.Generator(device=DEV).manual_seed(2)
    x = torch.randn(B, N, E, generator=g, device=DEV)
    memory = torch.randn(B, M, E, generator=g, device=DEV)
    mask = padding_mask(B, N, N, g)
    w = {n: torch.randn(E, E, generator=g, device=DEV) / math.sqrt(E)
         for n in ("wq", "wk", "wv", "wo", "cq", "ck", "cv", "co")}
    for n in ("g1", "g2"):
        w[n] = 1 + 0.1 * torch.randn(E, generator=g, device=DEV)
    for n in ("b1", "b2"):
        w[n] = 0.1 * torch.randn(E, generator=g, device=DEV)
    launchers = [bound[name] for name in sorted(bound)]

    def sage_attention(i, q, k, v, m):
        assert q.is_contiguous() and k.is_contiguous() and v.is_contiguous()
        Bq, Nq, H, D = q.shape
        sizes = {"B": Bq, "H": H, "Hkv": k.shape[2], "Nq": Nq, "Nk": k.shape[1]}
        o = torch.full_like(q, float("nan"))
        tensors = {"q": q, "k": k, "v": v, "o": o}
        if m is not None:
            tensors["mask"] = m
        launchers[i](sizes, **tensors)
        return o

    def exact_attention(i, q, k, v, m):
        return reference_attention(q, k, v, m, launchers[i].scale)

    h = torch.float16
    out = decoder_layer(x.to(h), memory.to(h), mask,
                        {n: t.to(h) for n, t in w.items()}, sage_attention, h)
    torch.cuda.synchronize()
    d = torch.float64
    ref = decoder_layer(x.to(d), memory.to(d), mask.to(d),
                        {n: t.to(d) for n, t in w.items()}, exact_attention, d)
    nonfinite = (~torch.isfinite(out)).sum().item()
    cos, rel, rmse = metrics(out, ref)
    ok = nonfinite == 0 and cos >= 0.9995 and rel <= 0.02
    print(f"decoder layer B={B} N={N} M={M}: non-finite {nonfinite} "
          f"CosSim {cos:.6f} RelL1 {rel:.4f} RMSE {rmse:.5f}: "
          f"{'PASS' if ok else 'FAIL'}")


def main():
    library, header, pythonpath = sys.argv[1:4]
    sys.path.insert(0, pythonpath)
    stream = torch.cuda.Stream()
    bound = {l.name: Bound(library, l, stream) for l in header_abi.parse(header)}
    check_launchers(bound, {"B": 2, "H": 4, "Hkv": 4, "Nq": 333, "Nk": 700})
    check_layer(bound)


if __name__ == "__main__":
    main()
