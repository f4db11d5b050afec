"""kern.warp: Warp's Python API over kern.

A Warp program runs on kern by changing ``import warp as wp`` to
``import kern.warp as wp``: ``@wp.kernel``, ``@wp.func`` and ``@wp.struct``
take their source from the script (Note [one source per Python module] in
_codegen.py), ``wp.launch`` runs them on kern's CPU, OpenCL or CUDA device,
and arrays are kern arrays.  What kern cannot do yet is refused at the call
with an error that names the feature (``wp.Mesh``: meshes);
nothing silently does something else.  docs/python.md, "kern.warp", lists
what works.

Devices follow Warp: with no device named, kernels and arrays go to
$KERN_DEVICE when it is set, else ``cuda:0`` when kern has a CUDA device,
else ``cpu``.  kern's own device names (``"opencl:0"``) work everywhere a
Warp device string does.
"""
import builtins as _builtins
import math as _math
import os as _os
import sys as _sys
import time as _time
import types as _pytypes

from .. import _array, _ffi, _module, _runtime, _types
from .. import _tape as _runtime_tape
from .._errors import (Error, InvalidArgumentError, TypeMismatchError,
                       UnsupportedError)
from .. import _errors
from . import _codegen, _values
from ._values import (  # noqa: F401  (re-exported: Warp's names)
    int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16,
    float32, float64, bfloat16, half, bool,
    vec2, vec3, vec4, vec2f, vec3f, vec4f, vec2d, vec3d, vec4d, vec2i,
    vec3i, vec4i, vec2ui, vec3ui, vec4ui, vec2b, vec3b, vec4b, vec2ub,
    vec3ub, vec4ub, vec2s, vec3s, vec4s, vec2us, vec3us, vec4us, vec2l,
    vec3l, vec4l, vec2ul, vec3ul, vec4ul, mat22, mat33, mat44, mat22f,
    mat33f, mat44f, mat22d, mat33d, mat44d, quat, quatf, quatd, transform,
    transformf, transformd, spatial_vector, spatial_vectord, spatial_matrix)

__version__ = "1.19.0"   # the Warp API this module follows
Array = _array.Array
Device = _runtime.Device
Stream = _runtime.Stream

pi, tau, e = _math.pi, _math.tau, _math.e
half_pi = _math.pi / 2
inf, nan = _math.inf, _math.nan
phi = (1 + _math.sqrt(5)) / 2
ln2, ln10 = _math.log(2), _math.log(10)
log2e, log10e = 1 / _math.log(2), 1 / _math.log(10)
PI, TAU, E, HALF_PI, INF, NAN, PHI = pi, tau, e, half_pi, inf, nan, phi
LN2, LN10, LOG2E, LOG10E = ln2, ln10, log2e, log10e
Int, Float, Scalar = int, float, float   # generic annotations (kernel source)


def _refuse(what, why=""):
    raise UnsupportedError("kern.warp: %s is not supported yet%s"
                           % (what, (" (%s)" % why) if why else ""))


# ---------------------------------------------------------------- config


class _Config:
    """wp.config: the settings kern honours, and refusals for those it
    cannot (set them before the first kern call)."""

    _known = {"mode": "release", "quiet": False, "verbose": False,
              "kernel_cache_dir": None, "cache_kernels": True,
              "enable_backward": True, "verify_fp": False,
              "verify_cuda": False, "print_launches": False,
              "max_unroll": 16, "verbose_warnings": False,
              "verify_autograd_array_access": False, "lineinfo": False,
              "enable_vector_component_overwrites": False}
    _refused = {"verify_fp": "wp.config.verify_fp",
                "verify_cuda": "wp.config.verify_cuda",
                "print_launches": "wp.config.print_launches",
                "verify_autograd_array_access": "autodiff checks (issue #26)"}

    def __init__(self):
        for k, v in self._known.items():
            object.__setattr__(self, k, v)

    def __setattr__(self, k, v):
        if k not in self._known:
            raise AttributeError("kern.warp: wp.config has no setting '%s' "
                                 "that kern knows" % k)
        if k in self._refused and v:
            _refuse(self._refused[k])
        if k == "mode" and v not in ("release", "debug"):
            raise ValueError("wp.config.mode is 'release' or 'debug', not %r" % v)
        object.__setattr__(self, k, v)


config = _Config()
_default = [None]   # kern.warp's default Device, once chosen


def init():
    """Starts kern's context with wp.config's settings (``mode="debug"``
    checks every array access; ``kernel_cache_dir`` and
    ``cache_kernels=False`` set kern's cache).  Later calls do nothing."""
    if _runtime._state.ctx is None:
        _runtime.init(cache_dir=config.kernel_cache_dir,
                      debug=config.mode == "debug",
                      no_cache=not config.cache_kernels)


def is_cuda_available():
    return get_cuda_device_count() > 0


def get_cuda_device_count():
    return _builtins.sum(1 for d in _runtime.devices() if d.is_cuda)


def get_devices():
    return list(_runtime.devices())


def get_cuda_devices():
    return [d for d in _runtime.devices() if d.is_cuda]


def get_preferred_device():
    return _default_device()


def _default_device():
    d = _default[0]
    if d is None:
        init()
        if _os.environ.get("KERN_DEVICE"):
            d = _runtime.get_device(None)
        else:
            d = (_runtime.get_device("cuda:0") if is_cuda_available()
                 else _runtime.get_device("cpu"))
        _default[0] = d
    return d


