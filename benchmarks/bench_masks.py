"""What a mask costs sage's attention kernel, beside PyTorch SDPA with the
same mask, one process.

Usage: python3 bench_masks.py KERNEL_DIR [--lengths 4096,16384]
Times, at D = 128, f16, B = 4, H = 32: the attention kernel of the
masked plans of benchmarks/kernels.mlir (an i1 keep-mask per batch and
head; an additive f16 mask broadcast over heads) and of the unmasked plan on
the same Q, K, V; SDPA with the same mask (the backend PyTorch picks for an
arbitrary mask: memory-efficient attention) and SDPA cuDNN without one.
Attention FLOPs = 4 B H N^2 D whatever the mask keeps. CUDA events, median
of repeats after warm-up; the masks are far past the 60 MB L2 already.
"""

import argparse

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel

from bench_attention import time_ms
from sage_plan import Plan, make_inputs

B, H, D = 4, 32, 128


def make_mask(kind, n, seed):
    """The masked plans' masks: i1 [B, H, n, n] keeping ~75% of the scores,
    or f16 [B, 1, n, n] of 2 randn with ~20% -inf."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    if kind == "i1":
        return torch.rand(B, H, n, n, generator=g, device="cuda") < 0.75
    mask = 2 * torch.randn(B, 1, n, n, generator=g, device="cuda")
    drop = torch.rand(B, 1, n, n, generator=g, device="cuda") < 0.2
    return mask.masked_fill(drop, float("-inf")).to(torch.float16)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("kernel_dir")
    parser.add_argument("--lengths", default="1024,4096,8192")
    args = parser.parse_args()
    unmasked = Plan(f"{args.kernel_dir}/attention_d{D}_f16.json")
    print("| mask | N | sage masked attn TOPS | sage unmasked attn TOPS | "
          "SDPA masked TOPS | SDPA cuDNN unmasked TOPS | masked/unmasked | "
          "sage masked / SDPA masked |")
    print("|---|---|---|---|---|---|---|---|")
    for kind, name in (("i1", f"attention_d{D}_f16_mask_i1"),
                       ("f16 [B, 1, N, N]", f"attention_d{D}_f16_mask_f16_heads1")):
        plan = Plan(f"{args.kernel_dir}/{name}.json")
        for n in (int(x) for x in args.lengths.split(",")):
            q, k, v = make_inputs(B, H, H, n, n, D, torch.float16, "randn", 0)
            mask = make_mask("i1" if kind == "i1" else "f16", n, 1)
            sizes = plan.sizes(B, H, H, n, n)
            bufs = plan.allocate(sizes, q, k, v, mask)
            plan.run(plan.launches(sizes, bufs), bufs)  # the quantized inputs
            attn = plan.launches(sizes, bufs, only="sage_attention")
            t_masked = time_ms(lambda i: plan.run(attn), 1)
            plain = unmasked.allocate(sizes, q, k, v)
            unmasked.run(unmasked.launches(sizes, plain), plain)
            plain_attn = unmasked.launches(sizes, plain, only="sage_attention")
            t_plain = time_ms(lambda i: unmasked.run(plain_attn), 1)
            # SDPA's boolean mask keeps where True, as sage's i1 mask.
            with sdpa_kernel(SDPBackend.EFFICIENT_ATTENTION):
                t_sdpa = time_ms(lambda i: torch.nn.functional.scaled_dot_product_attention(
                    q, k, v, attn_mask=mask), 1)
            with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                t_cudnn = time_ms(lambda i: torch.nn.functional.scaled_dot_product_attention(
                    q, k, v), 1)
            flops = 4 * B * H * n * n * D
            tops = lambda ms: flops / (ms * 1e-3) / 1e12
            print(f"| {kind} | {n} | {tops(t_masked):.0f} | {tops(t_plain):.0f} "
                  f"| {tops(t_sdpa):.0f} | {tops(t_cudnn):.0f} "
                  f"| {t_plain / t_masked:.2f} | {t_sdpa / t_masked:.2f} |", flush=True)
            del q, k, v, mask, bufs, plain, attn, plain_attn
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
