"""Compiles the tuning candidates: one plan per (attention, kernel configuration).

Usage: python3 compile_candidates.py OUT_DIR [--sage-bin build/bin]
       [--chip sm_90a] [--dims 64,128] [--smooth k,qk] [--configs NAME,...]

Runs here, where sage-opt is; tune_attention.py times the plans on the GPU
machine, which has no MLIR. Each attention (head dim, causal, smoothing;
f16, [B, H, N, D], the int8-fp8 recipe) is compiled with each --sage-to-ptx
configuration of CONFIGS into OUT_DIR/NAME.json + .ptx, and OUT_DIR/
candidates.json lists them with their keys and options. docs/Tuning.md
describes the table tune_attention.py writes from them.
"""

import argparse
import json
import os
import subprocess
import sys

# name -> --sage-to-ptx options (besides chip): the schedules worth timing
# on sm_90a, the columns of a table row (docs/Tuning.md). ws = a producer
# warpgroup (warp-specialize=true); ov = the softmax overlapped with the
# P V wgmma (overlap-softmax=true); sN = N K/V stages; cN = ptxas asked
# to fit N CTAs an SM (ctas-per-sm=N; 1 asks nothing); t = the consumer
# warpgroups take turns issuing their P V wgmmas (warpgroup-turns=true).
# Each names every column, so that no built-in row decides one of them.


def _schedule(q, k, ws=False, stages=2, overlap=False, ctas=1, turns=False):
    flag = lambda value: "true" if value else "false"
    return (f"block-q={q} block-k={k} warp-specialize={flag(ws)} kv-stages={stages} "
            f"overlap-softmax={flag(overlap)} ctas-per-sm={ctas} "
            f"warpgroup-turns={flag(turns)}")


CONFIGS = {
    "q64_k64": _schedule(64, 64),
    "q64_k128": _schedule(64, 128),
    "q128_k64": _schedule(128, 64),
    "q128_k128": _schedule(128, 128),
    "q64_k128_ws": _schedule(64, 128, ws=True),
    "q128_k64_ws": _schedule(128, 64, ws=True),
    "q128_k128_ws": _schedule(128, 128, ws=True),
    "q64_k128_c3": _schedule(64, 128, ctas=3),
    "q64_k128_c4": _schedule(64, 128, ctas=4),
    "q64_k64_c4": _schedule(64, 64, ctas=4),
    "q64_k64_ov_c4": _schedule(64, 64, overlap=True, ctas=4),
    "q64_k64_ov_s3_c4": _schedule(64, 64, stages=3, overlap=True, ctas=4),
    "q64_k128_ov_c3": _schedule(64, 128, overlap=True, ctas=3),
    "q64_k128_ov": _schedule(64, 128, overlap=True),
    "q64_k128_ov_s3": _schedule(64, 128, stages=3, overlap=True),
    "q64_k64_ov": _schedule(64, 64, overlap=True),
    "q64_k64_ov_s3": _schedule(64, 64, stages=3, overlap=True),
    "q128_k64_ws_ov_s3": _schedule(128, 64, ws=True, stages=3, overlap=True),
    "q128_k128_ws_ov_s3": _schedule(128, 128, ws=True, stages=3, overlap=True),
    "q192_k128": _schedule(192, 128),
    "q192_k64": _schedule(192, 64),
    "q128_k128_t": _schedule(128, 128, stages=3, turns=True),
    "q128_k128_ws_t": _schedule(128, 128, ws=True, turns=True),
    "q192_k128_t": _schedule(192, 128, stages=3, turns=True),
    "q192_k128_t_s2": _schedule(192, 128, turns=True),
    "q192_k128_t_s4": _schedule(192, 128, stages=4, turns=True),
    "q192_k64_t_s4": _schedule(192, 64, stages=4, turns=True),
    "q128_k128_ws_ov_t": _schedule(128, 128, ws=True, stages=3, overlap=True, turns=True),
    "q192_k128_ws_t": _schedule(192, 128, ws=True, turns=True),
    "q192_k64_ov_t": _schedule(192, 64, stages=3, overlap=True, turns=True),
    "q192_k128_ov_t": _schedule(192, 128, stages=3, overlap=True, turns=True),
}
SMOOTHING = {"k": "[k]", "qk": "[q, k]"}