def get_device(ident=None):
    """The Device for a Warp device string ("cpu", "cuda", "cuda:0"),
    kern's names ("opencl:0"), a Device, or None (the current device)."""
    if ident is None:
        stack = _runtime._local.devices
        if stack:
            return stack[-1]
        return _default_device()
    if type(ident) is Device:
        return ident
    d = _by_name.get(ident) if type(ident) is str else None
    if d is None:
        init()
        d = _runtime.get_device(ident)
        if type(ident) is str:
            # Names are looked up once: a launch with device="cpu" must
            # not pay for kern_device_find (Note [launch cost], _module.py).
            _by_name[ident] = d
    return d


_by_name = {}


def set_device(ident):
    """Makes a device the default of kern.warp (Warp's wp.set_device)."""
    _default[0] = get_device(ident)


class ScopedDevice:
    """``with wp.ScopedDevice("cpu"):`` makes the device current."""

    def __init__(self, device):
        self.device = get_device(device)

    def __enter__(self):
        self.device.__enter__()
        return self.device

    def __exit__(self, *exc):
        return self.device.__exit__(*exc)


def synchronize():
    """Waits for all work on every device kern.warp used."""
    _runtime.synchronize()


def synchronize_device(device=None):
    get_device(device).synchronize()


def get_stream(device=None):
    d = get_device(device)
    return _runtime.current_stream(d) or Stream.default(d)


def set_stream(stream, device=None, sync=False):
    _refuse("wp.set_stream", "use wp.ScopedStream(stream) or stream=")


class ScopedStream:
    """``with wp.ScopedStream(stream):`` makes stream current on its
    device (and its device current)."""

    def __init__(self, stream, sync_enter=True, sync_exit=False):
        self.stream = stream
        self.sync_exit = sync_exit

    def __enter__(self):
        if self.stream is not None:
            self.stream.device.__enter__()
            self.stream.__enter__()
        return self.stream

    def __exit__(self, *exc):
        if self.stream is not None:
            if self.sync_exit:
                self.stream.synchronize()
            self.stream.__exit__(*exc)
            self.stream.device.__exit__(*exc)
        return False


class Event(_runtime.Event):
    """wp.Event(device=None, enable_timing=False): kern events time
    always."""

    __slots__ = ()

    def __init__(self, device=None, enable_timing=False, interprocess=False):
        if interprocess:
            _refuse("wp.Event(interprocess=True)")
        super().__init__()


def record_event(event=None):
    s = get_stream()
    e = event if event is not None else Event()
    e.record(s)
    return e


def wait_event(event):
    get_stream().wait_event(event)


def wait_stream(other_stream, event=None):
    get_stream().wait_stream(other_stream)


def get_event_elapsed_time(start_event, end_event, synchronize=True):
    """Milliseconds between two recorded events."""
    if synchronize:
        end_event.synchronize()
    return start_event.elapsed(end_event)


class ScopedTimer:
    """``with wp.ScopedTimer("name"):`` prints the block's wall time in
    milliseconds; ``synchronize=True`` waits for the devices first,
    ``dict=d`` appends the time to ``d[name]``, ``print=False`` stays
    quiet; ``.elapsed`` holds it."""

    def __init__(self, name, active=True, print=True, detailed=False,
                 dict=None, use_nvtx=False, color="rapids",
                 synchronize=False, cuda_filter=0, report_func=None,
                 skip_tape=False):
        if detailed:
            _refuse("ScopedTimer(detailed=True)", "no profiler")
        if use_nvtx:
            _refuse("ScopedTimer(use_nvtx=True)")
        if cuda_filter:
            _refuse("ScopedTimer(cuda_filter=...)", "no activity timing")
        self.name, self.active, self.print = name, active, print
        self.dict, self.sync, self.report_func = dict, synchronize, report_func
        self.elapsed = 0.0

    def __enter__(self):
        if self.active:
            if self.sync:
                synchronize()
            self._t0 = _time.perf_counter()
        return self

    def __exit__(self, *exc):
        if not self.active:
            return False
        if self.sync:
            synchronize()
        self.elapsed = (_time.perf_counter() - self._t0) * 1000.0
        if self.dict is not None:
            self.dict.setdefault(self.name, []).append(self.elapsed)
        if self.report_func is not None:
            self.report_func([], self.elapsed)
        if self.print:
            _builtins.print("%s took %.2f ms" % (self.name, self.elapsed))
        return False


# ---------------------------------------------------------------- types


class _ArrayType:
    """The annotation ``wp.array(dtype=float)``, ``wp.array2d[wp.vec3]``:
    read by kern's compiler from the source, so it only records itself."""

    def __init__(self, dtype, ndim):
        self.dtype, self.ndim = dtype, ndim

    def __repr__(self):
        return "array(ndim=%d, dtype=%r)" % (self.ndim, self.dtype)


class _ArrayMeta(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, Array)

    def __getitem__(cls, key):
        if isinstance(key, tuple):
            return _ArrayType(key[0], key[1] if len(key) > 1 else cls._ndim)
        return _ArrayType(key, cls._ndim)


def _kt(dtype, what="dtype"):
    """The kern Type of a Warp dtype (wp.vec3, float, a @wp.struct ...)."""
    if dtype is None:
        return _types.float32
    t = getattr(dtype, "_kt", None)
    if t is not None:
        return t
    if isinstance(dtype, _values._Half):
        _refuse("arrays of %s in kern.warp" % dtype._wpname)
    try:
        return _types.dtype(dtype)
    except TypeError:
        raise TypeMismatchError("kern.warp: %s %r is not a Warp type"
                                % (what, dtype)) from None


