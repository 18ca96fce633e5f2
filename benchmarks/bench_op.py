"""sage_attention.attention, the PyTorch operator, beside SDPA (cuDNN and
flash) in one process (docs/Launchers.md, "PyTorch").

Usage: python3 bench_op.py [--dims 64,128] [--lengths 4096,16384]
       [--B 4] [--H 32]
Run from the repository root with SAGE_ATTENTION_LIBRARY_DIR set to the
libraries (build/python/sage_attention/lib), or with the wheel installed.
Prints a markdown table of TOPS, end to end as a PyTorch user sees it (the
operator's workspace allocation, quantizers and attention kernel), for both
recipes, fp16 [B, H, N, D] inputs, causal or not, and the ratio of "auto"
to cuDNN. Timing as bench_attention.py: CUDA events, medians, inputs
rotated past the L2.
"""

import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "python"))
from bench_attention import input_sets, time_ms, time_sdpa  # noqa: E402
from sage_attention import attention  # noqa: E402

RECIPES = ("auto", "int8-fp8")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dims", default="64,128")
    parser.add_argument("--lengths", default="4096,16384")
    parser.add_argument("--B", type=int, default=4)
    parser.add_argument("--H", type=int, default=32)
    args = parser.parse_args()
    print(f"B = {args.B}, H = {args.H}, fp16 [B, H, N, D], "
          f"{torch.cuda.get_device_name()}, torch {torch.__version__}\n")
    print("| D | N | causal | sage auto | sage int8-fp8 | cuDNN | flash "
          "| auto / cuDNN |")
    print("|---|---|---|---|---|---|---|---|")
    for d in map(int, args.dims.split(",")):
        for n in map(int, args.lengths.split(",")):
            inputs = input_sets(args.B, args.H, n, d, torch.float16)
            for causal in (False, True):
                flops = 4 * args.B * args.H * n * n * d * (0.5 if causal
                                                          else 1)
                tops = {}
                for recipe in RECIPES:
                    ms = time_ms(lambda i: attention(
                        *inputs[i], is_causal=causal, recipe=recipe),
                        len(inputs))
                    tops[recipe] = flops / ms / 1e9
                flash, cudnn = time_sdpa(inputs, causal)
                tops["flash"], tops["cudnn"] = (flops / flash / 1e9,
                                                flops / cudnn / 1e9)
                print(f"| {d} | {n} | {'yes' if causal else 'no'} | "
                      f"{tops['auto']:.0f} | {tops['int8-fp8']:.0f} | "
                      f"{tops['cudnn']:.0f} | {tops['flash']:.0f} | "
                      f"{tops['auto'] / tops['cudnn']:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
