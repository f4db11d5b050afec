"""kern for Python: load a Warp kernel file, call its kernels on NumPy,
PyTorch, CuPy and JAX arrays, on the CPU, CUDA or OpenCL.

    import kern, numpy as np
    m = kern.load("examples/saxpy.py", device="cpu")
    x = np.arange(8, dtype=np.float32); y = np.ones(8, np.float32)
    m.saxpy(2.0, x, y, dim=8)          # or kern.launch(m.saxpy, dim=8, inputs=[2.0, x, y])

The package is pure Python over libkern's C ABI (ctypes); see docs/python.md
for where it finds libkern.so, and kern.h for the semantics underneath.
"""
from ._errors import (BackendUnavailableError, CacheError, CompileError,
                      DeviceError, Error, InvalidArgumentError,
                      InvalidHandleError, IOError_ as KernIOError, LaunchError,
                      NotFoundError, OutOfBoundsError, OutOfMemoryError,
                      ToolchainError, TypeMismatchError, UnsupportedError)
from ._types import (Type, dtype, bool_, int8, int16, int32, int64, uint8,
                     uint16, uint32, uint64, float32, float64, vec2, vec3,
                     vec4, vec2d, vec3d, vec4d, vec2i, vec3i, vec4i, mat22,
                     mat33, mat44, mat22d, mat33d, mat44d)
from ._runtime import (Device, Event, Graph, Stream, Timer, backends, capture,
                       devices, elapsed, get_device, init, synchronize)
from ._array import (Array, array, empty, from_dlpack, from_numpy, full, ones,
                     zeros)
from ._module import (GenericKernel, Kernel, Launch, Module, Param,
                      compile_source, launch, launch_tiled, load)
from ._tape import Tape, jvp

__version__ = "0.1.0"

__all__ = [
    "Tape",
    "Array", "BackendUnavailableError", "CacheError", "CompileError",
    "Device", "DeviceError", "Error", "Event", "Graph", "InvalidArgumentError",
    "GenericKernel", "InvalidHandleError", "KernIOError", "Kernel", "Launch",
    "LaunchError", "Module",
    "NotFoundError", "OutOfBoundsError", "OutOfMemoryError", "Param",
    "Stream", "Timer", "ToolchainError", "Type", "TypeMismatchError",
    "UnsupportedError", "array", "backends", "capture", "compile_source",
    "devices", "dtype", "elapsed", "empty", "from_dlpack", "from_numpy",
    "full", "get_device", "init", "jvp", "launch", "launch_tiled", "library_path", "load", "ones",
    "synchronize", "version", "zeros",
    "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
    "uint64", "float32", "float64", "vec2", "vec3", "vec4", "vec2d", "vec3d",
    "vec4d", "vec2i", "vec3i", "vec4i", "mat22", "mat33", "mat44", "mat22d",
    "mat33d", "mat44d",
]


def version():
    """The version of the libkern actually loaded ("0.1.0")."""
    from . import _runtime as r
    return r._lib().kern_version_string().decode()


def library_path():
    """The path libkern was loaded from (loads it if needed)."""
    from . import _ffi, _runtime as r
    r._lib()
    return _ffi.library_path
