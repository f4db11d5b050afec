"""Drives kern's C API from Python through ctypes alone, with no C glue.

The handle-based ABI (opaque pointers, integers, doubles, small structs by
value) is meant to be bound by any language's FFI; this test is the proof
for an interpreter: context, array, stream, asynchronous launch, event
timing, download, and DLPack hand-offs to and from NumPy without a copy.

Usage: test_ctypes.py LIBKERN_SO [DEVICE]   (exit 77 when DEVICE is absent)
"""
import ctypes as C
import os
import sys

try:
    import numpy as np
except ImportError:
    # The binding proof includes the hand-off to NumPy, so without NumPy it
    # cannot run: skipped (77), like a test whose device is absent.
    # tools/setup-debian and .ci/run install it (python3-numpy), and
    # tests/CMakeLists.txt picks a python3 that has it where there is one.
    print("skipped: NumPy is not installed for %s (apt-get install python3-numpy)"
          % sys.executable)
    sys.exit(77)

lib = C.CDLL(sys.argv[1])
device_name = sys.argv[2] if len(sys.argv) > 2 else "cpu"

KERN_SUCCESS = 0
KERN_KIND_SCALAR = 0
KERN_SCALAR_FLOAT32 = 9
KERN_ARG_ARRAY, KERN_ARG_INT, KERN_ARG_FLOAT = 0, 1, 2


class kern_type(C.Structure):
    _fields_ = [("kind", C.c_int), ("scalar", C.c_int), ("rows", C.c_int), ("cols", C.c_int)]


class _arg_u(C.Union):
    _fields_ = [("array", C.c_void_p), ("i", C.c_int64), ("f", C.c_double), ("data", C.c_void_p)]


class kern_arg(C.Structure):
    # struct_size first, as every extensible kern struct (docs/ABI.md); the
    # kern_arg_* helpers are static inline in kern.h, so Python fills the
    # struct itself, struct_size included.
    _fields_ = [("struct_size", C.c_size_t), ("kind", C.c_int), ("u", _arg_u), ("size", C.c_size_t)]

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.struct_size = C.sizeof(kern_arg)


P = C.c_void_p
PP = C.POINTER(C.c_void_p)
sigs = {
    "kern_context_new": (C.c_int, [P, PP]),
    "kern_context_free": (None, [P]),
    "kern_last_error": (C.c_char_p, [P]),
    "kern_device_find": (C.c_int, [P, C.c_char_p, C.POINTER(C.c_int)]),
    "kern_module_load_string": (C.c_int, [P, C.c_int, C.c_char_p, C.c_char_p, C.c_size_t, PP]),
    "kern_module_get_kernel": (C.c_int, [P, C.c_char_p, PP]),
    "kern_array_new": (C.c_int, [P, C.c_int, kern_type, C.c_int, C.POINTER(C.c_int64), PP]),
    "kern_array_free": (None, [P]),
    "kern_array_upload_async": (C.c_int, [P, P, C.c_size_t, P, C.c_size_t]),
    "kern_array_download_async": (C.c_int, [P, P, C.c_size_t, P, C.c_size_t]),
    "kern_array_download": (C.c_int, [P, P, C.c_size_t]),
    "kern_stream_new": (C.c_int, [P, C.c_int, PP]),
    "kern_stream_free": (C.c_int, [P]),
    "kern_stream_synchronize": (C.c_int, [P]),
    "kern_event_new": (C.c_int, [P, PP]),
    "kern_event_free": (None, [P]),
    "kern_event_record": (C.c_int, [P, P]),
    "kern_event_elapsed": (C.c_int, [P, P, C.POINTER(C.c_double)]),
    "kern_launch_async": (C.c_int, [P, P, C.c_int, C.POINTER(C.c_int64), C.c_int, C.POINTER(kern_arg)]),
    "kern_array_to_dlpack": (C.c_int, [P, PP]),
    "kern_array_from_dlpack": (C.c_int, [P, P, PP]),
    "kern_array_to_dlpack_versioned": (C.c_int, [P, PP]),
    "kern_array_from_dlpack_versioned": (C.c_int, [P, P, PP]),
    "kern_status_name": (C.c_char_p, [C.c_int]),
}
for name, (res, args) in sigs.items():
    f = getattr(lib, name)
    f.restype = res
    f.argtypes = args

ctx = P()


