"""The launcher libraries that `sage_attention.attention` calls
(docs/Launchers.md, "PyTorch").

Precompiled: `python3 -m sage_attention.library --sage-launcher PATH --out
DIR --chip CHIP` writes one `sage.attention` per configuration (head dim,
element type, causal, memory layout, recipe, mask) into
DIR/attentions_CHIP.mlir,
builds them with sage-launcher into DIR/libsage_attention_CHIP.so and
writes DIR/sage_attention_CHIP.json, the index a configuration is looked up
in. On first use: where sage is installed (sage-launcher on PATH or in
SAGE_LAUNCHER), a configuration the index lacks (another head dim, a
scale) is compiled alone into the cache (SAGE_ATTENTION_CACHE, default
~/.cache/sage_attention) and found there from then on. Needs no torch.
"""

import argparse
import hashlib
import itertools
import json
import os
import shutil
import subprocess
import tempfile

HEAD_DIMS = (64, 128)
DTYPES = ("f16", "bf16")
# Memory layouts of Q, K, V and O: [B, H, N, D], or [B, N, H, D], which the
# function transposes on the way in and out (the lowering folds the
# transposes into the kernels' indexing).
LAYOUTS = ("bhnd", "bnhd")
# "int8-fp8-smooth-k": K smoothed only, the official SageAttention2 sm_90
# recipe; "int8-fp8": Q smoothed too, the dialect's default.
RECIPES = {"int8-fp8": '#sage.recipe<"int8-fp8">',
           "int8-fp8-smooth-k": '#sage.recipe<"int8-fp8", smooth = [k]>'}
# The chips the wheel carries a library for; the op picks by the device's
# compute capability.
CHIPS = {(8, 9): "sm_89", (9, 0): "sm_90a", (12, 0): "sm_120a"}
# A mask is "TYPE_HEADS": TYPE i1 (keep) or the inputs' dtype (added),
# HEADS "h1" (one mask for all heads) or "hH" (one per head); the batch dim
# is always B. None: no mask.
MASK_TYPES = ("i1", "f16", "bf16")
MASK_HEADS = ("h1", "hH")
KEYS = ("head_dim", "dtype", "causal", "layout", "recipe", "scale", "mask")


def config_name(config):
    """The function name of a configuration (a C identifier)."""
    name = (f"sage_d{config['head_dim']}_{config['dtype']}_"
            f"{config['layout']}{'_causal' if config['causal'] else ''}_"
            f"{config['recipe'].replace('-', '_')}")
    if config.get("mask") is not None:
        name += "_mask_" + config["mask"]
    if config.get("scale") is not None:
        digest = hashlib.sha1(repr(float(config["scale"])).encode())
        name += "_scale_" + digest.hexdigest()[:10]
    return name


def configurations():
    """Every configuration of the precompiled library: without a mask, and
    with one mask for all heads (a keep-mask or an additive one; PyTorch's
    padding and causal masks), not causal, in the default recipe. Other
    masks are compiled on first use."""
    for dim, dtype, causal, layout, recipe in itertools.product(
            HEAD_DIMS, DTYPES, (False, True), LAYOUTS, RECIPES):
        config = dict(head_dim=dim, dtype=dtype, causal=causal,
                      layout=layout, recipe=recipe, scale=None, mask=None)
        config["name"] = config_name(config)
        yield config
    for dim, dtype, layout, mask_type in itertools.product(
            HEAD_DIMS, DTYPES, LAYOUTS, ("i1", "float")):
        mask = ("i1" if mask_type == "i1" else dtype) + "_h1"
        config = dict(head_dim=dim, dtype=dtype, causal=False, layout=layout,
                      recipe="int8-fp8-smooth-k", scale=None, mask=mask)
        config["name"] = config_name(config)
        yield config


def attention_mlir(config):
    """One function holding one sage.attention. PyTorch's is_causal is
    top-left aligned when Nq != Nk."""
    dim, dtype = config["head_dim"], config["dtype"]
    t = f"tensor<?x?x?x{dim}x{dtype}>"
    attrs = ["layout = #sage.layout<[batch, heads, tokens, features]>",
             f"recipe = {RECIPES[config['recipe']]}"]
    if config.get("scale") is not None:
        attrs.append(f"scale = {float(config['scale'])!r} : f64")
    if config["causal"]:
        attrs += ["causal",
                  "causal_alignment = #sage.causal_alignment<top_left>"]
    mask_arg, mask_operand, mask_type = "", "", ""
    if config.get("mask") is not None:
        element, heads = config["mask"].split("_")
        mask_type = (f"tensor<?x{'1' if heads == 'h1' else '?'}x?x?x"
                     f"{element}>")
        mask_arg, mask_operand = f", %m: {mask_type}", " mask(%m)"
        mask_type = ", " + mask_type
    lines = [f"func.func @{config['name']}(%q: {t}, %k: {t}, %v: {t}"
             f"{mask_arg}) -> {t} {{"]
    names = ("q", "k", "v")
    if config["layout"] == "bnhd":
        lines += ["  %c0 = arith.constant 0 : index",
                  "  %c1 = arith.constant 1 : index",
                  "  %c2 = arith.constant 2 : index"]
        for x in names:
            lines += [
                f"  %{x}b = tensor.dim %{x}, %c0 : {t}",
                f"  %{x}n = tensor.dim %{x}, %c1 : {t}",
                f"  %{x}h = tensor.dim %{x}, %c2 : {t}",
                f"  %{x}e = tensor.empty(%{x}b, %{x}h, %{x}n) : {t}",
                f"  %{x}t = linalg.transpose ins(%{x} : {t}) outs(%{x}e : {t})"
                " permutation = [0, 2, 1, 3]"]
        names = ("qt", "kt", "vt")
    lines += [f"  %o = sage.attention %{names[0]}, %{names[1]}, %{names[2]}"
              f"{mask_operand} {{{', '.join(attrs)}}}",
              f"    : ({t}, {t}, {t}{mask_type}) -> {t}"]
    result = "%o"
    if config["layout"] == "bnhd":
        lines += [f"  %oe = tensor.empty(%qb, %qn, %qh) : {t}",
                  f"  %ot = linalg.transpose ins(%o : {t}) outs(%oe : {t})"
                  " permutation = [0, 2, 1, 3]"]
        result = "%ot"
    lines += [f"  return {result} : {t}", "}"]
    return "\n".join(lines) + "\n"


