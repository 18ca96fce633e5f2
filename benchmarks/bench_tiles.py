"""sage's attention kernel at each tile size and MMA scope, beside SDPA.

Usage: python3 bench_tiles.py KERNEL_DIR [--lengths 4096,16384]
Times the default 64 x 64 plans (attention_d128_f16, attention_d64_bf16_causal),
their tile variants (tiles_*_qQ_kK, benchmarks/kernels_tiles.mlir) and the
wgmma kernel (tiles_*_wgmma_qQ_kK, sm_90a) on the same inputs in one process, and
prints a markdown table of TOPS: the attention kernel alone and end to end,
and SDPA flash / cuDNN in the inputs' type. FLOPs and timing as in
bench_attention.py.
"""

import argparse

import torch

from bench_attention import input_sets, time_ms, time_sdpa
from sage_plan import Plan

# (label, plan suffix); None: the default plan.
VARIANTS = [("mma.sync 64 x 64", None)] + [
    (f"mma.sync {q} x {k}", f"_q{q}_k{k}")
    for q, k in ((128, 64), (64, 128), (128, 128), (64, 32), (128, 32))
] + [
    (f"wgmma {q} x {k}", f"_wgmma_q{q}_k{k}")
    for q, k in ((64, 64), (128, 64), (64, 128), (128, 128), (128, 32))
]
SHAPES = [  # (default plan, tile plan stem, D, dtype, causal)
    ("attention_d128_f16", "tiles_d128_f16", 128, torch.float16, False),
    ("attention_d64_bf16_causal", "tiles_d64_bf16_causal", 64, torch.bfloat16, True),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("kernel_dir")
    parser.add_argument("--lengths", default="4096,16384")
    args = parser.parse_args()
    B, H = 4, 32
    print("| D | type | causal | N | kernel, block-q x block-k | sage attn TOPS | sage e2e TOPS "
          "| vs 64 x 64 attn | SDPA flash | SDPA cuDNN | attn/cuDNN |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for default, stem, d, dtype, causal in SHAPES:
        for n in (int(x) for x in args.lengths.split(",")):
            inputs = input_sets(B, H, n, d, dtype)
            sets = len(inputs)
            flops = 4 * B * H * n * n * d / (2 if causal else 1)
            tops = lambda ms: flops / (ms * 1e-3) / 1e12
            t_flash, t_cudnn = time_sdpa(inputs, causal)
            t_default = None
            for label, suffix in VARIANTS:
                name = default if suffix is None else stem + suffix
                plan = Plan(f"{args.kernel_dir}/{name}.json")
                sizes = plan.sizes(B, H, H, n, n)
                bufs = [plan.allocate(sizes, *inputs[s]) for s in range(sets)]
                full = [plan.launches(sizes, b) for b in bufs]
                attn = [plan.launches(sizes, b, only="sage_attention") for b in bufs]
                t_e2e = time_ms(lambda i: plan.run(full[i], bufs[i]), sets)
                t_attn = time_ms(lambda i: plan.run(attn[i]), sets)
                t_default = t_default or t_attn
                print(f"| {d} | {str(dtype)[6:]} | {int(causal)} | {n} | {label} "
                      f"| {tops(t_attn):.0f} | {tops(t_e2e):.0f} | {t_default / t_attn:.2f} "
                      f"| {tops(t_flash):.0f} | {tops(t_cudnn):.0f} | {t_cudnn / t_attn:.2f} |",
                      flush=True)
                del bufs, full, attn
                torch.cuda.empty_cache()
            del inputs


if __name__ == "__main__":
    main()
