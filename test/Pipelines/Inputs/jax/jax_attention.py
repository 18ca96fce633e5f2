#!/usr/bin/env python3
"""Attention as JAX writes it in StableHLO, and JAX's own results.

Run on a machine with JAX (the GPU machine has jax 0.11 and its MLIR
bindings):

  python3 jax_attention.py export DIR   # DIR/<case>.mlir, generic op form
  python3 jax_attention.py check KERNELS SAGE_RUN
                                        # sage's kernels vs JAX and FP64

`export` lowers each case with jax.jit(...).lower(...) and prints the
StableHLO module in MLIR's generic op form, which sage-opt parses without
the StableHLO dialect (docs/Frontends.md); the committed
test/Pipelines/Inputs/jax/*.mlir files come from it. `check` draws the
same seeded inputs, computes JAX's output on its default device, runs the
kernel sage compiled from the case's StableHLO (KERNELS/jax_<case>, the
sage-kernels target's build/kernels) with sage-run on the same inputs (.npy; f32 holds
f16 / bf16 values exactly), and prints a markdown table: sage against
FP64 (sage-run's own check, which also fails below its bars) and against
JAX, and JAX against FP64 (numpy, with JAX's mask semantics).
"""

import os
import subprocess
import sys
import tempfile
import zlib

import jax
import jax.numpy as jnp
import numpy as np


def dpa(**options):
    """jax.nn.dot_product_attention with XLA's lowering (BTNH)."""

    def f(q, k, v, *extra):
        kw = dict(options)
        names = kw.pop("extra", ())
        for name, value in zip(names, extra):
            kw[name] = value
        return jax.nn.dot_product_attention(q, k, v, implementation="xla", **kw)

    f.causal = options.get("is_causal", False)
    return f


def einsum_bnth(q, k, v):
    """softmax(einsum) on [B, N, T, H], scale folded into Q."""
    s = jnp.einsum("bnth,bnsh->bnts", q * (q.shape[-1] ** -0.5), k)
    p = jax.nn.softmax(s.astype(jnp.float32), axis=-1).astype(v.dtype)
    return jnp.einsum("bnts,bnsh->bnth", p, v)


def einsum_btnh_spelled(q, k, v):
    """The softmax spelled out in f32 on [B, T, N, H] inputs."""
    s = jnp.einsum("btnh,bsnh->bnts", q, k,
                   preferred_element_type=jnp.float32)
    s = s / np.float32(np.sqrt(q.shape[-1]))
    e = jnp.exp(s - jnp.max(s, axis=-1, keepdims=True))
    p = (e / jnp.sum(e, axis=-1, keepdims=True)).astype(v.dtype)
    return jnp.einsum("bnts,bsnh->btnh", p, v)


# name: (function, layout, B, Nq, Nk, H, Hkv, D, dtype, extras)
# extras: "bias" (B, H, Nq, Nk) f16, "mask" (B, 1, Nq, Nk) bool.
CASES = {
    "dpa_plain": (dpa(), "btnh", 2, 1024, 1024, 8, 8, 128, "f16", ()),
    "dpa_bf16_d64": (dpa(), "btnh", 2, 1000, 1500, 8, 8, 64, "bf16", ()),
    "dpa_causal": (dpa(is_causal=True), "btnh", 2, 1024, 1024, 8, 8, 128,
                   "f16", ()),
    "dpa_causal_nq_lt_nk": (dpa(is_causal=True), "btnh", 2, 512, 1024, 8, 8,
                            128, "f16", ()),
    "dpa_causal_nq_gt_nk": (dpa(is_causal=True), "btnh", 2, 1024, 512, 8, 8,
                            128, "f16", ()),
    "dpa_gqa": (dpa(), "btnh", 2, 1024, 1024, 8, 2, 128, "f16", ()),
    "dpa_bias": (dpa(extra=("bias",)), "btnh", 2, 1024, 1024, 8, 8, 128,
                 "f16", ("bias",)),
    "dpa_mask": (dpa(extra=("mask",)), "btnh", 2, 1024, 1024, 8, 8, 128,
                 "f16", ("mask",)),
    "einsum_bnth": (einsum_bnth, "bnth", 2, 1024, 1024, 8, 8, 64, "f16", ()),
    "einsum_btnh_spelled": (einsum_btnh_spelled, "btnh", 2, 1024, 1024, 8, 8,
                            128, "f16", ()),
}

DTYPES = {"f16": jnp.float16, "bf16": jnp.bfloat16}


def inputs(name):
    _, layout, b, nq, nk, h, hkv, d, dtype, extras = CASES[name]
    rng = np.random.default_rng(zlib.crc32(name.encode()))

    def shape(n, heads):
        return (b, n, heads, d) if layout == "btnh" else (b, heads, n, d)

    arrays = {
        "q": rng.standard_normal(shape(nq, h), dtype=np.float32),
        "k": rng.standard_normal(shape(nk, hkv), dtype=np.float32),
        "v": rng.standard_normal(shape(nk, hkv), dtype=np.float32),
    }
    if "bias" in extras:
        arrays["bias"] = rng.standard_normal((b, h, nq, nk), dtype=np.float32)
    if "mask" in extras:
        keep = rng.random((b, 1, nq, nk)) < 0.75
        keep[..., 0] = True  # every row keeps a key: JAX and sage agree
        arrays["mask"] = keep
    cast = {k: (jnp.asarray(v) if v.dtype == np.bool_ else
                jnp.asarray(v, DTYPES[dtype])) for k, v in arrays.items()}
    return [cast[k] for k in ("q", "k", "v") + extras]