class array(metaclass=_ArrayMeta):
    """``wp.array(data, dtype=, shape=, device=)``: a kern array holding
    data (a NumPy array, a list, another array), or of ``shape`` zeros;
    with neither, the annotation ``wp.array(dtype=T, ndim=N)``."""

    _ndim = 1

    def __new__(cls, data=None, dtype=None, shape=None, strides=None,
                length=None, ptr=None, capacity=None, device=None,
                pinned=False, copy=True, owner=False, deleter=None,
                ndim=None, grad=None, requires_grad=False):
        if ptr is not None or strides is not None or capacity is not None:
            _refuse("wp.array(ptr=, strides=, capacity=)")
        if data is None and shape is None and length is None:
            return _ArrayType(dtype, ndim or cls._ndim)
        d = get_device(device)
        if data is None:
            return _grad(zeros(shape if shape is not None else length,
                               dtype=dtype, device=d), requires_grad, grad)
        if isinstance(data, (_values._VectorBase, _values._MatrixBase)):
            data = [data]
        t = _kt(dtype) if dtype is not None else None
        if t is None and isinstance(data, (list, tuple)) and data and isinstance(
                data[0], (_values._VectorBase, _values._MatrixBase)):
            t = type(data[0])._kt
        if t is not None and t.kind == _ffi.KIND_STRUCT:
            data = _struct_bytes(data, dtype, t)
        elif t is not None and isinstance(data, (list, tuple)):
            data = _np().array([_values._flatten(x) if not isinstance(x, (int, float))
                                else x for x in data], dtype=t.numpy_dtype())
            if t.kind == _ffi.KIND_MATRIX:
                data = data.reshape((-1, t.rows, t.cols))
        a = _array.array(data, dtype=t, device=d, copy=copy)
        if shape is not None:
            want = (shape,) if isinstance(shape, int) else tuple(shape)
            if tuple(a.shape) != want:
                _refuse("wp.array(shape=) that reshapes the data (%r to %r)"
                        % (a.shape, want))
        return _grad(a, requires_grad, grad)


def _grad(a, requires_grad, grad):
    """a with Warp's gradient: ``grad=`` given, or zeros when
    requires_grad (kern.Tape accumulates into ``a.grad``)."""
    if grad is not None:
        if tuple(grad.shape) != tuple(a.shape) or grad.dtype != a.dtype:
            raise TypeMismatchError(
                "wp.array(grad=): the gradient is %r of %s, the array %r of %s"
                % (grad.shape, grad.dtype.name, a.shape, a.dtype.name))
        a.grad = grad
        a.requires_grad = True
    return _array.with_grad(a, requires_grad)


def _struct_bytes(data, cls, t):
    """NumPy uint8 rows of Warp's layout for an array of structs made from
    struct instances or a NumPy structured array (Note [struct arrays])."""
    np = _np()
    if isinstance(data, np.ndarray) and data.dtype.names is not None:
        if data.dtype.itemsize != t.rows:
            raise TypeMismatchError(
                "wp.array: the records are %d bytes, struct %s is %d"
                % (data.dtype.itemsize, cls.__name__, t.rows))
        return np.ascontiguousarray(data).view(np.uint8).reshape(-1, t.rows)
    rows = np.zeros((len(data), t.rows), np.uint8)
    for i, x in enumerate(data):
        if not isinstance(x, cls):
            raise TypeMismatchError("wp.array: element %d is a %s, not a %s"
                                    % (i, type(x).__name__, cls.__name__))
        rows[i] = np.frombuffer(bytes(x._to_ctype()), np.uint8)
    return rows


class array1d(array):
    _ndim = 1


class array2d(array):
    _ndim = 2


class array3d(array):
    _ndim = 3


class array4d(array):
    _ndim = 4


def _np():
    _array._need_numpy("kern.warp")
    return _array.np


class _TypesNamespace:
    """wp.types: vector() and matrix() type constructors and the classes."""

    @staticmethod
    def vector(length, dtype):
        return _values.vector_type(length, _kt(dtype))

    @staticmethod
    def matrix(shape, dtype):
        return _values.matrix_type(shape[0], shape[1], _kt(dtype))

    def __getattr__(self, name):
        try:
            return globals()[name]
        except KeyError:
            raise AttributeError("kern.warp.types has no '%s'" % name) from None


types = _TypesNamespace()
vector = types.vector
matrix = types.matrix


def constant(x):
    """A module-level constant for kernels: the value itself, as in Warp
    (kern.warp captures it when a kernel using it is built)."""
    return x


def quat_identity(dtype=float32):
    return (quatd if _kt(dtype) == _types.float64 else quat)(0, 0, 0, 1)


def transform_identity(dtype=float32):
    return (transformd if _kt(dtype) == _types.float64 else transform)()


def quat_from_axis_angle(axis, angle):
    n = _math.sqrt(_builtins.sum(float(a) * float(a) for a in axis))
    s = _math.sin(angle * 0.5) / n
    return quat(axis[0] * s, axis[1] * s, axis[2] * s, _math.cos(angle * 0.5))


def quat_rpy(roll, pitch, yaw):
    """The quaternion of roll (x), pitch (y) and yaw (z) angles, on the host."""
    cy, sy = _math.cos(yaw * 0.5), _math.sin(yaw * 0.5)
    cr, sr = _math.cos(roll * 0.5), _math.sin(roll * 0.5)
    cp, sp = _math.cos(pitch * 0.5), _math.sin(pitch * 0.5)
    return quat(cy * sr * cp - sy * cr * sp, cy * cr * sp + sy * sr * cp,
                sy * cr * cp - cy * sr * sp, cy * cr * cp + sy * sr * sp)


def dot(a, b):
    return _builtins.sum(x * y for x, y in zip(a, b))


def length(a):
    return _math.sqrt(dot(a, a))


def normalize(a):
    n = length(a)
    return a / n if n > 0 else type(a)()


