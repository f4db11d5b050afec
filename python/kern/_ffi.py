"""The one place that knows libkern's C ABI: loading, structs, signatures.

Everything else in the package calls libkern through the objects defined
here.  The library is loaded on first use, not at import, so ``import kern``
works (for type checking, ``--help``, documentation) on a machine without
libkern; the first call that needs it raises :class:`kern.Error` saying where
it looked.

Where libkern.so comes from, in order (docs/python.md says why):

1. ``$KERN_LIBRARY``, a path to the shared library.  When it is set and
   cannot be loaded that is an error, never a fallback to another copy.
2. A copy shipped inside the package (``kern/libkern.so.1``), for a wheel
   that carries the library.
3. The build directory of the source tree the package sits in
   (``python/kern`` -> ``build/libkern.so.1``), for work in the repository.
4. The system's loader (``libkern.so.1`` through ldconfig and
   ``$LD_LIBRARY_PATH``), after ``cmake --install``.

One kern context serves the whole process: every device, module and array
hangs off it.  kern.h allows a context to be used by one thread at a time,
and ctypes releases the GIL during a call, so every call into libkern holds
:data:`lock`, a re-entrant lock (re-entrant because a finalizer that frees a
handle may run, through the garbage collector, while the same thread holds
it).  Structs follow Note [struct growth] of kern.h: they begin with
``struct_size``, which :func:`new_struct` sets.
"""
import ctypes as C
import os
import threading

# ---------------------------------------------------------------- constants

SUCCESS = 0
STATUS_NAMES = (
    "SUCCESS", "ERROR_INVALID_ARGUMENT", "ERROR_OUT_OF_MEMORY", "ERROR_IO",
    "ERROR_COMPILE", "ERROR_NOT_FOUND", "ERROR_BACKEND_UNAVAILABLE",
    "ERROR_UNSUPPORTED", "ERROR_TYPE_MISMATCH", "ERROR_LAUNCH",
    "ERROR_DEVICE", "ERROR_TOOLCHAIN", "ERROR_CACHE", "ERROR_OUT_OF_BOUNDS",
    "ERROR_INVALID_HANDLE",
)
(ERROR_INVALID_ARGUMENT, ERROR_OUT_OF_MEMORY, ERROR_IO, ERROR_COMPILE,
 ERROR_NOT_FOUND, ERROR_BACKEND_UNAVAILABLE, ERROR_UNSUPPORTED,
 ERROR_TYPE_MISMATCH, ERROR_LAUNCH, ERROR_DEVICE, ERROR_TOOLCHAIN,
 ERROR_CACHE, ERROR_OUT_OF_BOUNDS, ERROR_INVALID_HANDLE) = range(1, 15)

KIND_SCALAR, KIND_VECTOR, KIND_MATRIX, KIND_STRUCT = 0, 1, 2, 3
SCALAR_NAMES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                "uint32", "uint64", "float32", "float64", "float16", "bfloat16")
SCALAR_SIZES = (1, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8, 2, 2)
SCALAR_COUNT = len(SCALAR_NAMES)
BACKEND_NAMES = ("cpu", "cuda", "opencl", "vulkan")
BACKEND_CPU, BACKEND_CUDA, BACKEND_OPENCL, BACKEND_VULKAN = 0, 1, 2, 3
PARAM_VALUE, PARAM_ARRAY = 0, 1
# kern.h's KERN_SCALAR_COUNT (float16 and bfloat16 come after float64): a
# generic kernel's typing.Any parameter has it as its scalar, and asking
# for an instantiation with it means "the declared type".
SCALAR_NONE = 13
ARG_ARRAY, ARG_INT, ARG_FLOAT, ARG_DATA = 0, 1, 2, 3
MAX_DIMS = 4

# ---------------------------------------------------------------- structs


class kern_type(C.Structure):
    _fields_ = [("kind", C.c_int), ("scalar", C.c_int), ("rows", C.c_int),
                ("cols", C.c_int)]


class kern_options(C.Structure):
    _fields_ = [("struct_size", C.c_size_t), ("cache_dir", C.c_char_p),
                ("num_threads", C.c_int), ("no_cache", C.c_int),
                ("debug", C.c_int), ("reserved0", C.c_int),
                ("no_native", C.c_int), ("cuda_tier", C.c_int)]


class kern_backend_info(C.Structure):
    _fields_ = [("struct_size", C.c_size_t), ("name", C.c_char_p),
                ("reason", C.c_char_p), ("kind", C.c_int),
                ("available", C.c_int), ("device_count", C.c_int),
                ("reserved0", C.c_int)]


