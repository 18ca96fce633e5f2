#!/usr/bin/env python3
"""Edge-case numerics of sage's kernels against FP64 and PyTorch SDPA on the
same inputs. Run on a GPU machine from
the repository root with a build tree carried there:

  python3 benchmarks/edge_numerics.py build

Each case writes Q, K, V as .npy, runs sage-run on them (--out), and
compares sage's output and SDPA's (f16 inputs, PyTorch's own dispatch)
with attention in float64, over the elements where both are finite; the
non-finite counts are reported apart. Prints a markdown table.
"""
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch
import torch.nn.functional as F


def reference(q, k, v, mask):
    """float64 attention; rows that see no key are 0 (sage's convention)."""
    q, k, v = q.double(), k.double(), v.double()
    s = (q @ k.transpose(-1, -2)) / math.sqrt(q.shape[-1])
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf"))
    m = s.amax(-1, keepdim=True)
    m = torch.where(torch.isfinite(m), m, torch.zeros_like(m))
    p = torch.exp(s - m)
    l = p.sum(-1, keepdim=True)
    return torch.where(l > 0, (p @ v) / l, torch.zeros_like(l))


def metrics(out, ref):
    """CosSim, RelL1, count of non-finite values (docs/Algorithm.md 7), and
    how many values are finite where FP64 is not (a value where attention
    has none)."""
    out, ref = out.double().flatten(), ref.double().flatten()
    bad = int((~torch.isfinite(out)).sum())
    missed = int((torch.isfinite(out) & ~torch.isfinite(ref)).sum())
    finite = torch.isfinite(out) & torch.isfinite(ref)
    o, r = out[finite], ref[finite]
    cos = float((o * r).sum() / (o.norm() * r.norm()).clamp_min(1e-300))
    rel = float((o - r).abs().sum() / r.abs().sum().clamp_min(1e-300))
    return cos, rel, bad, missed


def run_sage(build, plan, q, k, v, hkv):
    with tempfile.TemporaryDirectory() as work:
        paths = {}
        for name, t in (("q", q), ("k", k), ("v", v)):
            paths[name] = os.path.join(work, name + ".npy")
            host = t.cpu()
            if host.dtype == torch.bfloat16:  # numpy has no bf16: f32 holds it
                host = host.float()
            np.save(paths[name], host.numpy())
        out = os.path.join(work, "o.npy")
        b, h, nq, _ = q.shape
        cmd = [os.path.join(build, "bin", "sage-run"),
               os.path.join(build, "kernels", plan), "--B", str(b),
               "--H", str(h), "--Hkv", str(hkv), "--Nq", str(nq),
               "--Nk", str(k.shape[2]), "--q", paths["q"], "--k", paths["k"],
               "--v", paths["v"], "--out", out, "--no-reference", "--quiet",
               "--non-finite", "propagate"]
        done = subprocess.run(cmd, capture_output=True, text=True)
        note = ""
        if done.returncode != 0:
            lines = (done.stderr or done.stdout).strip().splitlines()
            note = lines[-1] if lines else f"exit {done.returncode}"
        # sage-run writes the output before it reports a failed check.
        if not os.path.exists(out):
            return None, note
        return torch.from_numpy(np.load(out)).cuda(), note


def case(name, b, h, nq, nk, d=128, causal=False, scale_qk=1.0, v_scale=1.0,
         poison=None, seed=0, dtype=torch.float16, plan=None):
    g = torch.Generator(device="cuda").manual_seed(seed)
    q = torch.randn(b, h, nq, d, device="cuda", generator=g) * scale_qk
    k = torch.randn(b, h, nk, d, device="cuda", generator=g) * scale_qk
    v = torch.randn(b, h, nk, d, device="cuda", generator=g) * v_scale
    if dtype == torch.float16:  # stay inside f16's range
        v = v.clamp(-65000.0, 65000.0)
    q, k, v = q.to(dtype), k.to(dtype), v.to(dtype)
    if poison:
        tensor, value = poison
        {"q": q, "k": k, "v": v}[tensor][0, 0, 5, 7] = value
    return dict(name=name, q=q, k=k, v=v, causal=causal, dtype=dtype,
                plan=plan)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    cases = [
        case("randn", 1, 8, 2048, 2048),
        case("logits x36 (Q, K x 6)", 1, 8, 2048, 2048, scale_qk=6.0),
        case("causal Nq > Nk (rows that see no key)", 1, 4, 1024, 512,
             causal=True),
        case("decode Nq = 1", 4, 8, 1, 4096),
        case("Nk = 1", 1, 8, 512, 1),
        case("V near fp16 max (abs V up to 65000)", 1, 8, 1024, 1024,
             v_scale=15000.0),
        case("Q, K x 200 in f16 (logits up to ~2e5)", 1, 8, 1024, 1024,
             scale_qk=200.0),
        case("bf16, abs V ~ 1e6 (beyond f16)", 1, 8, 1024, 1024,
             v_scale=1.0e6, dtype=torch.bfloat16),
        case("NaN in one Q element", 1, 4, 256, 256, poison=("q", float("nan"))),
        case("NaN in one Q element, no Q smoothing", 1, 4, 256, 256,
             poison=("q", float("nan")),
             plan="attention_d128_f16_no_q_smoothing.json"),
        case("-Inf in one Q element", 1, 4, 256, 256,
             poison=("q", float("-inf"))),
        case("Inf in one K element", 1, 4, 256, 256, poison=("k", float("inf"))),
        case("NaN in one V element", 1, 4, 256, 256, poison=("v", float("nan"))),
    ]
    print("| case | sage CosSim | sage RelL1 | sage non-finite | "
          "sage finite where FP64 is not | SDPA CosSim | SDPA RelL1 | "
          "SDPA non-finite | SDPA finite where FP64 is not | note |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for c in cases:
        q, k, v = c["q"], c["k"], c["v"]
        nq, nk = q.shape[2], k.shape[2]
        mask = None
        if c["causal"]:
            i = torch.arange(nq, device="cuda")[:, None]
            j = torch.arange(nk, device="cuda")[None, :]
            mask = j <= i + (nk - nq)  # sage's bottom-right alignment
        ref = reference(q, k, v, mask)
        kind = "bf16" if c["dtype"] == torch.bfloat16 else "f16"
        plan = c["plan"] or (
            f"attention_d128_{kind}{'_causal' if c['causal'] else ''}.json")
        out, error = run_sage(build, plan, q, k, v, q.shape[1])
        sdpa = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        s_cos, s_rel, s_bad, s_missed = metrics(sdpa.float(), ref)
        sdpa_cells = f"{s_cos:.6f} | {s_rel:.4f} | {s_bad} | {s_missed}"
        if out is None:
            print(f"| {c['name']} | - | - | - | - | {sdpa_cells} | {error} |")
            continue
        cos, rel, bad, missed = metrics(out, ref)
        print(f"| {c['name']} | {cos:.6f} | {rel:.4f} | {bad} | {missed} | "
              f"{sdpa_cells} | {error} |", flush=True)


if __name__ == "__main__":
    main()
