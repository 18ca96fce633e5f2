"""Each launch of a plan timed alone, against the H200's copy bandwidth.

Usage: python3 profile_quantization.py KERNEL_DIR [--dims 64,128]
       [--lengths 4096,16384] [--plan-suffix _k_smoothing_sm90a]
       [--baseline OLD_KERNEL_DIR]

Prints a markdown table per (D, N): every kernel of the plan (the
statistics and quantization kernels, then the attention), its time, the
bytes of the buffers it is given (inputs read, quantized copies written;
the [B, H, D] statistics are noise), that traffic's rate, and the rate as a
share of a device-to-device copy of the same inputs timed in the same run.
The quantization's share of end-to-end time is the number issue 11 bounds
(10% at N >= 16k). B = 4, H = 32, f16, randn inputs rotated over enough
sets to exceed the L2. --baseline times an earlier build's plan of the
same name on the same inputs, kernel by kernel.
"""

import argparse
import math

import torch

from bench_attention import L2_BYTES, time_ms
from sage_plan import Plan, evaluate, make_inputs

BYTES = {"f16": 2, "bf16": 2, "f32": 4, "i8": 1, "f8E4M3FN": 1, "i1": 1}


def buffer_bytes(plan, sizes):
    return {b["name"]: math.prod(evaluate(s, sizes) for s in b["shape"]) * BYTES[b["type"]]
            for b in plan.desc["buffers"]}


def kernel_bytes(kernel, sizes_of_buffers):
    return sum(sizes_of_buffers[p["buffer"]] for p in kernel["params"] if "buffer" in p)


def copy_rate(inputs):
    """GB/s of torch's device-to-device copy (bytes read + written)."""
    dst = [tuple(torch.empty_like(t) for t in s) for s in inputs]

    def copy(i):
        for d, s in zip(dst[i], inputs[i]):
            d.copy_(s)
    ms = time_ms(copy, len(inputs))
    moved = 2 * sum(t.numel() * t.element_size() for t in inputs[0])
    return moved / (ms * 1e-3) / 1e9


def time_each(plan, sizes, inputs):
    """{launch index: median ms, "end to end": ms} on `inputs`."""
    bufs = [plan.allocate(sizes, *s) for s in inputs]
    for b in bufs:  # every workspace filled once, in order
        plan.run(plan.launches(sizes, b), b)
    full = [plan.launches(sizes, b) for b in bufs]
    assert all(len(f) == len(plan.desc["kernels"]) for f in full), "an empty grid"
    times = {}
    for index, k in enumerate(plan.desc["kernels"]):
        times[index] = time_ms(lambda i: plan.run(full[i][index:index + 1]), len(bufs))
    times["end to end"] = time_ms(lambda i: plan.run(full[i], bufs[i]), len(bufs))
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("kernel_dir")
    parser.add_argument("--dims", default="64,128")
    parser.add_argument("--lengths", default="4096,16384")
    parser.add_argument("--plan-suffix", default="_k_smoothing_sm90a")
    parser.add_argument("--baseline", metavar="DIR")
    args = parser.parse_args()
    B, H = 4, 32
    for d in (int(x) for x in args.dims.split(",")):
        name = f"attention_d{d}_f16{args.plan_suffix}"
        plan = Plan(f"{args.kernel_dir}/{name}.json")
        base = Plan(f"{args.baseline}/{name}.json") if args.baseline else None
        for n in (int(x) for x in args.lengths.split(",")):
            sets = max(1, math.ceil(4 * L2_BYTES / (3 * B * H * n * d * 2)))
            inputs = [make_inputs(B, H, H, n, n, d, torch.float16, "randn", s)
                      for s in range(sets)]
            sizes = plan.sizes(B, H, H, n, n)
            rate = copy_rate(inputs)
            times = time_each(plan, sizes, inputs)
            base_times = time_each(base, sizes, inputs) if base else {}
            nbytes = buffer_bytes(plan, sizes)
            print(f"\n{name}, B = {B}, H = {H}, N = {n}; copy {rate:.0f} GB/s\n")
            extra = " baseline ms | speed-up |" if base else ""
            print("| kernel | ms | MB touched | GB/s | of copy |" + extra)
            print("|---|---|---|---|---|" + ("---|---|" if base else ""))
            quant = 0.0
            for index, k in enumerate(plan.desc["kernels"]):
                ms, mb = times[index], kernel_bytes(k, nbytes) / 1e6
                if k["name"] != "sage_attention":
                    quant += ms
                row = (f"| {k['name']} | {ms:.3f} | {mb:.0f} | {mb / ms:.0f} "
                       f"| {mb / ms / rate:.0%} |")
                if base:
                    same = (index < len(base.desc["kernels"])
                            and base.desc["kernels"][index]["name"] == k["name"])
                    b_ms = base_times[index] if same else None
                    row += f" {b_ms:.3f} | {b_ms / ms:.2f} |" if b_ms else " - | - |"
                print(row)
            e2e = times["end to end"]
            row = f"| end to end | {e2e:.3f} | | | |"
            if base:
                row += f" {base_times['end to end']:.3f} | {base_times['end to end'] / e2e:.2f} |"
            print(row)
            print(f"\nquantization kernels {quant:.3f} ms = {quant / e2e:.1%} of end to end; "
                  f"end to end / attention {e2e / (e2e - quant):.3f}", flush=True)
            del inputs
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