def ok(status, what):
    if status != KERN_SUCCESS:
        msg = lib.kern_last_error(ctx).decode() if ctx else ""
        raise SystemExit(f"{what} failed: {lib.kern_status_name(status).decode()}: {msg}")


ok(lib.kern_context_new(None, C.byref(ctx)), "kern_context_new")
dev = C.c_int(-1)
if lib.kern_device_find(ctx, device_name.encode(), C.byref(dev)) != KERN_SUCCESS:
    print("skipped:", lib.kern_last_error(ctx).decode())
    lib.kern_context_free(ctx)
    sys.exit(77)

src = b"""import warp as wp

@wp.kernel
def axpb(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32), a: wp.float32, b: wp.float32):
    i = wp.tid()
    y[i] = a * x[i] + b
"""
mod, kern = P(), P()
ok(lib.kern_module_load_string(ctx, dev, b"axpb.py", src, len(src), C.byref(mod)), "module load")
ok(lib.kern_module_get_kernel(mod, b"axpb", C.byref(kern)), "get kernel")

n = 10000
f32 = kern_type(KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 1, 1)
shape = (C.c_int64 * 1)(n)
x, y = P(), P()
ok(lib.kern_array_new(ctx, dev, f32, 1, shape, C.byref(x)), "array x")
ok(lib.kern_array_new(ctx, dev, f32, 1, shape, C.byref(y)), "array y")

host = np.arange(n, dtype=np.float32) * np.float32(0.5)
stream, e0, e1 = P(), P(), P()
ok(lib.kern_stream_new(ctx, dev, C.byref(stream)), "stream")
ok(lib.kern_event_new(ctx, C.byref(e0)), "event")
ok(lib.kern_event_new(ctx, C.byref(e1)), "event")

args = (kern_arg * 4)()
for a in args:  # ctypes arrays do not call __init__
    a.struct_size = C.sizeof(kern_arg)
assert all(a.struct_size == C.sizeof(kern_arg) for a in args)
args[0].kind = KERN_ARG_ARRAY
args[0].u.array = x
args[1].kind = KERN_ARG_ARRAY
args[1].u.array = y
args[2].kind = KERN_ARG_FLOAT
args[2].u.f = 3.0
args[3].kind = KERN_ARG_FLOAT
args[3].u.f = -1.0

out = np.zeros(n, dtype=np.float32)
ok(lib.kern_array_upload_async(x, stream, 0, host.ctypes.data, host.nbytes), "upload")
ok(lib.kern_event_record(e0, stream), "record")
ok(lib.kern_launch_async(kern, stream, 1, shape, 4, args), "launch")
ok(lib.kern_event_record(e1, stream), "record")
ok(lib.kern_array_download_async(y, stream, 0, out.ctypes.data, out.nbytes), "download")
ok(lib.kern_stream_synchronize(stream), "synchronize")
ms = C.c_double(-1)
ok(lib.kern_event_elapsed(e0, e1, C.byref(ms)), "elapsed")
assert ms.value >= 0, ms.value
want = np.float32(3.0) * host - np.float32(1.0)
assert np.array_equal(out, want), (out[:5], want[:5])

# DLPack, kern -> NumPy: a capsule around kern's DLManagedTensor; NumPy
# reads the CPU array in place (no copy), so a later kern write shows up.
PyCapsule_New = C.pythonapi.PyCapsule_New
PyCapsule_New.restype = C.py_object
PyCapsule_New.argtypes = [C.c_void_p, C.c_char_p, C.c_void_p]
PyCapsule_GetPointer = C.pythonapi.PyCapsule_GetPointer
PyCapsule_GetPointer.restype = C.c_void_p
PyCapsule_GetPointer.argtypes = [C.py_object, C.c_char_p]
PyCapsule_SetName = C.pythonapi.PyCapsule_SetName
PyCapsule_SetName.restype = C.c_int
PyCapsule_SetName.argtypes = [C.py_object, C.c_char_p]


