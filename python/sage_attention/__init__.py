"""sage from Python: `sage_attention.attention`, an operator shaped like
`torch.nn.functional.scaled_dot_product_attention` (sage_attention.ops),
and `sage_attention.launcher`, the ctypes binding of launcher libraries
(docs/Launchers.md). Importing the package needs no torch; `attention`
imports it on first use."""


def __getattr__(name):
    if name == "attention":
        from .ops import attention
        return attention
    raise AttributeError(f"module 'sage_attention' has no attribute {name!r}")