def cross(a, b):
    return type(a)(a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                   a[0] * b[1] - a[1] * b[0])


# ---------------------------------------------------------------- arrays


def empty(shape=0, dtype=float, device=None, requires_grad=False,
          pinned=False):
    return _array.empty(shape, _kt(dtype), get_device(device), requires_grad)


def zeros(shape=0, dtype=float, device=None, requires_grad=False,
          pinned=False):
    return empty(shape, dtype, device, requires_grad).zero_()


def ones(shape=0, dtype=float, device=None, requires_grad=False,
         pinned=False):
    t = _kt(dtype)
    return empty(shape, dtype, device, requires_grad).fill_(
        [1] * t.length if t.length > 1 else 1)


def full(shape=0, value=0, dtype=None, device=None, requires_grad=False,
         pinned=False):
    if dtype is None:
        dtype = (type(value) if isinstance(value, (_values._VectorBase,
                                                   _values._MatrixBase))
                 else type(value) if hasattr(type(value), "_kt")
                 else _builtins.bool if isinstance(value, _builtins.bool)
                 else int if isinstance(value, int) else float)
    return empty(shape, dtype, device, requires_grad).fill_(value)


def empty_like(a, device=None, requires_grad=False):
    return empty(a.shape, a.dtype, device or a.device, requires_grad)


def zeros_like(a, device=None, requires_grad=False):
    return zeros(a.shape, a.dtype, device or a.device, requires_grad)


def ones_like(a, device=None, requires_grad=False):
    return ones(a.shape, a.dtype, device or a.device, requires_grad)


def full_like(a, value, device=None, requires_grad=False):
    return full(a.shape, value, a.dtype, device or a.device, requires_grad)


def clone(src, device=None, requires_grad=False, pinned=False):
    """A copy of src on device (default: src's)."""
    d = get_device(device) if device is not None else src.device
    return _array.array(src, device=d)


def copy(dest, src, dest_offset=0, src_offset=0, count=0, stream=None):
    """Copies count elements (default: all of src) from src to dest: on
    ``stream``, else on the device's current stream when one is (``with
    stream:``, a capture, which records the copy), else done on return."""
    if dest.dtype != src.dtype:
        raise TypeMismatchError("wp.copy: %s into %s" % (src.dtype.name,
                                                           dest.dtype.name))
    cur = stream or _runtime.current_stream(dest.device)
    if not (dest_offset or src_offset or count) and dest.nbytes == src.nbytes:
        if dest.device == src.device and cur is not None:
            _runtime.call(_ffi.lib.kern_array_copy_async, dest._handle(), 0,
                          src._handle(), 0, dest.nbytes, cur._handle(),
                          what="wp.copy")
        elif dest.device == src.device:
            dest.assign(src)
        else:
            dest.assign(src.numpy())
        return
    if count == 0:
        count = src.size - src_offset
    es = src.dtype.size
    if (dest.device != src.device or src_offset + count > src.size
            or dest_offset + count > dest.size):
        raise InvalidArgumentError(
            "wp.copy: %d elements from offset %d of %d into offset %d of %d "
            "(both arrays on one device)" % (count, src_offset, src.size,
                                             dest_offset, dest.size))
    s = cur or get_stream(dest.device)
    _runtime.call(_ffi.lib.kern_array_copy_async, dest._handle(),
                  dest_offset * es, src._handle(), src_offset * es,
                  count * es, s._handle(), what="wp.copy")
    if cur is None:
        s.synchronize()


def from_numpy(arr, dtype=None, shape=None, device=None, requires_grad=False):
    return array(arr, dtype=dtype, shape=shape, device=device,
                 requires_grad=requires_grad)


def from_dlpack(source, dtype=None):
    return _array.from_dlpack(source, dtype=None if dtype is None else _kt(dtype))


def to_dlpack(a):
    return a.__dlpack__()


def from_torch(t, dtype=None, requires_grad=None):
    """The tensor's memory as an array, no copy; with requires_grad (or a
    tensor that requires grad) its ``.grad`` is the tensor's gradient
    (made as zeros if it has none), as Warp shares it."""
    a = from_dlpack(t, dtype)
    if requires_grad if requires_grad is not None else getattr(t, "requires_grad", False):
        import torch
        if t.grad is None:
            t.grad = torch.zeros_like(t)
        a.grad = from_dlpack(t.grad, dtype)
        a.requires_grad = True
    return a


def to_torch(a, requires_grad=None):
    """The array's memory as a tensor, no copy; with requires_grad (default:
    the array's) the tensor requires grad and its ``.grad`` is the
    array's gradient."""
    import torch
    t = torch.from_dlpack(a)
    if requires_grad if requires_grad is not None else a.requires_grad:
        t.requires_grad_(True)
        if a.grad is not None:
            t.grad = torch.from_dlpack(a.grad)
    return t


# ---------------------------------------------------------------- code


class Function:
    """A @wp.func: compiled with the kernels of its module; not callable
    from Python (Warp evaluates a few builtins on the host; kern does not)."""

    def __init__(self, func, module, native=None):
        self.func = func
        self.key = func.__name__
        self._module = module
        self.native_snippet = native
        self.__name__ = func.__name__
        self.__doc__ = func.__doc__

    def __call__(self, *args, **kw):
        _refuse("calling @wp.func %s from Python" % self.key,
                "it runs in kernels only")

    def __repr__(self):
        return "<kern.warp Function %s>" % self.key


