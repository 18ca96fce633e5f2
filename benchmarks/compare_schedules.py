"""Checks that schedules of the same tiles compute the same bits.

Usage: python3 compare_schedules.py CANDIDATE_DIR [--smooth k,qk]

CANDIDATE_DIR is what compile_candidates.py wrote. Candidates of one
attention with the same tiles (block-q, block-k) differ only in how the
work is scheduled: a producer warpgroup or not, the K/V stages, the softmax
overlapped with the P V wgmma or not. Each performs the same floating-point
operations in the same order on every value, so their outputs must be
bit-identical; this runs them on shapes that reach every edge of the loop
(a partial last block, fewer keys than a block, causal rows that see no
key, GQA) and compares them with the first of the group exactly. The
statistics kernels sum with atomics, in no fixed order, so the first
candidate's whole plan runs once and every candidate's attention kernel
(the first's again included, which shows it deterministic) then reads the
same quantized operands into an output poisoned with NaN. Exits 1 on any
difference.
"""

import argparse
import json
import os
import sys

import torch

from sage_plan import Plan, make_inputs

# B, H, Hkv, Nq, Nk
SHAPES = [(1, 2, 2, 333, 1037), (1, 2, 2, 1000, 100), (2, 4, 2, 77, 4099),
          (1, 1, 1, 64, 50), (1, 2, 2, 1, 3000)]


def attention_only(plan, sizes, bufs):
    bufs["o"].fill_(float("nan"))
    plan.run(plan.launches(sizes, bufs, only="sage_attention"))
    torch.cuda.synchronize()
    return bufs["o"].clone()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("candidate_dir")
    parser.add_argument("--smooth", default="k,qk")
    args = parser.parse_args()
    with open(os.path.join(args.candidate_dir, "candidates.json")) as f:
        candidates = [c for c in json.load(f) if c["smooth"] in args.smooth.split(",")]
    groups = {}
    for c in candidates:
        key = (c["head_dim"], c["causal"], c["smooth"], c["block_q"], c["block_k"])
        groups.setdefault(key, []).append(c)
    failures = 0
    for (d, causal, smooth, bq, bk), group in sorted(groups.items()):
        if len(group) < 2:
            continue
        plans = [(c["config"], Plan(os.path.join(args.candidate_dir, c["plan"])))
                 for c in group]
        for shape in SHAPES:
            for dist in ("randn", "outliers"):
                first_name, first = plans[0]
                q, k, v = make_inputs(*shape, d, torch.float16, dist, 1)
                sizes = first.sizes(*shape)
                bufs = first.allocate(sizes, q, k, v)
                first.run(first.launches(sizes, bufs), bufs)
                torch.cuda.synchronize()
                expected = bufs["o"].clone()
                for name, plan in plans:
                    out = attention_only(plan, sizes, bufs)
                    same = torch.equal(out.nan_to_num(7.0), expected.nan_to_num(7.0))
                    nonfinite = (~torch.isfinite(out)).sum().item()
                    status = "identical" if same and nonfinite == 0 else "DIFFERENT"
                    if status != "identical":
                        failures += 1
                    print(f"D={d} causal={int(causal)} smooth={smooth} {bq}x{bk} "
                          f"{shape} {dist}: {name} vs {first_name}: {status}"
                          + ("" if same else
                             f" (max |diff| {(out.float() - expected.float()).abs().max().item():.3g})")
                          + (f", {nonfinite} non-finite" if nonfinite else ""),
                          flush=True)
    print(f"{failures} differences", flush=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
