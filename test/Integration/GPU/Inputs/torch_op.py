"""sage_attention.attention on the GPU against SDPA in float64
(docs/Launchers.md, "PyTorch").

usage: torch_op.py PYTHONPATH

Each case prints CosSim and RelL1 against torch's SDPA on float64 copies
and PASS or FAIL against its bar; then eager against torch.compile and a
CUDA graph replay, and the errors of what the op refuses.
"""

import math
import sys

import torch

sys.path.insert(0, sys.argv[1])
from sage_attention import attention  # noqa: E402
from sage_attention.ops import _memory_layouts  # noqa: E402

dev = torch.device("cuda")


def inputs(B, H, Hkv, Nq, Nk, D, dtype, bnhd, seed, outliers=False):
    g = torch.Generator(device=dev).manual_seed(seed)

    def make(heads, tokens):
        x = torch.randn(B, tokens, heads, D, generator=g, device=dev)
        if outliers:
            x = x + 12 * torch.randn(D, generator=g, device=dev) * (
                torch.rand(D, generator=g, device=dev) < 0.1)
        x = x.to(dtype)
        # [B, N, H, D] memory seen as [B, H, N, D], or dense [B, H, N, D].
        return x.transpose(1, 2) if bnhd else x.transpose(1, 2).contiguous()

    return make(H, Nq), make(Hkv, Nk), make(Hkv, Nk)