class Kernel:
    """A @wp.kernel: ``wp.launch(k, dim=, inputs=)`` compiles its module
    for the device on the first launch there (Note [one source per Python
    module]).  ``k.module_for(device)`` is the kern Module."""

    def __init__(self, func, module, options):
        self.func = func
        self.key = func.__name__
        self._module = module
        self.options = options
        self._kernels = {}    # device index -> (module version, kern kernel)
        self._last = None     # Note [launch fast path]
        self.__name__ = func.__name__
        self.__doc__ = func.__doc__

    def kernel_for(self, device):
        """The plain kern kernel (kern.Kernel or GenericKernel) on device."""
        got = self._kernels.get(device.index)
        mod = self._module
        if got is not None and got[0] == mod.version:
            return got[1]
        k = mod.module_for(device).kernel(self.key)
        self._kernels[device.index] = (mod.version, k)
        return k

    def module_for(self, device=None):
        return self._module.module_for(get_device(device))

    @property
    def source(self):
        """The kern source text its module compiles to."""
        return self._module.source()

    def __call__(self, *args, **kw):
        _refuse("calling @wp.kernel %s directly" % self.key,
                "launch it with wp.launch")

    def __repr__(self):
        return "<kern.warp Kernel %s>" % self.key


def kernel(f=None, *, enable_backward=None, module=None, launch_bounds=None):
    """@wp.kernel and @wp.kernel(enable_backward=False, module=...): the
    options only steer Warp's code generation and are accepted as is."""
    def wrap(func):
        m = _codegen.module_of(func)
        k = Kernel(func, m, {"enable_backward": enable_backward,
                             "module": module})
        m.add(_codegen._Entry("kernel", k, func))
        return k
    return wrap(f) if f is not None else wrap


def func(f=None, *, name=None, module=None):
    """@wp.func: a function kernels of the same module may call."""
    def wrap(fn):
        m = _codegen.module_of(fn)
        fo = Function(fn, m)
        m.add(_codegen._Entry("func", fo, fn))
        return fo
    return wrap(f) if f is not None else wrap


def func_native(snippet, adj_snippet=None, replay_snippet=None):
    """@wp.func_native(snippet): a function whose body is native code (C on
    the CPU, CUDA C, OpenCL C); kern.init(no_native=True) refuses it."""
    def wrap(fn):
        m = _codegen.module_of(fn)
        fo = Function(fn, m, snippet)
        m.add(_codegen._Entry("func", fo, fn))
        return fo
    return wrap


def func_grad(forward_fn):
    """@wp.func_grad(f): f's custom adjoint, which the adjoints of the
    kernels calling f run instead of differentiating f (kern's Note [custom
    adjoints]); it takes f's parameters, then adj_ret, and adds into
    ``wp.adjoint[x]``.  Returns the function, as Warp does."""
    if not isinstance(forward_fn, Function):
        raise TypeError("@wp.func_grad takes the @wp.func it is the adjoint "
                        "of, got %r" % (forward_fn,))

    def wrap(fn):
        m = _codegen.module_of(fn)
        m.add(_codegen._Entry("func", Function(fn, m), fn))
        return fn
    return wrap


def func_replay(forward_fn):
    """@wp.func_replay(f): what the adjoints of the kernels calling f
    replay instead of f (the reverse sweep reads its result; f's own
    gradient is still f's).  Returns the function, as Warp does."""
    if not isinstance(forward_fn, Function):
        raise TypeError("@wp.func_replay takes the @wp.func it replays, "
                        "got %r" % (forward_fn,))

    def wrap(fn):
        m = _codegen.module_of(fn)
        m.add(_codegen._Entry("func", Function(fn, m), fn))
        return fn
    return wrap


class _AdjointIndex:
    """``wp.adjoint[x]``: the adjoint of parameter x inside a
    @wp.func_grad; it has no meaning in Python."""

    def __getitem__(self, x):
        _refuse("wp.adjoint[...] in Python",
                "it names a parameter's adjoint inside a @wp.func_grad")


adjoint = _AdjointIndex()


class _StructBase:
    """An instance of a @wp.struct: fields are attributes, zero (an empty
    array) until set; passed to a kernel it is packed in Warp's layout
    (kern's Note [struct arguments])."""

    __slots__ = ()

    def __init__(self, **kw):
        for name, t in self._fields:
            object.__setattr__(self, name, _zero(t))
        for k, v in kw.items():
            setattr(self, k, v)

    def __setattr__(self, name, v):
        ft = self._types.get(name)
        if ft is None:
            raise AttributeError("struct %s has no field '%s' (its fields: %s)"
                                 % (type(self).__name__, name,
                                    ", ".join(n for n, _ in self._fields)))
        if isinstance(ft, type) and issubclass(ft, (_values._VectorBase,
                                                    _values._MatrixBase)) \
                and not isinstance(v, ft):
            v = ft(v)
        object.__setattr__(self, name, v)

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join(
            "%s=%r" % (n, getattr(self, n)) for n, _ in self._fields))

    def _to_ctype(self):
        """This value in Warp's layout (a ctypes Structure); array fields
        cannot be stored in an array of structs from the host."""
        import ctypes as C
        out = self._ctype()
        for name, t in self._fields:
            v = getattr(self, name)
            if isinstance(t, _ArrayType):
                if v is not None:
                    _refuse("array fields in arrays of structs made on the host")
                continue
            if isinstance(t, type) and issubclass(t, _StructBase):
                setattr(out, name, v._to_ctype())
                continue
            kt = _kt(t)
            if kt.length > 1:
                b = _array._value_bytes(kt, v, "%s.%s" % (type(self).__name__, name))
                C.memmove(C.addressof(out) + getattr(self._ctype, name).offset,
                          b, C.sizeof(b))
            else:
                setattr(out, name, v)
        return out

    def numpy_value(self):
        _refuse("Struct.numpy_value()")


