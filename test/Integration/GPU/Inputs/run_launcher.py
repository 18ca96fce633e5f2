"""Runs one attention of a launcher library through its C ABI on the GPU
(ctypes, PyTorch tensors) against an FP64 attention (docs/Launchers.md).

usage: run_launcher.py LIB NAME PLAN.json PYTHONPATH [--B --H --Hkv --Nq
       --Nk --seed --bench]

For randn inputs and for inputs with channel outliers: poisons O with NaN,
launches on a side stream with a workspace of NAME_workspace_size bytes,
and prints CosSim, RelL1 and RMSE against FP64 (and the LSE's max error
when the plan has one). Then checks that a strided view is refused by name.
--bench times the launch beside SDPA (cuDNN and flash) in the same process.
"""

import argparse
import json
import sys

import torch

TYPES = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}


def reference(q, k, v, scale, causal, top_left):
    """FP64 attention of [B, H, N, D] tensors; a row seeing no key is 0."""
    q, k, v = q.double(), k.double(), v.double()
    if k.shape[1] != q.shape[1]:
        repeat = q.shape[1] // k.shape[1]
        k = k.repeat_interleave(repeat, dim=1)
        v = v.repeat_interleave(repeat, dim=1)
    s = torch.einsum("bhqd,bhkd->bhqk", q, k) * scale
    nq, nk = q.shape[2], k.shape[2]
    if causal:
        i = torch.arange(nq, device=q.device)[:, None]
        j = torch.arange(nk, device=q.device)[None, :]
        s = s.masked_fill(j > i + (0 if top_left else nk - nq), float("-inf"))
    lse = torch.logsumexp(s, dim=-1)
    p = torch.exp(s - lse[..., None]).nan_to_num(0.0)
    return torch.einsum("bhqk,bhkd->bhqd", p, v), lse


def metrics(out, ref):
    out, ref = out.double().flatten(), ref.flatten()
    cos = torch.nn.functional.cosine_similarity(out, ref, dim=0).item()
    rel = ((out - ref).abs().sum() / ref.abs().sum()).item()
    rmse = (out - ref).pow(2).mean().sqrt().item()
    return cos, rel, rmse


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("library")
    parser.add_argument("name")
    parser.add_argument("plan")
    parser.add_argument("pythonpath")
    for size, default in (("B", 2), ("H", 4), ("Hkv", 0), ("Nq", 333),
                          ("Nk", 700), ("seed", 1)):
        parser.add_argument("--" + size, type=int, default=default)
    parser.add_argument("--bench", action="store_true")
    parser.add_argument("--no-check", action="store_true",
                        help="skip the FP64 checks (sizes too large for it)")
    args = parser.parse_args()
    sys.path.insert(0, args.pythonpath)
    from sage_attention.launcher import Launcher, LauncherError

    plan = json.load(open(args.plan))
    kinds = {b["name"]: b for b in plan["buffers"]}
    if "mask" in kinds or len(plan["layout"]) != 4:
        sys.exit("run_launcher.py takes rank-4 plans without a mask")
    btnh = plan["layout"][1] == "tokens"
    lse_out = "lse" in kinds
    D, Dv = plan["head_dim"], plan["value_dim"]
    dtype = TYPES[plan["input_type"]]
    out_dtype = TYPES[plan["output_type"]]
    B, H, Nq, Nk = args.B, args.H, args.Nq, args.Nk
    Hkv = args.Hkv or H
    launcher = Launcher(args.library, args.name)
    workspace_bytes = launcher.workspace_size(B, H, Hkv, Nq, Nk)
    dev = torch.device("cuda")
    workspace = torch.empty(workspace_bytes, dtype=torch.uint8, device=dev)
    stream = torch.cuda.Stream()

    def tensor(heads, tokens, dim, g, outlier=False):
        x = torch.randn(B, heads, tokens, dim, generator=g, device=dev)
        if outlier:  # a few channels far from zero in every token
            x = x + 12 * torch.randn(dim, generator=g, device=dev) * (
                torch.rand(dim, generator=g, device=dev) < 0.1)
        x = x.to(dtype)
        return x.transpose(1, 2).contiguous() if btnh else x

    def run(q, k, v, o, lse, check=True, sync=True):
        argv = [stream.cuda_stream, q.data_ptr(), list(q.stride()),
                k.data_ptr(), list(k.stride()), v.data_ptr(),
                list(v.stride()), o.data_ptr(), list(o.stride())]
        if lse_out:
            argv += [lse.data_ptr(), list(lse.stride())]
        argv += [workspace.data_ptr(), workspace_bytes, B, H, Hkv, Nq, Nk]
        with torch.cuda.stream(stream):
            status = launcher.launch(*argv, check=check)
        if sync:
            stream.synchronize()
        return status

    def as_bhnd(x):
        return x.transpose(1, 2) if btnh else x

    print(f"{args.name}: B={B} H={H} Hkv={Hkv} Nq={Nq} Nk={Nk} "
          f"workspace {workspace_bytes} bytes")
    o_shape = (B, Nq, H, Dv) if btnh else (B, H, Nq, Dv)
    if args.no_check:
        bench(args, run, stream, tensor, D, Dv, out_dtype, plan, btnh, dev)
        return
    for label, outlier in (("randn", False), ("outliers", True)):
        g = torch.Generator(device=dev).manual_seed(args.seed)
        q = tensor(H, Nq, D, g, outlier)
        k = tensor(Hkv, Nk, D, g, outlier)
        v = tensor(Hkv, Nk, Dv, g, outlier)
        o = torch.full(o_shape, float("nan"), dtype=out_dtype, device=dev)
        lse = torch.full((B, H, Nq), float("nan"), device=dev)
        run(q, k, v, o, lse)
        ref, ref_lse = reference(as_bhnd(q), as_bhnd(k), as_bhnd(v),
                                 plan["scale"], plan["causal"],
                                 plan.get("causal_alignment") == "top_left")
        nonfinite = (~torch.isfinite(o)).sum().item()
        cos, rel, rmse = metrics(as_bhnd(o), ref)
        line = (f"{label}: non-finite {nonfinite} CosSim {cos:.6f} "
                f"RelL1 {rel:.4f} RMSE {rmse:.5f}")
        if lse_out:
            finite = torch.isfinite(ref_lse)
            err = (lse.double() - ref_lse)[finite].abs().max().item()
            line += f" LSE max abs {err:.4f}"
        print(line)
        bars = (0.999, 0.05) if not outlier else (0.9995, 0.03)
        ok = nonfinite == 0 and cos >= bars[0] and rel <= bars[1]
        print(f"{label}: {'PASS' if ok else 'FAIL'}")

    # A view the kernels cannot read is refused, naming the argument.
    g = torch.Generator(device=dev).manual_seed(args.seed)
    wide = tensor(H, Nq, 2 * D, g)
    q_view = wide[..., :D]
    k = tensor(Hkv, Nk, D, g)
    v = tensor(Hkv, Nk, Dv, g)
    o = torch.empty(o_shape, dtype=out_dtype, device=dev)
    try:
        run(q_view, k, v, o, torch.empty(B, H, Nq, device=dev))
        print("strided q: launched")
    except LauncherError as error:
        print(f"strided q: status {error.status}: {error}")

    if args.bench:
        bench(args, run, stream, tensor, D, Dv, out_dtype, plan, btnh, dev)