def padding_mask(B, Nq, Nk, dtype=torch.bool):
    """[B, 1, 1, Nk]: batch b keeps its first Nk - b * Nk / (2 B) keys (at
    least half); as an additive mask of `dtype`, 0 or -inf plus a small
    bias, [B, 1, Nq, Nk]."""
    keep = torch.arange(Nk, device=dev)[None, :] < torch.tensor(
        [Nk - b * (Nk // (2 * B)) for b in range(B)], device=dev)[:, None]
    if dtype == torch.bool:
        return keep[:, None, None, :]
    g = torch.Generator(device=dev).manual_seed(5)
    bias = 0.5 * torch.randn(B, 1, Nq, Nk, generator=g, device=dev)
    return bias.masked_fill(~keep[:, None, None, :], float("-inf")).to(dtype)


def check(label, B=2, H=4, Hkv=4, Nq=333, Nk=700, D=128,
          dtype=torch.float16, bnhd=False, causal=False, recipe="auto",
          outliers=False, mask=None):
    q, k, v = inputs(B, H, Hkv, Nq, Nk, D, dtype, bnhd, 1, outliers)
    o = attention(q, k, v, attn_mask=mask, is_causal=causal,
                  enable_gqa=Hkv != H, recipe=recipe)
    torch.cuda.synchronize()
    ref_mask = mask if mask is None or mask.dtype == torch.bool else \
        mask.double()
    ref = torch.nn.functional.scaled_dot_product_attention(
        q.double(), k.double(), v.double(), attn_mask=ref_mask,
        is_causal=causal, enable_gqa=Hkv != H)
    a, r = o.double().flatten(), ref.flatten()
    cos = torch.nn.functional.cosine_similarity(a, r, dim=0).item()
    rel = ((a - r).abs().sum() / r.abs().sum()).item()
    # O comes back in the inputs' memory order (with N = 1 both orders are
    # one).
    layout_kept = ("bnhd" if bnhd else "bhnd") in _memory_layouts(o)
    bars = (0.9995, 0.03) if outliers else (0.999, 0.05)
    ok = (o.shape == ref.shape and layout_kept and
          torch.isfinite(o).all().item() and cos >= bars[0] and
          rel <= bars[1])
    print(f"{label}: CosSim {cos:.6f} RelL1 {rel:.4f} "
          f"{'PASS' if ok else 'FAIL'}")


q, k, v = inputs(1, 1, 1, 64, 64, 128, torch.float16, False, 2)
attention(q, k, v)
from sage_attention.ops import _launchers  # noqa: E402
print("library:", next(iter(_launchers))[0])
check("bhnd f16 d128 q+k smoothing", recipe="int8-fp8")
check("bhnd f16 d128 outliers", outliers=True)
check("bnhd bf16 d64 view", D=64, dtype=torch.bfloat16, bnhd=True)
check("causal top-left Nq < Nk", causal=True, Nq=300, Nk=700)
check("causal top-left Nq > Nk", causal=True, Nq=700, Nk=300, D=64)
check("gqa 8/2 q+k smoothing", H=8, Hkv=2, recipe="int8-fp8")
check("bnhd causal q+k smoothing outliers", bnhd=True, causal=True,
      recipe="int8-fp8", outliers=True)
# A decode step with one K/V head in [B, N, H, D] memory: Q and K fit both
# orders (a dim of extent 1), V only one.
check("bnhd decode mqa", bnhd=True, Nq=1, H=8, Hkv=1)
# SDPA's masks: a bool padding mask [B, 1, 1, Nk] (materialized as
# [B, 1, Nq, Nk]) and an additive one in [B, N, H, D] memory with GQA.
check("bool padding mask", mask=padding_mask(2, 333, 700))
check("additive mask bnhd bf16 d64 gqa", D=64, dtype=torch.bfloat16,
      bnhd=True, H=8, Hkv=2, mask=padding_mask(2, 333, 700, torch.bfloat16))

# torch.compile (the fake implementation) and a CUDA graph replay give the
# eager result bit for bit.
q, k, v = inputs(2, 4, 4, 256, 256, 128, torch.float16, False, 3)
eager = attention(q, k, v)
compiled = torch.compile(lambda q, k, v: attention(q, k, v) * 2,
                         fullgraph=True)(q, k, v)
print("torch.compile:", "PASS" if torch.equal(compiled, eager * 2) else
      "FAIL")
stream = torch.cuda.Stream()
stream.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(stream):
    attention(q, k, v)  # warm up on the capture stream
torch.cuda.current_stream().wait_stream(stream)
graph = torch.cuda.CUDAGraph()
with torch.cuda.graph(graph):
    captured = attention(q, k, v)
graph.replay()
torch.cuda.synchronize()
print("cuda graph:", "PASS" if torch.equal(captured, eager) else "FAIL")

# What the op refuses.
q, k, v = inputs(1, 2, 2, 64, 64, 128, torch.float16, False, 4)
keep = torch.ones(1, 2, 64, 64, dtype=torch.bool, device=dev)
refusals = [
    ("float32 mask", lambda: attention(q, k, v, attn_mask=torch.ones(
        64, 64, device=dev))),
    ("mask shape", lambda: attention(q, k, v, attn_mask=keep[..., :32])),
    ("mask and causal", lambda: attention(q, k, v, attn_mask=keep,
                                          is_causal=True)),
    # One mask per head is compiled on first use, where sage is installed.
    ("per-head mask", lambda: attention(q, k, v, attn_mask=keep)),
    ("scale", lambda: attention(q, k, v, scale=0.5)),
    ("strided", lambda: attention(q[..., ::2], k[..., ::2], v[..., ::2])),
    ("head dim", lambda: attention(q[..., :96].contiguous(),
                                   k[..., :96].contiguous(),
                                   v[..., :96].contiguous())),
    ("gqa", lambda: attention(q, k[:, :1], v[:, :1])),
    # 8 bytes past the allocation's start: the quantizers load 16 at a time.
    ("misaligned", lambda: attention(
        torch.empty(q.numel() + 4, dtype=q.dtype, device=dev)[4:]
        .view(q.shape).copy_(q), k, v)),
    ("float32", lambda: attention(q.float(), k.float(), v.float())),
    ("recipe", lambda: attention(q, k, v, recipe="int4")),
]
for label, call in refusals:
    try:
        call()
        print(f"refused {label}: no")
    except (ValueError, RuntimeError, NotImplementedError) as error:
        print(f"refused {label}: {type(error).__name__}: {error}")