class kern_device_info(C.Structure):
    _fields_ = [("struct_size", C.c_size_t), ("backend", C.c_int),
                ("index", C.c_int), ("name", C.c_char * 128),
                ("description", C.c_char * 256), ("compute_units", C.c_int),
                ("reserved0", C.c_int), ("memory_bytes", C.c_uint64),
                ("capability_major", C.c_int), ("capability_minor", C.c_int),
                ("fp64", C.c_int), ("int64_atomics", C.c_int),
                ("warp_size", C.c_int), ("max_group_size", C.c_int),
                ("driver_version", C.c_char * 64), ("uuid", C.c_ubyte * 16),
                ("pci_bus_id", C.c_char * 32)]


class kern_param_info(C.Structure):
    _fields_ = [("struct_size", C.c_size_t), ("name", C.c_char_p),
                ("kind", C.c_int), ("type", kern_type), ("ndim", C.c_int),
                ("struct_name", C.c_char_p), ("type_name", C.c_char_p)]


class kern_field_info(C.Structure):
    _fields_ = [("struct_size", C.c_size_t), ("name", C.c_char_p),
                ("offset", C.c_size_t), ("size", C.c_size_t),
                ("kind", C.c_int), ("type", kern_type), ("ndim", C.c_int),
                ("depth", C.c_int), ("reserved0", C.c_int)]


# KERN_STRUCT_ARRAY_SIZE: an array field's descriptor in a struct's bytes.
STRUCT_ARRAY_SIZE = 56


class _arg_u(C.Union):
    _fields_ = [("array", C.c_void_p), ("i", C.c_int64), ("f", C.c_double),
                ("data", C.c_void_p)]


class kern_arg(C.Structure):
    _fields_ = [("struct_size", C.c_size_t), ("kind", C.c_int),
                ("u", _arg_u), ("size", C.c_size_t)]


def new_struct(cls):
    """An instance of a kern struct with struct_size set and the rest 0."""
    s = cls()
    s.struct_size = C.sizeof(cls)
    return s


# DLPack v0.6 (the layout every later version keeps for DLManagedTensor).
class DLDevice(C.Structure):
    _fields_ = [("device_type", C.c_int32), ("device_id", C.c_int32)]


class DLDataType(C.Structure):
    _fields_ = [("code", C.c_uint8), ("bits", C.c_uint8),
                ("lanes", C.c_uint16)]


class DLTensor(C.Structure):
    _fields_ = [("data", C.c_void_p), ("device", DLDevice),
                ("ndim", C.c_int32), ("dtype", DLDataType),
                ("shape", C.POINTER(C.c_int64)),
                ("strides", C.POINTER(C.c_int64)),
                ("byte_offset", C.c_uint64)]


class DLManagedTensor(C.Structure):
    pass


