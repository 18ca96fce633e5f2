"""sage's kernels beside PyTorch SDPA (flash and cuDNN backends), one process.

Usage: python3 bench_attention.py KERNEL_DIR [--quick] [--dims 64,96,128]
       [--lengths 4096,16384] [--baseline OLD_KERNEL_DIR] [--plan-suffix _sm90a]
Prints a markdown table: TOPS of sage's attention kernel alone and end to end
(quantization kernels included), of SDPA flash and cuDNN in fp16, their
ratios, and where sage's time goes. Attention FLOPs = 4 B H Nq Nk D, halved
for causal. CUDA events; median of repeats after warm-up; the inputs are
rotated over enough copies to exceed the 60 MB L2 several times.
"""

import argparse
import math
import os
import statistics
import sys

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel

from sage_plan import Plan, make_inputs

L2_BYTES = 60 * 2**20


def time_ms(fn_for_set, sets, warmup=3, repeat=10):
    """Median time of fn_for_set(i), rotating i over the input sets."""
    for i in range(warmup):
        fn_for_set(i % sets)
    times = []
    for i in range(repeat):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn_for_set(i % sets)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def input_sets(B, H, n, d, dtype):
    """Enough randn (q, k, v) sets of [B, H, n, d] to exceed the L2 4 times."""
    sets = max(1, math.ceil(4 * L2_BYTES / (3 * B * H * n * d * 2)))
    return [make_inputs(B, H, H, n, n, d, dtype, "randn", s) for s in range(sets)]


def time_sdpa(inputs, causal):
    """(flash ms, cuDNN ms) of PyTorch SDPA on the rotated input sets."""
    times = []
    for backend in (SDPBackend.FLASH_ATTENTION, SDPBackend.CUDNN_ATTENTION):
        with sdpa_kernel(backend):
            times.append(time_ms(lambda i: torch.nn.functional.scaled_dot_product_attention(
                *inputs[i], is_causal=causal), len(inputs)))
    return tuple(times)


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("kernel_dir")
    parser.add_argument("--quick", action="store_true", help="N = 1k and 4k only")
    parser.add_argument("--dims", default="64,128", help="head dims, e.g. 64,96,128")
    parser.add_argument("--lengths", help="sequence lengths, e.g. 4096,16384")
    parser.add_argument("--baseline", metavar="DIR",
                        help="also time the attention kernel of the plans in DIR "
                             "(e.g. an earlier build) on the same inputs")
    parser.add_argument("--plan-suffix", default="",
                        help="time attention_dD_f16[_causal]SUFFIX, e.g. _sm90a "
                             "(the baseline's plans may have it or the plain names)")
    return parser.parse_args()


def main():
    args = parse_args()
    B, H = 4, 32
    lengths = [1024, 4096] if args.quick else [1024, 2048, 4096, 8192, 16384, 32768]
    if args.lengths:
        lengths = [int(n) for n in args.lengths.split(",")]
    base_cols = " baseline attn TOPS | attn speed vs baseline |" if args.baseline else ""
    print("| D | causal | N | sage attn TOPS | sage e2e TOPS | SDPA flash | SDPA cuDNN "
          "| attn/flash | attn/cuDNN | e2e/cuDNN | quant share of e2e |" + base_cols)
    print("|---|---|---|---|---|---|---|---|---|---|---|" + ("---|---|" if args.baseline else ""))
    for d in (int(x) for x in args.dims.split(",")):
        for causal in (False, True):
            name = f"attention_d{d}_f16" + ("_causal" if causal else "")
            plan = Plan(f"{args.kernel_dir}/{name}{args.plan_suffix}.json")
            base = None
            if args.baseline:
                paths = [f"{args.baseline}/{name}{args.plan_suffix}.json",
                         f"{args.baseline}/{name}.json"]
                found = [p for p in paths if os.path.exists(p)]
                if not found:
                    sys.exit(f"--baseline: neither {' nor '.join(paths)} exists")
                base = Plan(found[0])
            for n in lengths:
                set_bytes = 3 * B * H * n * d * 2
                sets = max(1, math.ceil(4 * L2_BYTES / set_bytes))
                sizes = plan.sizes(B, H, H, n, n)
                inputs, bufs, full, attn, base_bufs, base_attn = [], [], [], [], [], []
                for s in range(sets):
                    q, k, v = make_inputs(B, H, H, n, n, d, torch.float16, "randn", s)
                    inputs.append((q, k, v))
                    b = plan.allocate(sizes, q, k, v)
                    bufs.append(b)
                    full.append(plan.launches(sizes, b))
                    attn.append(plan.launches(sizes, b, only="sage_attention"))
                    if base:
                        bb = base.allocate(sizes, q, k, v)
                        base.run(base.launches(sizes, bb), bb)  # its quantized inputs
                        base_bufs.append(bb)
                        base_attn.append(base.launches(sizes, bb, only="sage_attention"))
                t_e2e = time_ms(lambda i: plan.run(full[i], bufs[i]), sets)
                t_attn = time_ms(lambda i: plan.run(attn[i]), sets)
                t_base = time_ms(lambda i: base.run(base_attn[i]), sets) if base else None
                t_flash, t_cudnn = time_sdpa(inputs, causal)
                flops = 4 * B * H * n * n * d / (2 if causal else 1)
                tops = lambda ms: flops / (ms * 1e-3) / 1e12
                row = (f"| {d} | {int(causal)} | {n} | {tops(t_attn):.0f} | {tops(t_e2e):.0f} "
                       f"| {tops(t_flash):.0f} | {tops(t_cudnn):.0f} "
                       f"| {t_flash / t_attn:.2f} | {t_cudnn / t_attn:.2f} | {t_cudnn / t_e2e:.2f} "
                       f"| {(t_e2e - t_attn) / t_e2e:.0%} |")
                if base:
                    row += f" {tops(t_base):.0f} | {t_base / t_attn:.2f} |"
                print(row, flush=True)
                del inputs, bufs, full, attn, base_bufs, base_attn
                torch.cuda.empty_cache()

if __name__ == "__main__":
    main()
