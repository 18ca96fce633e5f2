"""`sage_attention.attention`: sage's kernels as a PyTorch operator shaped
like `torch.nn.functional.scaled_dot_product_attention` (docs/Launchers.md,
"PyTorch").

It calls a launcher library (sage_attention/library.py: precompiled, or
compiled on first use where sage is installed) on PyTorch's current stream
through the C ABI. `torch.ops.sage.attention` is a
`torch.library` custom op with a fake implementation, so `torch.compile`
and CUDA graphs take it. What it cannot run is an error, never a fallback.
"""

import math
import os
import sys
from typing import Optional

import torch

from . import library
from .launcher import Launcher, LauncherError

_DTYPES = {torch.float16: "f16", torch.bfloat16: "bf16"}
RECIPES = ("auto", "int8-fp8", "int8-fp8-smooth-k")
# (library, function) -> Launcher, and each configuration's Launcher: an
# attention call looks nothing up on disk after its first.
_launchers = {}
_configurations = {}


def _chip(device):
    """The library's chip for `device` (SAGE_ATTENTION_CHIP overrides: an
    sm_89 library also runs on an sm_90 device, through the driver's JIT)."""
    if os.environ.get("SAGE_ATTENTION_CHIP"):
        return os.environ["SAGE_ATTENTION_CHIP"]
    capability = torch.cuda.get_device_capability(device)
    if capability not in library.CHIPS:
        raise RuntimeError(
            f"sage_attention: no kernels for compute capability "
            f"{capability[0]}.{capability[1]}; sage's libraries are for "
            f"{sorted(library.CHIPS.values())} (FP8 tensor cores)")
    return library.CHIPS[capability]


def _index_paths(chip):
    """Where precompiled indexes are looked for: SAGE_ATTENTION_LIBRARY_DIR,
    then the package's lib/ (the wheel's)."""
    name = f"sage_attention_{chip}.json"
    package = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib")
    directories = [os.environ.get("SAGE_ATTENTION_LIBRARY_DIR"), package]
    return [os.path.join(d, name) for d in directories if d]


def _get_launcher(device, **wanted):
    chip = _chip(device)
    key = (chip, tuple(sorted(wanted.items())))
    if key in _configurations:
        return _configurations[key]
    try:
        path, name = library.lookup(
            _index_paths(chip), chip, wanted,
            log=lambda message: print(message, file=sys.stderr))
    except LookupError as error:
        raise RuntimeError(f"sage_attention: {error}") from None
    if (path, name) not in _launchers:
        _launchers[(path, name)] = Launcher(path, name)
    _configurations[key] = _launchers[(path, name)]
    return _configurations[key]


_ORDERS = {"bhnd": (0, 1, 2, 3), "bnhd": (0, 2, 1, 3)}


def _memory_layouts(x):
    """The memory orders [B, H, N, D] `x` is dense in: "bhnd", and "bnhd"
    for the transpose of a dense [B, N, H, D] tensor. A dim of extent 1
    takes any stride, as in the launcher, so a decode step (N = 1) or one
    K/V head fits both; an empty tensor fits any."""
    def dense(order):
        if x.numel() == 0:
            return True
        expected = 1
        for dim in reversed(order):
            if x.shape[dim] > 1 and x.stride(dim) != expected:
                return False
            expected *= x.shape[dim]
        return True
    return {name for name, order in _ORDERS.items() if dense(order)}


def _empty_output(q, v, layout):
    B, H, Nq, _ = q.shape
    Dv = v.shape[-1]
    if layout == "bnhd":
        return q.new_empty((B, Nq, H, Dv)).transpose(1, 2)
    return q.new_empty((B, H, Nq, Dv))


_device = None


def _check_device(device):
    """The launcher libraries load their kernels in the context of the
    first launch: one device per process."""
    global _device
    if _device is None:
        _device = device
    elif device != _device:
        raise RuntimeError(
            f"sage_attention: tensors on {device}, but this process ran on "
            f"{_device} first; the launcher libraries run on one device per "
            "process")


