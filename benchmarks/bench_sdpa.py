"""PyTorch SDPA alone (flash and cuDNN, fp16): the baselines of a run whose
sage timings come from elsewhere (the levels' sage-check-levels programs,
`--bench N`), measured the way bench_attention.py measures them.

Usage: python3 bench_sdpa.py [--dims 64,128] [--lengths 4096,16384]
       [--causal 0,1]
Prints a markdown table of milliseconds and TOPS (4 B H N^2 D FLOPs,
halved for causal) at B = 4, H = 32.
"""

import argparse

import torch

from bench_attention import input_sets, time_sdpa


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dims", default="64,128")
    parser.add_argument("--lengths", default="16384")
    parser.add_argument("--causal", default="0", help="0, 1 or 0,1")
    args = parser.parse_args()
    B, H = 4, 32
    print("| D | causal | N | flash ms | flash TOPS | cuDNN ms | cuDNN TOPS |")
    print("|---|---|---|---|---|---|---|")
    for d in (int(x) for x in args.dims.split(",")):
        for causal in (bool(int(c)) for c in args.causal.split(",")):
            for n in (int(x) for x in args.lengths.split(",")):
                t_flash, t_cudnn = time_sdpa(input_sets(B, H, n, d, torch.float16), causal)
                flops = 4 * B * H * n * n * d / (2 if causal else 1)
                tops = lambda ms: flops / (ms * 1e-3) / 1e12
                print(f"| {d} | {int(causal)} | {n} | {t_flash:.2f} | {tops(t_flash):.0f} "
                      f"| {t_cudnn:.2f} | {tops(t_cudnn):.0f} |", flush=True)
                torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
