"""Calls the host launchers of a sage launcher library (docs/Launchers.md).

A launcher library (built by `sage-launcher`) exports, per attention NAME,

    int64_t NAME_workspace_size(sizes...)
    int32_t NAME_launch(stream, (data, strides) per input and output,
                        workspace, workspace_bytes, sizes...)
    const char *NAME_last_error(void)

This module loads one with ctypes (no compiler, no torch) and passes each
argument as the C ABI takes it: an int as int64_t (pointers are 64-bit
integers in the x86-64 and AArch64 calling conventions), a list or tuple as
a pointer to int64_t values (strides), None as a null pointer.
"""

import ctypes

SUCCESS = 0
INVALID_ARGUMENT = 1
CUDA_ERROR = 2


class LauncherError(RuntimeError):
    """A launch that returned a nonzero status; `status` holds it."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class Launcher:
    """The three functions of attention `name` in `library`."""

    def __init__(self, library, name):
        self.library = ctypes.CDLL(str(library))
        self.name = name
        self._size = getattr(self.library, name + "_workspace_size")
        self._size.restype = ctypes.c_int64
        self._launch = getattr(self.library, name + "_launch")
        self._launch.restype = ctypes.c_int32
        self._error = getattr(self.library, name + "_last_error")
        self._error.restype = ctypes.c_char_p
        self._error.argtypes = []

    def workspace_size(self, *sizes):
        return self._size(*[ctypes.c_int64(s) for s in sizes])

    def last_error(self):
        return self._error().decode()

    def launch(self, *args, check=True):
        """Calls NAME_launch with `args` in its C order; returns the status,
        or raises LauncherError for a nonzero one when `check`."""
        converted, keep = [], []
        for arg in args:
            if arg is None:
                converted.append(ctypes.c_void_p(None))
            elif isinstance(arg, (list, tuple)):
                array = (ctypes.c_int64 * len(arg))(*arg)
                keep.append(array)
                converted.append(ctypes.cast(array, ctypes.c_void_p))
            else:
                converted.append(ctypes.c_int64(arg))
        status = self._launch(*converted)
        if status and check:
            raise LauncherError(status, self.last_error())
        return status
