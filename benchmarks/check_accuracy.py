"""Quick accuracy sweep of compiled plans against FP64 attention (GPU).

Usage: python3 check_accuracy.py KERNEL_DIR
Prints one line per (plan, shape, distribution); sage-run is the tool of
record (it also compares with the CPU model); this is the fast sweep.
"""

import math
import sys

import torch

from sage_plan import Plan, make_inputs, metrics, reference


def main():
    kernel_dir = sys.argv[1]
    shapes = [(1, 2, 2, 1, 1), (1, 2, 2, 17, 17), (2, 4, 4, 128, 128),
              (1, 4, 2, 1000, 1000), (1, 2, 2, 4096, 4096), (1, 2, 1, 100, 333),
              (1, 2, 2, 333, 100)]
    print(f"{'plan':34} {'B,H,Hkv,Nq,Nk':22} {'dist':8} {'cossim':>9} {'rel_l1':>8} {'rmse':>9} nonfinite")
    for d in (64, 128):
        for t, dtype in (("f16", torch.float16), ("bf16", torch.bfloat16)):
            for causal in (False, True):
                name = f"attention_d{d}_{t}" + ("_causal" if causal else "")
                plan = Plan(f"{kernel_dir}/{name}.json")
                for shape in shapes:
                    B, H, Hkv, Nq, Nk = shape
                    for dist in ("randn", "outliers"):
                        q, k, v = make_inputs(B, H, Hkv, Nq, Nk, d, dtype, dist, 0)
                        sizes = plan.sizes(B, H, Hkv, Nq, Nk)
                        bufs = plan.allocate(sizes, q, k, v)
                        plan.run(plan.launches(sizes, bufs), bufs)
                        torch.cuda.synchronize()
                        ref = reference(q, k, v, causal, plan.desc["scale"],
                                        plan.desc.get("causal_alignment")
                                        == "top_left")
                        cos, rel, rmse, bad = metrics(bufs["o"].float(), ref)
                        print(f"{name:34} {str(shape):22} {dist:8} {cos:9.6f} {rel:8.4f} {rmse:9.2e} {bad}",
                              flush=True)


if __name__ == "__main__":
    main()