def fp64_attention(name, arrays):
    """Attention in float64 with JAX's semantics: BTNH or BNTH, GQA by
    repeated heads, an additive bias, a keep-mask, top-left causal."""
    fn, layout, b, nq, nk, h, hkv, d, dtype, extras = CASES[name]
    q, k, v = (np.asarray(arrays[n], np.float64) for n in "qkv")
    if layout == "btnh":
        q, k, v = (x.transpose(0, 2, 1, 3) for x in (q, k, v))
    k = np.repeat(k, h // hkv, axis=1)
    v = np.repeat(v, h // hkv, axis=1)
    s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(d)
    if "bias" in arrays:
        s = s + np.asarray(arrays["bias"], np.float64)
    keep = np.ones(s.shape, bool)
    if "mask" in arrays:
        keep &= np.asarray(arrays["mask"])
    if getattr(fn, "causal", False):
        keep &= np.tril(np.ones((nq, nk), bool))
    s = np.where(keep, s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    o = (p / p.sum(-1, keepdims=True)) @ v
    return o.transpose(0, 2, 1, 3) if layout == "btnh" else o


def metrics(out, ref):
    """CosSim and RelL1 (docs/Algorithm.md section 7)."""
    out, ref = np.ravel(out).astype(np.float64), np.ravel(ref)
    cos = float(out @ ref / (np.linalg.norm(out) * np.linalg.norm(ref)))
    return cos, float(np.abs(out - ref).sum() / np.abs(ref).sum())


def check(kernels, sage_run):
    print("| case | sage vs FP64 (sage-run) | sage vs JAX CosSim | "
          "sage vs JAX RelL1 | JAX vs FP64 CosSim | JAX vs FP64 RelL1 | "
          "sage-run |")
    print("|---|---|---|---|---|---|---|")
    status = 0
    for name, case in CASES.items():
        fn, layout, b, nq, nk, h, hkv, d, dtype, extras = case
        plan = os.path.join(kernels, f"jax_{name}.json")
        if not os.path.exists(plan):
            continue  # not compiled by sage-kernels
        args = inputs(name)
        o_jax = np.asarray(jax.jit(fn)(*args).astype(jnp.float32))
        names = ("q", "k", "v") + extras
        arrays = {n: np.asarray(a if a.dtype == jnp.bool_ else
                                a.astype(jnp.float32))
                  for n, a in zip(names, args)}
        with tempfile.TemporaryDirectory() as work:
            paths = {}
            for n, a in arrays.items():
                paths[n] = os.path.join(work, n + ".npy")
                np.save(paths[n], a)
            out = os.path.join(work, "o.npy")
            cmd = [sage_run, plan,
                   "--ptx", os.path.join(kernels, f"jax_{name}.ptx"),
                   "--B", str(b), "--H", str(h), "--Hkv", str(hkv),
                   "--Nq", str(nq), "--Nk", str(nk),
                   "--q", paths["q"], "--k", paths["k"], "--v", paths["v"],
                   "--out", out, "--min-cossim", "0.999",
                   "--max-rel-l1", "0.05"]
            for extra in extras:
                cmd += ["--mask-npy", paths[extra]]
            done = subprocess.run(cmd, capture_output=True, text=True)
            report = (done.stdout + done.stderr).strip().splitlines()
            fp64_line = next((l for l in report if l.startswith("vs fp64")),
                             "-")
            o_sage = np.load(out) if os.path.exists(out) else None
        status |= done.returncode
        ref = fp64_attention(name, arrays)
        j_cos, j_rel = metrics(o_jax, ref)
        cells = "- | -"
        if o_sage is not None:
            cells = "%.6f | %.4f" % metrics(o_sage, o_jax)
        verdict = "ok" if done.returncode == 0 else report[-1]
        fp64 = " ".join(fp64_line.split()[2:4])
        print(f"| {name} | {fp64} | {cells} | {j_cos:.6f} | {j_rel:.4f} | "
              f"{verdict} |", flush=True)
    return status


def main():
    mode, out = sys.argv[1], sys.argv[2]
    if mode == "check" and len(sys.argv) == 4:
        sys.exit(1 if check(out, sys.argv[3]) else 0)
    if mode != "export":
        sys.exit("usage: jax_attention.py export DIR | check KERNELS SAGE_RUN")
    os.makedirs(out, exist_ok=True)
    for name, case in CASES.items():
        fn, extras = case[0], case[-1]
        args = inputs(name)
        lowered = jax.jit(fn).lower(*args)
        module = lowered.compiler_ir("stablehlo")
        text = module.operation.get_asm(print_generic_op_form=True,
                                        enable_debug_info=False)
        with open(os.path.join(out, name + ".mlir"), "w") as f:
            f.write("// Generated by jax_attention.py export with jax "
                    + jax.__version__ + "; do not edit.\n" + text)
        with open(os.path.join(out, name + ".pretty.mlir"), "w") as f:
            f.write(lowered.as_text())
        print(name, "done", flush=True)


if __name__ == "__main__":
    main()
