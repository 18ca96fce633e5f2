"""sage from Python: `sage_attention.ops.attention`, an operator shaped like
`torch.nn.functional.scaled_dot_product_attention`, and
`sage_attention.launcher`, the ctypes binding of launcher libraries
(docs/Launchers.md). Importing the package needs no torch."""