def _zero(t):
    if isinstance(t, _ArrayType):
        return None
    if isinstance(t, type) and issubclass(t, _StructBase):
        return t()
    if t is float:
        return 0.0
    if t is int or t is _builtins.bool:
        return t(0)
    if isinstance(t, type) and hasattr(t, "_kt"):
        return t()
    return None


def _ctype_of(t, where):
    import ctypes as C
    if isinstance(t, _ArrayType):
        return C.c_uint64 * 7   # Warp's array_t: 56 bytes, aligned to 8
    if isinstance(t, type) and issubclass(t, _StructBase):
        return t._ctype
    kt = _kt(t, "field type of %s" % where)
    return _types._CT[kt.scalar] * kt.length if kt.length > 1 else _types._CT[kt.scalar]


def struct(cls):
    """@wp.struct: a struct type for kernels; ``S()`` is an instance whose
    fields are set from Python and passed to a kernel by value."""
    import ctypes as C
    ann = dict(cls.__dict__.get("__annotations__", {}))
    fields = list(ann.items())
    layout = type(cls.__name__ + "_layout", (C.Structure,), {
        "_fields_": [(n, _ctype_of(t, "%s.%s" % (cls.__name__, n)))
                     for n, t in fields]})
    size, align = C.sizeof(layout), C.alignment(layout)
    kt = _types.Type(_ffi.KIND_STRUCT, 5, size, align)
    try:
        import numpy as np
        nd = np.dtype(layout)
        if _types.struct_numpy.get(kt, nd) != nd:
            nd = None   # two structs of one layout: ambiguous
        _types.struct_numpy[kt] = nd
    except ImportError:
        pass
    m = _codegen.module_of(cls)
    ns = {"__slots__": tuple(n for n, _ in fields), "_fields": fields,
          "_types": dict(fields), "_ctype": layout,
          "_kt": kt,
          "_wp_struct": True, "_wp_module": m, "_wpname": cls.__name__,
          "__module__": cls.__module__, "__doc__": cls.__doc__,
          "__qualname__": cls.__qualname__}
    new = type(cls.__name__, (_StructBase,), ns)
    m.add(_codegen._Entry("struct", new, cls))
    return new


def _type_src(t):
    """The source spelling of a Warp type object (for wp.overload)."""
    if t is float or t is int or t is _builtins.bool:
        return t.__name__
    if isinstance(t, _ArrayType):
        return "wp.array(dtype=%s, ndim=%d)" % (_type_src(t.dtype), t.ndim)
    if isinstance(t, type) and issubclass(t, _StructBase):
        return t.__name__
    src = getattr(t, "_src", None)
    if src is None and hasattr(t, "_wpname"):
        src = "wp." + t._wpname
    if src is None:
        raise TypeMismatchError("wp.overload: %r is not a Warp type" % (t,))
    return src


def _check_overload_stub(fn):
    """Warp's rule for an @wp.overload stub: its body is only pass, ...,
    docstrings and comments, and it returns nothing."""
    import ast
    import inspect
    import textwrap
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return  # no source to read (an exec'd string): nothing to check
    body = tree.body[0].body if tree.body and isinstance(
        tree.body[0], ast.FunctionDef) else []
    for node in body:
        if isinstance(node, ast.Pass) or (
                isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                and (isinstance(node.value.value, str) or node.value.value is ...)):
            continue
        raise InvalidArgumentError(
            "@wp.overload %s, line %d: a stub's body is only pass, ..., "
            "comments or a docstring" % (fn.__name__, fn.__code__.co_firstlineno
                                         + node.lineno - 1))
    ret = fn.__annotations__.get("return", None)
    if ret is not None and ret is not type(None):
        raise TypeMismatchError("@wp.overload %s: a stub has no return "
                                "annotation (or -> None)" % fn.__name__)


def overload(kernel, arg_types=None):
    """wp.overload(generic_kernel, [types] or {name: type}): adds that
    instantiation to the kernel's module (kern instantiates a generic
    kernel from the launch's arguments as well).  Returns the kernel."""
    if isinstance(kernel, _pytypes.FunctionType):
        # The decorator form: ``@wp.overload`` on a stub (a body of pass,
        # ... or a docstring) named as the generic kernel, whose
        # annotations are the instantiation's types; returns the kernel, so
        # the name stays bound to it, as in Warp.
        fn = kernel
        kernel = fn.__globals__.get(fn.__name__)
        if not isinstance(kernel, Kernel):
            raise InvalidArgumentError(
                "@wp.overload: there is no @wp.kernel named '%s' before this "
                "stub in its module" % fn.__name__)
        _check_overload_stub(fn)
        names = fn.__code__.co_varnames[:fn.__code__.co_argcount]
        missing = [n for n in names if n not in fn.__annotations__]
        if missing:
            raise TypeMismatchError("@wp.overload %s: parameter%s %s need%s a type"
                                    % (fn.__name__, "s" if len(missing) > 1 else "",
                                       ", ".join(missing),
                                       "" if len(missing) > 1 else "s"))
        arg_types = [fn.__annotations__[n] for n in names]
    elif not isinstance(kernel, Kernel):
        raise TypeError("wp.overload takes a generic @wp.kernel (or, as a "
                        "decorator, a stub named as one), got %r; a @wp.func "
                        "is overloaded by defining it again with other types"
                        % (kernel,))
    if arg_types is None:
        raise TypeError("wp.overload(kernel, arg_types): the types are needed")
    if isinstance(arg_types, dict):
        text = "{%s}" % ", ".join("%r: %s" % (k, _type_src(v))
                                  for k, v in arg_types.items())
    else:
        text = "[%s]" % ", ".join(_type_src(v) for v in arg_types)
    kernel._module.add_overload("wp.overload(%s, %s)" % (kernel.key, text))
    return kernel