FUNCTION = """func.func @{name}(%q: tensor<?x?x?x{d}xf16>, %k: tensor<?x?x?x{d}xf16>, %v: tensor<?x?x?x{d}xf16>) -> tensor<?x?x?x{d}xf16> {{
  %o = sage.attention %q, %k, %v {{layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8", smooth = {smooth}>{causal}}}
    : (tensor<?x?x?x{d}xf16>, tensor<?x?x?x{d}xf16>, tensor<?x?x?x{d}xf16>) -> tensor<?x?x?x{d}xf16>
  return %o : tensor<?x?x?x{d}xf16>
}}
"""


def attention_name(d, causal, smooth):
    return f"attention_d{d}_f16{'_causal' if causal else ''}_smooth_{smooth}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out_dir")
    parser.add_argument("--sage-bin", default="build/bin")
    parser.add_argument("--chip", default="sm_90a")
    parser.add_argument("--dims", default="64,128")
    parser.add_argument("--smooth", default="k,qk", help="smoothings: k, qk")
    parser.add_argument("--configs", default=",".join(CONFIGS))
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)

    # One module per head dim, so that a configuration a head dim cannot
    # take (e.g. four CTAs an SM of D = 128's stages) skips only that dim.
    dims = [int(d) for d in args.dims.split(",")]
    attentions = {d: [(d, causal, smooth) for causal in (False, True)
                      for smooth in args.smooth.split(",")] for d in dims}
    modules = {}
    for d in dims:
        modules[d] = os.path.join(args.out_dir, f"attentions_d{d}.mlir")
        with open(modules[d], "w") as f:
            for _, causal, smooth in attentions[d]:
                f.write(FUNCTION.format(name=attention_name(d, causal, smooth), d=d,
                                        smooth=SMOOTHING[smooth],
                                        causal=", causal" if causal else ""))

    candidates = []
    for config, d in ((c, d) for c in args.configs.split(",") for d in dims):
        compiled = os.path.join(args.out_dir, f"{config}_d{d}.ptx.mlir")
        options = f"chip={args.chip} {CONFIGS[config]}"
        result = subprocess.run([f"{args.sage_bin}/sage-opt", modules[d],
                                 f"--sage-to-ptx={options}", "-o", compiled],
                                stderr=subprocess.PIPE, text=True)
        if result.returncode != 0:
            first = (result.stderr.strip().splitlines() or ["(no message)"])[0]
            print(f"skipped {config} at D = {d}: {first}", file=sys.stderr)
            continue
        for _, causal, smooth in attentions[d]:
            attention = attention_name(d, causal, smooth)
            name = f"{attention}__{config}"
            out = os.path.join(args.out_dir, name)
            translate = [f"{args.sage_bin}/sage-translate", f"--sage-kernel-module={attention}",
                         compiled]
            subprocess.run(translate + ["--sage-export-ptx", "-o", out + ".ptx"], check=True)
            subprocess.run(translate + ["--sage-export-plan", f"--sage-export-name={name}",
                                        "-o", out + ".json"], check=True)
            options = dict(o.split("=") for o in CONFIGS[config].split())
            candidates.append({"plan": name + ".json", "head_dim": d, "causal": causal,
                               "smooth": smooth, "config": config, "chip": args.chip,
                               "options": CONFIGS[config],
                               "block_q": int(options["block-q"]),
                               "block_k": int(options["block-k"]),
                               "warp_specialize": options["warp-specialize"] == "true",
                               "kv_stages": int(options["kv-stages"]),
                               "overlap_softmax": options["overlap-softmax"] == "true",
                               "ctas_per_sm": int(options["ctas-per-sm"]),
                               "warpgroup_turns": options["warpgroup-turns"] == "true"})
        os.remove(compiled)
    with open(os.path.join(args.out_dir, "candidates.json"), "w") as f:
        json.dump(candidates, f, indent=1)
    print(f"{len(candidates)} candidates in {args.out_dir}", file=sys.stderr)


if __name__ == "__main__":
    main()
