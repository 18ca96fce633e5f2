"""sage's Python side: today the ctypes binding of launcher libraries
(`sage_attention.launcher`, docs/Launchers.md)."""