# ---------------------------------------------------------------- memory


def is_mempool_supported(device=None):
    """False: kern allocates device memory without a CUDA stream-ordered
    memory pool (``Device.is_mempool_supported`` says the same)."""
    get_device(device)
    return False


def is_mempool_enabled(device=None):
    """False: kern has no CUDA memory pool to enable."""
    get_device(device)
    return False


def set_mempool_enabled(device, enable):
    if enable:
        _refuse("wp.set_mempool_enabled(device, True)",
                "kern allocates without a CUDA memory pool")


def _no_mempool(what, device):
    d = get_device(device)
    raise UnsupportedError(
        "kern.warp: wp.%s(%s): kern allocates without a CUDA memory pool, so "
        "there is no pool usage to report (wp.is_mempool_enabled() is False)"
        % (what, d.name))


def get_mempool_used_mem_current(device=None):
    """Refused: kern has no memory pool (see is_mempool_enabled)."""
    _no_mempool("get_mempool_used_mem_current", device)


def get_mempool_used_mem_high(device=None):
    """Refused: kern has no memory pool (see is_mempool_enabled)."""
    _no_mempool("get_mempool_used_mem_high", device)


# ---------------------------------------------------------------- launch


def launch(kernel, dim, inputs=(), outputs=(), adj_inputs=(), adj_outputs=(),
           device=None, stream=None, adjoint=False, record_tape=True,
           record_cmd=False, max_blocks=0, block_dim=256):
    """Runs kernel over dim (an int or a tuple of up to 4) with inputs
    then outputs as its arguments, on device (default: the stream's, else
    the current one), in blocks of ``block_dim`` threads (the CPU runs a
    block as one thread, as Warp's CPU does); ``adjoint`` needs autodiff
    (issue #26).
    ``record_cmd=True`` returns a launch object whose ``launch()`` runs it
    again with the arguments packed once.  ``max_blocks`` (a scheduling
    limit that changes no result) is accepted."""
    if adjoint or not record_tape:
        return _launch_special(kernel, dim, inputs, outputs, adj_inputs,
                               adj_outputs, device, stream, adjoint,
                               record_tape, record_cmd, block_dim)
    if type(kernel) is not Kernel:
        if isinstance(kernel, (_module.Kernel, _module.GenericKernel)):
            return _module.launch(kernel, dim, inputs, outputs, stream, device,
                                  block_dim=None if block_dim == 256 else block_dim)
        raise TypeError("wp.launch needs a @wp.kernel, got %r" % (kernel,))
    if stream is not None:
        d = stream.device
        if device is not None and get_device(device) != d:
            raise InvalidArgumentError(
                "wp.launch: stream is on %s, device= is %s"
                % (d.name, get_device(device).name))
    elif device is None:
        stack = _runtime._local.devices
        d = stack[-1] if stack else (_default[0] or _default_device())
    else:
        d = device if type(device) is Device else (_by_name.get(device) or
                                                   get_device(device))
    # Note [launch fast path]: the last (device, module version, kern
    # kernel) this kernel ran with, so a repeated launch costs one tuple
    # compare, not a dict lookup and a version check.
    last = kernel._last
    if last is not None and last[0] is d and last[1] == kernel._module.version:
        k = last[2]
    else:
        k = kernel.kernel_for(d)
        kernel._last = (d, kernel._module.version, k)
    if outputs:
        inputs = list(inputs) + list(outputs)
    if type(k) is not _module.Kernel:
        k = k.instance(*inputs)
    if block_dim != k._wp_block:
        k._set_block_dim(block_dim)  # kept by the kernel for later launches
        k._wp_block = block_dim
    if record_cmd:
        return k.bind(*inputs, dim=dim, stream=stream)
    k._go(inputs, dim, stream, False)


def _launch_special(kernel, dim, inputs, outputs, adj_inputs, adj_outputs,
                    device, stream, adjoint, record_tape, record_cmd,
                    block_dim):
    """wp.launch(adjoint=True): the kernel's adjoint with inputs, outputs,
    adj_inputs, adj_outputs (Warp's order); record_tape=False: not
    recorded by an active Tape."""
    saved = _runtime_tape.active()
    _runtime_tape._local.tape = None
    try:
        if not adjoint:
            return launch(kernel, dim, inputs, outputs, device=device,
                          stream=stream, record_cmd=record_cmd,
                          block_dim=block_dim)
        if len(adj_inputs) != len(inputs) or len(adj_outputs) != len(outputs):
            raise InvalidArgumentError(
                "wp.launch(adjoint=True): %d adj_inputs and %d adj_outputs "
                "for %d inputs and %d outputs; give one adjoint (or None) "
                "for each" % (len(adj_inputs), len(adj_outputs), len(inputs),
                              len(outputs)))
        if type(kernel) is Kernel:
            d = (stream.device if stream is not None else get_device(device))
            k = kernel.kernel_for(d)
        else:
            k = kernel
        if type(k) is not _module.Kernel:
            k = k.instance(*(list(inputs) + list(outputs)))
        adj = k.adjoint
        if block_dim != adj._wp_block:
            adj._set_block_dim(block_dim)
        args = list(inputs) + list(outputs) + list(adj_inputs) + list(adj_outputs)
        if record_cmd:
            return adj.bind(*args, dim=dim, stream=stream)
        adj(*args, dim=dim, stream=stream)
    finally:
        _runtime_tape._local.tape = saved