def bench(args, run, launch_stream, tensor, D, Dv, out_dtype, plan, btnh,
          dev, iters=20):
    """Times each on the stream it runs on: the launcher's side stream,
    SDPA's current stream."""
    B, H, Nq, Nk = args.B, args.H, args.Nq, args.Nk
    g = torch.Generator(device=dev).manual_seed(args.seed)
    Hkv = args.Hkv or H
    q, k, v = tensor(H, Nq, D, g), tensor(Hkv, Nk, D, g), tensor(Hkv, Nk, Dv, g)
    o = torch.empty((B, Nq, H, Dv) if btnh else (B, H, Nq, Dv),
                    dtype=out_dtype, device=dev)
    lse = torch.empty(B, H, Nq, device=dev)
    flops = 4 * B * H * Nq * Nk * D * (0.5 if plan["causal"] else 1)

    def time(fn, stream=None):
        stream = stream or torch.cuda.current_stream()
        for _ in range(3):
            fn()
        torch.cuda.synchronize()
        start, end = (torch.cuda.Event(enable_timing=True) for _ in range(2))
        start.record(stream)
        for _ in range(iters):
            fn()
        end.record(stream)
        torch.cuda.synchronize()
        return start.elapsed_time(end) / iters

    ms = time(lambda: run(q, k, v, o, lse, sync=False), launch_stream)
    print(f"bench sage launcher (end to end: quantizers and attention): "
          f"{ms:.3f} ms {flops / ms / 1e9:.0f} TOPS")
    qb, kb, vb = [x.transpose(1, 2) if btnh else x for x in (q, k, v)]
    from torch.nn.attention import SDPBackend, sdpa_kernel
    for backend in (SDPBackend.CUDNN_ATTENTION, SDPBackend.FLASH_ATTENTION):
        with sdpa_kernel(backend):
            ms = time(lambda: torch.nn.functional.scaled_dot_product_attention(
                qb, kb, vb, is_causal=plan["causal"], scale=plan["scale"]))
        print(f"bench SDPA {backend.name}: {ms:.3f} ms "
              f"{flops / ms / 1e9:.0f} TOPS")


if __name__ == "__main__":
    main()