def _mask_form(attn_mask, q, B, H, Nq, Nk):
    """The mask as the kernels read it, dense [B, 1 or H, Nq, Nk], and its
    configuration key (library.py): SDPA's broadcasting, with the batch and
    token dims materialized (a [B, 1, 1, Nk] padding mask becomes
    [B, 1, Nq, Nk]) and a head dim of 1 kept."""
    if not isinstance(attn_mask, torch.Tensor):
        raise ValueError("sage_attention: attn_mask must be a tensor")
    if attn_mask.device != q.device:
        raise ValueError(f"sage_attention: attn_mask is on "
                         f"{attn_mask.device}, q on {q.device}")
    if attn_mask.dtype == torch.bool:
        element = "i1"
    elif attn_mask.dtype == q.dtype:
        element = _DTYPES[q.dtype]
    else:
        raise ValueError(f"sage_attention: attn_mask is {attn_mask.dtype}; "
                         f"expected bool (keep) or q's {q.dtype} (added)")
    if attn_mask.dim() > 4:
        raise ValueError(f"sage_attention: attn_mask has {attn_mask.dim()} "
                         "dims; expected at most 4, broadcast to [B, H, Nq, "
                         "Nk]")
    mask = attn_mask.reshape((1,) * (4 - attn_mask.dim()) +
                             tuple(attn_mask.shape))
    for dim, (size, full) in enumerate(zip(mask.shape, (B, H, Nq, Nk))):
        if size not in (1, full):
            raise ValueError(
                f"sage_attention: attn_mask of shape "
                f"{tuple(attn_mask.shape)} does not broadcast to [B, H, Nq, "
                f"Nk] = [{B}, {H}, {Nq}, {Nk}]")
    heads = "h1" if mask.shape[1] == 1 else "hH"
    mask = mask.expand(B, mask.shape[1], Nq, Nk).contiguous()
    return mask, f"{element}_{heads}"


@torch.library.custom_op("sage::attention", mutates_args=())
def _attention_op(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                  attn_mask: Optional[torch.Tensor], mask: Optional[str],
                  is_causal: bool, recipe: str, scale: Optional[float],
                  layout: str) -> torch.Tensor:
    _check_device(q.device)
    launcher = _get_launcher(q.device, head_dim=q.shape[-1],
                             dtype=_DTYPES[q.dtype], causal=is_causal,
                             layout=layout, recipe=recipe, scale=scale,
                             mask=mask)
    B, H, Nq, _ = q.shape
    Hkv, Nk = k.shape[1], k.shape[2]
    o = _empty_output(q, v, layout)
    workspace_bytes = launcher.workspace_size(B, H, Hkv, Nq, Nk)
    workspace = torch.empty(workspace_bytes, dtype=torch.uint8,
                            device=q.device)

    def strides(x):  # in the attention's layout
        return list(x.transpose(1, 2).stride() if layout == "bnhd"
                    else x.stride())

    try:
        with torch.cuda.device(q.device):
            # Inputs in the header's order (q, k, v, then the mask, which
            # is [B, 1 or H, Nq, Nk] in every layout), then the output.
            masks = ([] if attn_mask is None else
                     [attn_mask.data_ptr(), list(attn_mask.stride())])
            launcher.launch(
                torch.cuda.current_stream(q.device).cuda_stream,
                q.data_ptr(), strides(q), k.data_ptr(), strides(k),
                v.data_ptr(), strides(v), *masks, o.data_ptr(), strides(o),
                workspace.data_ptr(), workspace_bytes, B, H, Hkv, Nq, Nk)
    except LauncherError as error:
        raise RuntimeError(f"sage_attention: {error}") from None
    return o


@_attention_op.register_fake
def _(q, k, v, attn_mask, mask, is_causal, recipe, scale, layout):
    return _empty_output(q, v, layout)