def build(configs, sage_launcher, out, chip):
    """Compiles `configs` into DIR/libsage_attention_CHIP.so with its index;
    returns the index's path."""
    os.makedirs(out, exist_ok=True)
    source = os.path.join(out, f"attentions_{chip}.mlir")
    with open(source, "w") as f:
        f.write("// Generated by sage_attention/library.py.\n\n")
        f.write("\n".join(attention_mlir(c) for c in configs))
    library = f"libsage_attention_{chip}.so"
    subprocess.run([sage_launcher, source, "-o", os.path.join(out, library),
                    "--header", os.path.join(out, f"sage_attention_{chip}.h"),
                    "--pipeline", f"chip={chip}"], check=True)
    index = os.path.join(out, f"sage_attention_{chip}.json")
    with open(index, "w") as f:
        json.dump(dict(chip=chip, library=library, attentions=configs), f,
                  indent=1)
    return index


def find_sage_launcher():
    """sage-launcher where sage is installed, else None."""
    return os.environ.get("SAGE_LAUNCHER") or shutil.which("sage-launcher")


def cache_dir():
    return os.environ.get("SAGE_ATTENTION_CACHE") or os.path.join(
        os.path.expanduser("~"), ".cache", "sage_attention")


def describe(wanted):
    """KEY=VALUE of a configuration; no mask goes unsaid."""
    return ", ".join(f"{key}={wanted[key]}" for key in KEYS
                     if key in wanted and
                     not (key == "mask" and wanted[key] is None))


def _find(index_paths, wanted):
    """(library path, function name) from the first index holding
    `wanted`, or None."""
    for path in index_paths:
        if not os.path.exists(path):
            continue
        with open(path) as f:
            index = json.load(f)
        for config in index["attentions"]:
            if all(config.get(key) == wanted[key] for key in KEYS):
                return (os.path.join(os.path.dirname(path),
                                     index["library"]), config["name"])
    return None


def lookup(index_paths, chip, wanted, log=None):
    """The (library path, function name) of configuration `wanted` (KEYS)
    for `chip`: from the first index that holds it, else from the cache,
    else compiled into the cache where sage-launcher is found. Raises
    LookupError saying what is missing and how to get it."""
    wanted = dict(wanted)
    wanted.setdefault("scale", None)
    wanted.setdefault("mask", None)
    found = _find(index_paths, wanted)
    if found:
        return found
    config = dict(wanted, name=config_name(wanted))
    directory = os.path.join(cache_dir(), chip, config["name"])
    index = os.path.join(directory, f"sage_attention_{chip}.json")
    found = _find([index], wanted)
    if found:
        return found
    sage_launcher = find_sage_launcher()
    if not sage_launcher:
        raise LookupError(
            f"no {chip} kernel for {describe(wanted)} in {index_paths}; "
            "with sage installed (sage-launcher on PATH or SAGE_LAUNCHER) "
            "it is compiled on first use")
    if log:
        log(f"sage_attention: compiling {describe(wanted)} for {chip} "
            f"into {directory}")
    # Built in a directory of its own and renamed into place, so that a
    # concurrent or interrupted build never leaves half an entry.
    os.makedirs(os.path.dirname(directory), exist_ok=True)
    staging = tempfile.mkdtemp(prefix=config["name"] + ".",
                               dir=os.path.dirname(directory))
    try:
        build([config], sage_launcher, staging, chip)
        os.rename(staging, directory)
    except subprocess.CalledProcessError as error:
        raise LookupError(f"compiling {describe(wanted)} for {chip} failed "
                          f"(sage-launcher exited with {error.returncode}; "
                          "its messages are above)") from None
    except OSError:  # another build got there first
        pass
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    found = _find([index], wanted)
    if not found:
        raise LookupError(f"compiling {describe(wanted)} for {chip} left no "
                          f"index at {index}")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sage-launcher", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--chip", default="sm_90a",
                        choices=sorted(CHIPS.values()))
    args = parser.parse_args()
    build(list(configurations()), args.sage_launcher, args.out, args.chip)


if __name__ == "__main__":
    main()