class KernTensor:
    """The two methods of the DLPack Python protocol, over a kern array."""

    def __init__(self, array):
        self.array = array

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU

    def __dlpack__(self, stream=None, max_version=None, **kwargs):
        managed = P()
        # DLPack 1.x when the consumer can take it (NumPy 2.1 and later ask
        # with max_version=(1, 0)): kern's DLManagedTensorVersioned.
        if max_version is not None and max_version[0] >= 1:
            ok(lib.kern_array_to_dlpack_versioned(self.array, C.byref(managed)),
               "to_dlpack_versioned")
            KernTensor.versioned_exports += 1
            return PyCapsule_New(managed, b"dltensor_versioned", None)
        ok(lib.kern_array_to_dlpack(self.array, C.byref(managed)), "to_dlpack")
        # The consumer (NumPy) calls the tensor's deleter when done.
        return PyCapsule_New(managed, b"dltensor", None)

    versioned_exports = 0


have_dlpack = os.environ.get("KERN_HAVE_DLPACK", "1") != "0"
if not have_dlpack:
    print("DLPack hand-off not run: kern was built without dlpack.h (libdlpack-dev)")
if device_name.startswith("cpu") and have_dlpack:
    view = np.from_dlpack(KernTensor(y))
    assert view.shape == (n,) and view.dtype == np.float32
    assert np.array_equal(view, want)
    ok(lib.kern_array_upload_async(y, stream, 0, host.ctypes.data, host.nbytes), "upload")
    ok(lib.kern_stream_synchronize(stream), "synchronize")
    assert np.array_equal(view, host), "the NumPy view does not alias kern's memory"
    del view

    # DLPack, NumPy -> kern: kern wraps NumPy's memory and launches on it.
    src_np = np.linspace(0, 1, n, dtype=np.float32)
    cap = src_np.__dlpack__()
    ptr = PyCapsule_GetPointer(cap, b"dltensor")
    wrapped = P()
    ok(lib.kern_array_from_dlpack(ctx, ptr, C.byref(wrapped)), "from_dlpack")
    PyCapsule_SetName(cap, b"used_dltensor")  # kern owns it now
    args[0].u.array = wrapped
    args[1].u.array = wrapped  # in place: src = 3 src - 1
    before = src_np.copy()
    ok(lib.kern_launch_async(kern, stream, 1, shape, 4, args), "launch on NumPy memory")
    ok(lib.kern_stream_synchronize(stream), "synchronize")
    assert np.array_equal(src_np, np.float32(3.0) * before - np.float32(1.0))
    lib.kern_array_free(wrapped)  # calls NumPy's deleter

    # DLPack 1.x, NumPy -> kern, where NumPy produces it (2.1 and later):
    # kern reads NumPy's DLManagedTensorVersioned in place.
    try:
        cap = src_np.__dlpack__(max_version=(1, 0))
    except TypeError:
        cap = None
        print("DLPack 1.x not run: NumPy %s has no versioned DLPack" % np.__version__)
    if cap is not None:
        ptr = PyCapsule_GetPointer(cap, b"dltensor_versioned")
        wrapped = P()
        ok(lib.kern_array_from_dlpack_versioned(ctx, ptr, C.byref(wrapped)),
           "from_dlpack_versioned")
        PyCapsule_SetName(cap, b"used_dltensor_versioned")
        args[0].u.array = wrapped
        args[1].u.array = wrapped
        before = src_np.copy()
        ok(lib.kern_launch_async(kern, stream, 1, shape, 4, args), "launch on NumPy memory (1.x)")
        ok(lib.kern_stream_synchronize(stream), "synchronize")
        assert np.array_equal(src_np, np.float32(3.0) * before - np.float32(1.0))
        lib.kern_array_free(wrapped)
        # A read-only NumPy array comes flagged and is refused.
        ro = np.ones(4, dtype=np.float32)
        ro.flags.writeable = False
        cap = ro.__dlpack__(max_version=(1, 0))
        ptr = PyCapsule_GetPointer(cap, b"dltensor_versioned")
        st = lib.kern_array_from_dlpack_versioned(ctx, ptr, C.byref(wrapped))
        assert st != KERN_SUCCESS and b"read-only" in lib.kern_last_error(ctx), st
        del cap  # still NumPy's: its capsule destructor frees it
        print("DLPack 1.x: NumPy -> kern ok; kern -> NumPy as %s" %
              ("versioned" if KernTensor.versioned_exports else "unversioned"))

lib.kern_event_free(e0)
lib.kern_event_free(e1)
ok(lib.kern_stream_free(stream), "stream free")
lib.kern_context_free(ctx)
print("ok: ctypes drove context, array, stream, launch, events (%.3f ms), download%s"
      % (ms.value, ", DLPack" if have_dlpack and device_name.startswith("cpu") else ""))