def attention(q, k, v, attn_mask=None, is_causal=False, scale=None,
              enable_gqa=False, recipe="auto"):
    """Attention of [B, H, N, D] CUDA tensors (f16 or bf16), as
    `scaled_dot_product_attention` computes it, through sage's quantized
    kernels. Q, K and V may be dense [B, H, N, D] tensors or transposes of
    dense [B, N, H, D] ones (all three alike; O comes back the same way).
    `is_causal` is top-left aligned, as in PyTorch. `attn_mask` is a bool
    keep-mask or an additive mask of q's dtype that broadcasts to [B, H,
    Nq, Nk], as in SDPA; it is materialized as [B, 1 or H, Nq, Nk] (no copy
    when it is that already), and a query row it masks whole gives 0 (SDPA
    gives NaN). `recipe`:
    "int8-fp8-smooth-k" (INT8 Q K^T with K smoothed, FP8 P V: the official
    SageAttention2 sm_90 recipe, 2.4x faster than the next on the H200),
    "int8-fp8" (Q smoothed too: the dialect's default, for inputs whose
    queries carry large channel means) or "auto" (the first)."""
    for name, x in (("q", q), ("k", k), ("v", v)):
        if not isinstance(x, torch.Tensor) or x.dim() != 4:
            raise ValueError(f"sage_attention: {name} must be a 4-d tensor "
                             "[B, H, N, D]")
        if not x.is_cuda:
            raise ValueError(f"sage_attention: {name} is on {x.device}; "
                             "the kernels run on CUDA devices")
        if x.dtype not in _DTYPES:
            raise ValueError(f"sage_attention: {name} is {x.dtype}; the "
                             "kernels take float16 or bfloat16")
    if k.device != q.device or v.device != q.device:
        raise ValueError("sage_attention: q, k and v must be on one device, "
                         f"got {q.device}, {k.device}, {v.device}")
    if k.dtype != q.dtype or v.dtype != q.dtype:
        raise ValueError("sage_attention: q, k and v must have one dtype, "
                         f"got {q.dtype}, {k.dtype}, {v.dtype}")
    D = q.shape[-1]
    # The default scale is the precompiled one; another is compiled on
    # first use where sage is installed.
    if scale is not None and math.isclose(scale, 1 / math.sqrt(D),
                                          rel_tol=1e-6):
        scale = None
    B, H, Nq = q.shape[:3]
    if k.shape[0] != B or v.shape[0] != B or k.shape[1] != v.shape[1] or \
            k.shape[2] != v.shape[2] or k.shape[3] != D or v.shape[3] != D:
        raise ValueError(f"sage_attention: shapes q {tuple(q.shape)}, k "
                         f"{tuple(k.shape)}, v {tuple(v.shape)} do not make "
                         "an attention")
    if k.shape[1] != H and not enable_gqa:
        raise ValueError(f"sage_attention: q has {H} heads and k "
                         f"{k.shape[1]}; pass enable_gqa=True")
    if H % k.shape[1]:
        raise ValueError(f"sage_attention: q's {H} heads are not a "
                         f"multiple of k's {k.shape[1]}")
    layouts = [_memory_layouts(x) for x in (q, k, v)]
    for name, x, fits in zip("qkv", (q, k, v), layouts):
        if not fits:
            raise ValueError(
                f"sage_attention: {name} (strides {tuple(x.stride())}) is "
                "neither dense [B, H, N, D] nor the transpose of a dense "
                "[B, N, H, D] tensor")
    shared = layouts[0] & layouts[1] & layouts[2]
    if not shared:
        raise ValueError("sage_attention: q, k and v must share a memory "
                         "order, got " + ", ".join(
                             f"{name} {sorted(fits)}"
                             for name, fits in zip("qkv", layouts)))
    layout = "bhnd" if "bhnd" in shared else "bnhd"
    mask = None
    if attn_mask is not None:
        if is_causal:
            raise ValueError("sage_attention: pass attn_mask or is_causal, "
                             "not both (as scaled_dot_product_attention)")
        attn_mask, mask = _mask_form(attn_mask, q, B, H, Nq, k.shape[2])
    if recipe not in RECIPES:
        raise ValueError(f"sage_attention: unknown recipe {recipe!r}; "
                         f"expected one of {list(RECIPES)}")
    if recipe == "auto":
        recipe = "int8-fp8-smooth-k"
    return torch.ops.sage.attention(q, k, v, attn_mask, mask, is_causal,
                                    recipe,
                                    None if scale is None else float(scale),
                                    layout)