DLDeleter = C.CFUNCTYPE(None, C.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [("dl_tensor", DLTensor),
                            ("manager_ctx", C.c_void_p),
                            ("deleter", DLDeleter)]

# ---------------------------------------------------------------- loading

P = C.c_void_p
PP = C.POINTER(C.c_void_p)
I = C.c_int
PI = C.POINTER(C.c_int)
I64P = C.POINTER(C.c_int64)
S = C.c_char_p
Z = C.c_size_t

_SIGNATURES = {
    "kern_version": (I, []),
    "kern_version_string": (S, []),
    "kern_status_string": (S, [I]),
    "kern_status_name": (S, [I]),
    "kern_type_size": (Z, [kern_type]),
    "kern_type_name": (S, [kern_type, C.c_char_p, Z]),
    "kern_type_parse": (I, [S, C.POINTER(kern_type)]),
    "kern_context_new": (I, [C.POINTER(kern_options), PP]),
    "kern_context_free": (None, [P]),
    "kern_last_error": (S, [P]),
    "kern_clear_error": (None, [P]),
    "kern_backend_count": (I, []),
    "kern_backend_get": (I, [P, I, C.POINTER(kern_backend_info)]),
    "kern_device_count": (I, [P]),
    "kern_device_get": (I, [P, I, C.POINTER(kern_device_info)]),
    "kern_device_find": (I, [P, S, PI]),
    "kern_device_choice": (I, [P, C.c_char_p, Z, C.c_char_p, Z]),
    "kern_array_new": (I, [P, I, kern_type, I, I64P, PP]),
    "kern_array_free": (None, [P]),
    "kern_array_nbytes": (Z, [P]),
    "kern_array_upload": (I, [P, P, Z]),
    "kern_array_download": (I, [P, P, Z]),
    "kern_array_fill": (I, [P, P]),
    "kern_array_zero": (I, [P]),
    "kern_array_fill_async": (I, [P, P, P]),
    "kern_array_zero_async": (I, [P, P]),
    "kern_array_copy": (I, [P, P]),
    "kern_array_copy_async": (I, [P, Z, P, Z, Z, P]),
    "kern_array_upload_async": (I, [P, P, Z, P, Z]),
    "kern_array_download_async": (I, [P, P, Z, P, Z]),
    "kern_array_wrap": (I, [P, I, kern_type, I, I64P, P, PP]),
    "kern_array_native": (P, [P]),
    "kern_module_load_file": (I, [P, I, S, PP]),
    "kern_module_load_string": (I, [P, I, S, S, Z, PP]),
    "kern_module_free": (None, [P]),
    "kern_module_wait_final": (I, [P]),
    "kern_module_kernel_count": (I, [P]),
    "kern_module_kernel_name": (S, [P, I]),
    "kern_module_get_kernel": (I, [P, S, PP]),
    "kern_module_instantiate_types": (I, [P, S, I, C.POINTER(kern_param_info), PP]),
    "kern_module_generic_param_count": (I, [P, S]),
    "kern_module_generic_param": (I, [P, S, I, C.POINTER(kern_param_info)]),
    "kern_compile_source": (I, [P, S, S, Z, S, PP]),
    "kern_free": (None, [P]),
    "kern_kernel_name": (S, [P]),
    "kern_kernel_param_count": (I, [P]),
    "kern_kernel_set_block_dim": (I, [P, I]),
    "kern_kernel_block_dim": (I, [P]),
    "kern_kernel_adjoint": (I, [P, C.POINTER(P)]),
    "kern_kernel_tangent": (I, [P, C.POINTER(P)]),
    "kern_kernel_param": (I, [P, I, C.POINTER(kern_param_info)]),
    "kern_kernel_param_field_count": (I, [P, I]),
    "kern_kernel_param_field": (I, [P, I, I, C.POINTER(kern_field_info)]),
    "kern_struct_set_array": (I, [P, P]),
    "kern_launch": (I, [P, I, I64P, I, C.POINTER(kern_arg)]),
    "kern_launch_async": (I, [P, P, I, I64P, I, C.POINTER(kern_arg)]),
    "kern_synchronize": (I, [P, I]),
    "kern_stream_new": (I, [P, I, PP]),
    "kern_stream_free": (I, [P]),
    "kern_stream_default": (I, [P, I, PP]),
    "kern_stream_synchronize": (I, [P]),
    "kern_stream_query": (I, [P, PI]),
    "kern_stream_device": (I, [P]),
    "kern_stream_wait_event": (I, [P, P]),
    "kern_stream_wrap": (I, [P, I, P, PP]),
    "kern_stream_native": (P, [P]),
    "kern_event_new": (I, [P, PP]),
    "kern_event_free": (None, [P]),
    "kern_event_record": (I, [P, P]),
    "kern_event_synchronize": (I, [P]),
    "kern_event_query": (I, [P, PI]),
    "kern_event_elapsed": (I, [P, P, C.POINTER(C.c_double)]),
    "kern_graph_begin_capture": (I, [P]),
    "kern_graph_end_capture": (I, [P, PP]),
    "kern_graph_replay": (I, [P, P]),
    "kern_graph_set_arg": (I, [P, I, I, kern_arg]),
    "kern_graph_launch_count": (I, [P]),
    "kern_graph_free": (None, [P]),
}

lock = threading.RLock()
lib = None          # the loaded CDLL, once load() succeeded
library_path = None  # where it came from
_load_error = None


def _candidates():
    env = os.environ.get("KERN_LIBRARY")
    if env:
        return [(env, "$KERN_LIBRARY")], True
    here = os.path.dirname(os.path.abspath(__file__))
    out = []
    for name in ("libkern.so.1", "libkern.so", "libkern.dylib"):
        out.append((os.path.join(here, name), "the package directory"))
    repo = os.path.dirname(os.path.dirname(here))
    for build in ("build", "build-gpu", "build-release"):
        out.append((os.path.join(repo, build, "libkern.so.1"),
                    "the repository's build directory"))
    out.append(("libkern.so.1", "the system's library path"))
    return out, False


def load():
    """Loads libkern once and declares every signature; returns the CDLL.

    Raises kern.Error (through the caller) with the places tried when no
    copy can be loaded."""
    global lib, library_path, _load_error
    if lib is not None:
        return lib
    with lock:
        if lib is not None:
            return lib
        tried = []
        cands, explicit = _candidates()
        handle = None
        for path, where in cands:
            if os.sep in path and not os.path.exists(path) and not explicit:
                tried.append("%s (%s): not there" % (path, where))
                continue
            try:
                handle = C.CDLL(path)
            except OSError as e:
                tried.append("%s (%s): %s" % (path, where, e))
                if explicit:
                    break
                continue
            library_path = path
            break
        if handle is None:
            _load_error = ("cannot load libkern: " + "; ".join(tried) +
                           ". Build kern (cmake -S . -B build && cmake "
                           "--build build) or set KERN_LIBRARY to the path "
                           "of libkern.so")
            raise OSError(_load_error)
        for name, (res, args) in _SIGNATURES.items():
            f = getattr(handle, name)
            f.restype = res
            f.argtypes = args
        lib = handle
        return lib