def launch_tiled(kernel, dim, inputs=(), outputs=(), device=None, stream=None,
                 block_dim=256, **kw):
    """Warp's wp.launch_tiled: the block size (1 on the CPU, as Warp's
    CPU) is appended to dim as its last dimension, and wp.launch runs it
    with that block size."""
    dims = [dim] if type(dim) is int else list(dim)
    if len(dims) > 3:
        raise InvalidArgumentError(
            "wp.launch_tiled: dim has %d dimensions; the block dimension "
            "makes it at most 4, so give at most 3" % len(dims))
    if stream is not None:
        d = stream.device
    elif device is None:
        stack = _runtime._local.devices
        d = stack[-1] if stack else (_default[0] or _default_device())
    else:
        d = device if type(device) is Device else get_device(device)
    b = 1 if d.is_cpu else block_dim
    return launch(kernel, tuple(dims + [b]), inputs, outputs, device=d,
                  stream=stream, block_dim=block_dim, **kw)


def load_module(module=None, device=None, recursive=False, block_dim=None):
    """Builds the kern.warp module of the caller (or of ``module``, a
    Python module) for device now rather than at the first launch."""
    import inspect
    if module is None:
        g = inspect.currentframe().f_back.f_globals
    else:
        g = vars(module)
    m = _codegen._modules.get(id(g))
    if m is not None:
        m.module_for(get_device(device))


def force_load(device=None, modules=None):
    for m in list(_codegen._modules.values()):
        if m.entries:
            m.module_for(get_device(device))


# ---------------------------------------------------------------- refused


class Tape(_runtime_tape.Tape):
    """Warp's wp.Tape over kern.Tape: ``with wp.Tape() as tape:`` records
    wp.launch calls; ``tape.backward(loss=l)`` or ``backward(grads={a:
    g})`` runs their adjoints newest first into the arrays' ``.grad``;
    ``tape.zero()``, ``tape.reset()``; ``tape.gradients`` maps arrays to
    their gradients."""

    @property
    def gradients(self):
        return {a: a.grad for a in self._arrays()}

    def visualize(self, *a, **kw):
        _refuse("Tape.visualize", "kern draws no graphs")


_captures = {}   # device index -> (kern.capture, device) of capture_begin


def capture_begin(device=None, stream=None, force_module_load=None,
                  external=False):
    """Starts recording the launches, copies and fills queued on stream
    (default: a new stream on device, made current until capture_end) into
    a kern graph."""
    if external:
        _refuse("wp.capture_begin(external=True)", "kern captures its own streams")
    d = stream.device if stream is not None else get_device(device)
    if d.index in _captures:
        raise InvalidArgumentError("wp.capture_begin: %s is already capturing"
                                   % d.name)
    cap = _runtime.capture(stream=stream, device=d)
    cap.__enter__()
    d.__enter__()
    _captures[d.index] = (cap, d)


def capture_end(device=None, stream=None):
    """Ends the capture capture_begin started; returns the graph."""
    d = stream.device if stream is not None else get_device(device)
    got = _captures.pop(d.index, None)
    if got is None:
        raise InvalidArgumentError("wp.capture_end: %s is not capturing" % d.name)
    cap, dev = got
    dev.__exit__(None, None, None)
    cap.__exit__(None, None, None)
    return cap.graph


def capture_launch(graph, stream=None):
    """Runs a captured graph again, on stream (default: the current stream
    of the device it was captured on, after the work queued there)."""
    graph.replay(stream if stream is not None else get_stream(graph.stream.device))


class ScopedCapture:
    """``with wp.ScopedCapture() as capture: ...``; then
    ``wp.capture_launch(capture.graph)`` (a kern graph)."""

    def __init__(self, device=None, stream=None, force_module_load=None,
                 external=False):
        self.device, self.stream = device, stream
        self.external = external
        self.graph = None

    def __enter__(self):
        capture_begin(self.device, self.stream, external=self.external)
        self._dev = (self.stream.device if self.stream is not None
                     else get_device(self.device))
        return self

    def __exit__(self, exc_type, exc, tb):
        cap, dev = _captures.pop(self._dev.index)
        dev.__exit__(exc_type, exc, tb)
        cap.__exit__(exc_type, exc, tb)
        if exc_type is None:
            self.graph = cap.graph
        return False


def _tile_outside(name):
    def f(*a, **kw):
        raise UnsupportedError(
            "kern.warp: wp.%s is a kernel builtin: call it inside a "
            "@wp.kernel or @wp.func (docs/language.md, Tiles)" % name)
    f.__name__ = name
    return f


_REFUSED = {
    "indexedarray": "indexed arrays from Python",
    "fabricarray": "fabric arrays", "Volume": "volumes",
    "Mesh": "meshes", "HashGrid": "hash grids", "Bvh": "BVHs",
    "MarchingCubes": "marching cubes", "Texture2D": "textures",
    "Texture3D": "textures", "sparse": "wp.sparse", "fem": "wp.fem",
    "sim": "wp.sim", "render": "wp.render",
    "utils": "wp.utils", "jax_experimental": "JAX interop through Warp",
    "from_jax": "wp.from_jax (use kern.from_dlpack)",
    "to_jax": "wp.to_jax", "from_paddle": "Paddle interop",
    "to_paddle": "Paddle interop",
}


def __getattr__(name):
    if name in ("optim", "examples"):
        import importlib
        return importlib.import_module(__name__ + "." + name)
    if name.startswith("tile"):
        return _tile_outside(name)
    why = _REFUSED.get(name)
    if why is not None:
        raise UnsupportedError("kern.warp: wp.%s is not supported yet (%s)"
                               % (name, why))
    raise AttributeError("kern.warp has no '%s': kern.warp covers Warp's "
                         "host API listed in docs/python.md (\"kern.warp\"); "
                         "builtins such as wp.%s are for kernel code"
                         % (name, name))
