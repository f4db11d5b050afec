"""Modules, kernels and launches.

``kern.load`` compiles a Warp source (a file or a string) for one device and
returns a :class:`Module`, whose kernels are attributes.  Calling a kernel
is a launch, the way ``wp.launch`` is one; :func:`launch` is the same call in
Warp's spelling.

Note [launch cost]
A call from Python must cost little more than the C launch itself (issue
#14 asks for at most 5 us a call on a GPU).  So everything that depends only
on the kernel's signature is done once, when the Kernel is made: the
kern_arg array and the grid array are allocated then and reused, each
argument's kind is set then, the union member of every argument is kept as
its own ctypes object (so a call assigns one field instead of walking
array -> struct -> union), each parameter gets a converter chosen for its
type, and the counts are ready c_int objects.  A call then assigns one field
per argument and makes one ctypes call through a function object without
declared argument types (nothing to convert; see _bind_fast), under the
context's lock (which also makes the reuse of the argument array safe
across threads).  Value arguments are copied by libkern at the
call, so reusing their buffers is safe for asynchronous launches and for
graph capture.

Launches are asynchronous on GPUs (like Warp): they are queued on the
current stream and a later ``.numpy()``, ``synchronize()`` or event waits.
On the CPU backend a launch without a stream waits for its completion, as
Warp's CPU launches do, because NumPy arrays passed in place are read by
Python right after the call.
"""
import ctypes as C
import os

from . import _array, _ffi, _runtime, _tape
from ._tape import recording as _recording
from ._errors import (InvalidArgumentError, InvalidHandleError,
                      NotFoundError, TypeMismatchError)
from ._types import Type

_ArrayT = _array.Array


_lock = _ffi.lock
_local = _runtime._local
_launch = _launch_async = None


_ND = tuple(C.c_int(i) for i in range(_ffi.MAX_DIMS + 1))
_ND1 = _ND[1]
_scopes = _runtime._scopes


def _bind_fast():
    """The two launch entry points without declared argument types, called
    only with ready ctypes objects (c_void_p handles, c_int counts, the
    kernel's own arrays, passed by address): ctypes then converts nothing,
    which halves the cost of the call (Note [launch cost]).  The declared
    versions in _ffi stay for every other use."""
    global _launch, _launch_async
    if _launch is None:
        path = _ffi.library_path
        _launch = (C.CDLL(path) if path else _ffi.lib).kern_launch
        # The asynchronous launch only enqueues: it keeps the GIL (PyDLL),
        # which saves releasing and retaking it.  The synchronous one runs
        # the whole kernel on the CPU and lets other threads go meanwhile.
        _launch_async = (C.PyDLL(path) if path else _ffi.lib).kern_launch_async
        for f in (_launch, _launch_async):
            f.restype = C.c_int
            f.argtypes = None


class Param:
    """One kernel parameter: ``name``, ``dtype`` (a kern.Type), ``ndim``
    (array dimensions, 0 for a value) and ``is_array``."""

    __slots__ = ("name", "dtype", "ndim", "is_array", "struct_name", "fields",
                 "type_name")

    def __init__(self, name, dtype, ndim, is_array, struct_name=None,
                 fields=(), type_name=None):
        self.name, self.dtype, self.ndim, self.is_array = name, dtype, ndim, is_array
        # A @wp.struct parameter (or array of structs): its name and its
        # fields, nested ones included (Note [struct arguments]).
        self.struct_name = struct_name
        self.fields = fields
        # Warp's name where the dtype does not tell it: "quat" for a vec4
        # that is a quaternion, "transform" for a vec7 (kern.h type_name).
        self.type_name = type_name or struct_name or dtype.name

    def __repr__(self):
        if self.struct_name or self.type_name != self.dtype.name:
            if self.is_array:
                return "%s: array(dtype=%s, ndim=%d)" % (self.name, self.type_name, self.ndim)
            return "%s: %s" % (self.name, self.type_name)
        if self.struct_name:
            if self.is_array:
                return "%s: array(dtype=%s, ndim=%d)" % (self.name, self.struct_name, self.ndim)
            return "%s: %s" % (self.name, self.struct_name)
        if self.is_array:
            return "%s: array(dtype=%s, ndim=%d)" % (self.name, self.dtype.name, self.ndim)
        return "%s: %s" % (self.name, self.dtype.name)


def _converter(kname, i, p, arg, u, device, keep):
    """The function that stores a Python value for parameter p into the
    kern_arg's union u, chosen once per parameter (Note [launch cost])."""
    t = p.dtype
    name = p.name
    if p.is_array:
        arg.kind = _ffi.ARG_ARRAY

        def conv(v, copy, temps):
            if type(v) is _ArrayT:
                h = v._h
                if h is None:
                    raise InvalidHandleError("%s: parameter '%s' is a freed "
                                             "kern.Array" % (kname, name))
                u.array = h
                return
            if isinstance(v, _ArrayT):  # pragma: no cover (subclasses)
                u.array = v._handle()
                return
            if v is None:
                # a null array: an adjoint's skipped adj_ argument; libkern
                # refuses it, by name, for any other parameter
                u.array = None
                return
            u.array = _array.as_arg(v, kname, name, t, p.ndim, device, copy,
                                    temps)
        return conv
    if t.kind == _ffi.KIND_SCALAR and t.is_float:
        arg.kind = _ffi.ARG_FLOAT

        def conv(v, copy, temps):
            try:
                u.f = v
            except TypeError:
                raise TypeMismatchError(
                    "%s: parameter '%s' expects %s, got %s"
                    % (kname, name, t.name, type(v).__name__)) from None
        return conv
    if t.kind == _ffi.KIND_SCALAR:
        arg.kind = _ffi.ARG_INT

        def conv(v, copy, temps):
            try:
                u.i = v
            except TypeError:
                import operator
                try:
                    u.i = operator.index(v)
                except TypeError:
                    raise TypeMismatchError(
                        "%s: parameter '%s' expects %s (an integer), got %s"
                        % (kname, name, t.name, type(v).__name__)) from None
            except OverflowError:
                raise InvalidArgumentError("%s: parameter '%s': %r is out of "
                                           "range for %s" % (kname, name, v, t.name)) from None
        return conv
    if t.kind == _ffi.KIND_STRUCT:
        return _struct_converter(kname, p, arg, u, keep)
    # A vector or matrix by value: its bytes, from a sequence or an array.
    arg.kind = _ffi.ARG_DATA
    n = t.length
    buf = (t.ctype * n)()
    keep.append(buf)
    u.data = C.addressof(buf)
    arg.size = C.sizeof(buf)
    ident = "%s: parameter '%s'" % (kname, name)

    def conv(v, copy, temps):
        b = _array._value_bytes(t, v, ident)
        C.memmove(buf, b, C.sizeof(buf))
    return conv


# Note [struct arguments]
# A @wp.struct parameter is passed as its bytes in Warp's layout
# (docs/ABI.md, "Structs").  The layout is libkern's to tell: the kernel's
# field list (kern_kernel_param_field, nested fields depth first with dotted
# names) is read once, when the Kernel is made, and a call writes each leaf
# field at its offset into a buffer kept by the kernel, which libkern copies
# at the launch.  A value may be a dict of field values (nested dicts for
# nested structs), any object with the fields as attributes (a kern.warp
# struct instance), a NumPy structured scalar or one-element record array,
# or raw bytes of exactly the struct's size.  A field missing from a dict is
# zero, as a field Warp's struct constructor leaves unset; a key that names
# no field is an error, so a typo is not silently zero.  An array field
# takes a kern.Array (its descriptor is written by kern_struct_set_array)
# or None (an empty array).


class _Field:
    __slots__ = ("path", "offset", "size", "is_array", "type", "ndim",
                 "is_struct")

    def __init__(self, fi):
        self.path = fi.name.decode().split(".")
        self.offset = fi.offset
        self.size = fi.size
        self.is_array = fi.kind == _ffi.PARAM_ARRAY
        self.type = Type(fi.type.kind, fi.type.scalar, fi.type.rows,
                         fi.type.cols)
        self.ndim = fi.ndim
        self.is_struct = (not self.is_array and
                          fi.type.kind == _ffi.KIND_STRUCT)


def _struct_fields(h, i, what):
    lib = _ffi.lib
    out = []
    for j in range(lib.kern_kernel_param_field_count(h, i)):
        fi = _ffi.new_struct(_ffi.kern_field_info)
        _runtime.call(lib.kern_kernel_param_field, h, i, j, C.byref(fi),
                      what=what)
        out.append(_Field(fi))
    return out


_MISSING = object()


def _field_value(v, path, top):
    """The value at path in a struct value (Note [struct arguments])."""
    for name in path:
        if isinstance(v, dict):
            v = v.get(name, _MISSING)
            if v is _MISSING:
                return None  # zero, as an unset field
        elif _array.np is not None and isinstance(v, (_array.np.void,
                                                      _array.np.ndarray)):
            try:
                v = v[name]
            except (ValueError, KeyError, IndexError):
                raise InvalidArgumentError("%s: the NumPy record has no "
                                           "field '%s'" % (top, name)) from None
        else:
            try:
                v = getattr(v, name)
            except AttributeError:
                raise TypeMismatchError(
                    "%s: a %s has no field '%s' (pass a dict, a NumPy "
                    "record, bytes or an object with the struct's fields)"
                    % (top, type(v).__name__, name)) from None
    return v


def _check_keys(v, fields, top, prefix=()):
    """Refuses dict keys that name no field of the struct."""
    names = {tuple(f.path[:len(prefix) + 1]) for f in fields
             if tuple(f.path[:len(prefix)]) == prefix and len(f.path) > len(prefix)}
    for k, x in v.items():
        key = prefix + (k,)
        if key not in names:
            known = sorted(n[-1] for n in names)
            raise InvalidArgumentError("%s: the struct has no field '%s' (its "
                                       "fields: %s)" % (top, ".".join(key),
                                                        ", ".join(known)))
        if isinstance(x, dict):
            _check_keys(x, fields, top, key)


def _pack_struct(v, fields, buf, size, top, sname):
    """Writes struct value v into buf (Note [struct arguments])."""
    if isinstance(v, (bytes, bytearray, memoryview)):
        b = bytes(v)
        if len(b) != size:
            raise InvalidArgumentError("%s: %d bytes given, the struct %s is "
                                       "%d bytes" % (top, len(b), sname, size))
        C.memmove(buf, b, size)
        return
    np = _array.np
    if np is not None and isinstance(v, np.ndarray):
        if v.dtype.names is None or v.size != 1:
            raise TypeMismatchError("%s: a NumPy array for struct %s must be "
                                    "one record of a structured dtype, got "
                                    "dtype %s shape %r" % (top, sname, v.dtype,
                                                           v.shape))
        v = v.reshape(())[()]
    if v is None or isinstance(v, (int, float, str, list, tuple)):
        raise TypeMismatchError(
            "%s: struct %s expects a dict, a NumPy record, bytes or an object "
            "with its fields, got %s" % (top, sname, type(v).__name__))
    if isinstance(v, dict):
        _check_keys(v, fields, top)
    C.memset(buf, 0, size)
    base = C.addressof(buf)
    for f in fields:
        if f.is_struct:
            continue  # its leaves follow
        x = _field_value(v, f.path, top)
        if x is None:
            continue
        what = "%s field '%s'" % (top, ".".join(f.path))
        if f.is_array:
            if not isinstance(x, _ArrayT):
                raise TypeMismatchError("%s: expects a kern.Array of %s, got "
                                        "%s" % (what, f.type.name,
                                                type(x).__name__))
            if x.dtype != f.type or x.ndim != f.ndim:
                raise TypeMismatchError(
                    "%s: expects an array of %s with %d dimension%s, got %s "
                    "with %d" % (what, f.type.name, f.ndim,
                                 "" if f.ndim == 1 else "s", x.dtype.name,
                                 x.ndim))
            _runtime.call(_ffi.lib.kern_struct_set_array,
                          C.c_void_p(base + f.offset), x._handle(), what=what)
            continue
        b = _array._value_bytes(f.type, x, what)
        C.memmove(base + f.offset, b, min(f.size, C.sizeof(b)))


def _struct_converter(kname, p, arg, u, keep):
    arg.kind = _ffi.ARG_DATA
    size = p.dtype.rows
    buf = (C.c_uint8 * max(size, 1))()
    keep.append(buf)
    u.data = C.addressof(buf)
    arg.size = size
    fields = p.fields
    top = "%s: parameter '%s'" % (kname, p.name)
    sname = p.struct_name or "?"

    def conv(v, copy, temps):
        _pack_struct(v, fields, buf, size, top, sname)
    return conv


class Kernel:
    """A kernel of a loaded module.  Call it to launch:
    ``k(*args, dim=n, stream=None, copy=False)``; arguments may also be given
    by parameter name.  ``params`` describes the parameters."""

    __slots__ = ("module", "name", "_h", "_hp", "params", "_n", "_cn", "_args", "_dims",
                 "_conv", "_device", "_cpu", "_keep", "_index", "_wp_block",
                 "_adj", "_tan", "__weakref__")

    def __init__(self, module, name, h):
        self.module = module
        self.name = name
        self._h = h
        self._hp = C.c_void_p(h)
        self._device = module.device
        _bind_fast()
        self._cpu = module.device.is_cpu
        lib = _ffi.lib
        n = lib.kern_kernel_param_count(h)
        params = []
        for i in range(n):
            pi = _ffi.new_struct(_ffi.kern_param_info)
            _runtime.call(lib.kern_kernel_param, h, i, C.byref(pi),
                          what="kernel '%s' parameter %d" % (name, i))
            t = Type(pi.type.kind, pi.type.scalar, pi.type.rows, pi.type.cols)
            sn = fields = None
            if pi.type.kind == _ffi.KIND_STRUCT:
                sn = pi.struct_name.decode() if pi.struct_name else None
                fields = _struct_fields(h, i, "kernel '%s' parameter %d"
                                        % (name, i))
            tn = pi.type_name.decode() if pi.type_name else None
            params.append(Param(pi.name.decode(), t, pi.ndim,
                                pi.kind == _ffi.PARAM_ARRAY, sn, fields, tn))
        self.params = tuple(params)
        self._index = {p.name: i for i, p in enumerate(params)}
        self._n = n
        self._cn = C.c_int(n)
        self._args = (_ffi.kern_arg * max(n, 1))()
        size = C.sizeof(_ffi.kern_arg)
        self._keep = []
        conv = []
        for i, p in enumerate(params):
            a = self._args[i]
            a.struct_size = size
            conv.append(_converter(name, i, p, a, a.u, self._device, self._keep))
        self._args[0].struct_size = size
        self._conv = tuple(conv)
        self._dims = (C.c_int64 * _ffi.MAX_DIMS)()
        # The block size last set (kern.warp's wp.launch compares it with
        # its block_dim before calling into libkern); Warp's default 256
        # until then, which is the device's.
        self._wp_block = 256
        self._adj = None
        self._tan = None

    @property
    def device(self):
        return self._device

    @property
    def adjoint(self):
        """The kernel's adjoint (reverse mode, issue #26): a kern.Kernel
        taking this kernel's parameters and then one adjoint per parameter
        (``adj_NAME``: an array of the same type, or None to skip; a value,
        whose gradient is not returned).  libkern builds it the first time
        it is asked for."""
        if self._adj is None:
            if self._hp is None:
                raise InvalidHandleError("kernel '%s': its module is closed" % self.name)
            out = C.c_void_p()
            _runtime.call(_ffi.lib.kern_kernel_adjoint, self._hp, C.byref(out),
                          what="adjoint of kernel '%s'" % self.name)
            self._adj = Kernel(self.module, "adj_" + self.name, out.value)
            if self._wp_block != 256:
                self._adj._set_block_dim(self._wp_block)
        return self._adj

    @property
    def tangent(self):
        """The kernel's tangent (forward mode, issue #26; Warp has none): a
        kern.Kernel taking this kernel's parameters and then one tangent per
        parameter (``tan_NAME``: an array of the same type, or None for a
        zero tangent that receives nothing; a value).  A launch does what
        this kernel's launch does and writes, into the tan_ arrays of what
        it writes, the Jacobian times the tangents of what it reads.
        ``kern.jvp`` wraps it.  libkern builds it the first time it is
        asked for."""
        if self._tan is None:
            if self._hp is None:
                raise InvalidHandleError("kernel '%s': its module is closed" % self.name)
            out = C.c_void_p()
            _runtime.call(_ffi.lib.kern_kernel_tangent, self._hp, C.byref(out),
                          what="tangent of kernel '%s'" % self.name)
            self._tan = Kernel(self.module, "tan_" + self.name, out.value)
            if self._wp_block != 256:
                self._tan._set_block_dim(self._wp_block)
        return self._tan

    def __repr__(self):
        return "<kern.Kernel %s(%s) on %s>" % (
            self.name, ", ".join(map(repr, self.params)), self._device.name)

    def _bind(self, args, kw):
        vals = list(args) + [None] * (self._n - len(args))
        given = [True] * len(args) + [False] * (self._n - len(args))
        for k, v in kw.items():
            i = self._index.get(k)
            if i is None:
                raise TypeError("%s() has no parameter '%s' (its parameters: "
                                "%s)" % (self.name, k, ", ".join(self._index)))
            if given[i]:
                raise TypeError("%s() got parameter '%s' twice" % (self.name, k))
            vals[i], given[i] = v, True
        missing = [self.params[i].name for i in range(self._n) if not given[i]]
        if missing:
            raise TypeError("%s() is missing argument%s %s" % (
                self.name, "s" if len(missing) > 1 else "",
                ", ".join("'%s'" % m for m in missing)))
        return vals

    def __call__(self, *args, dim=None, stream=None, copy=False,
                 block_dim=None, **kw):
        """Launches the kernel over ``dim`` (an int or a tuple of up to 4).
        ``block_dim``, when given, is the block size of this and later
        launches (Warp's ``wp.launch(..., block_dim=N)``; the CPU runs a
        block as one thread)."""
        if block_dim is not None:
            self._set_block_dim(block_dim)
        if kw:
            args = self._bind(args, kw)
        return self._go(args, dim, stream, copy)

    def _go(self, args, dim, stream, copy):
        """The launch itself, arguments bound (kern.warp's wp.launch calls
        it directly: no argument packing twice)."""
        if _recording[0]:
            _tape.record(self, args, dim, stream)
        if len(args) != self._n:
            n = self._n
            raise TypeError("%s() takes %d argument%s (%s), got %d" % (
                self.name, n, "" if n == 1 else "s",
                ", ".join(p.name for p in self.params), len(args)))
        hp = self._hp
        if hp is None:
            raise InvalidHandleError("kernel '%s': its module is closed" % self.name)
        dims = self._dims
        if type(dim) is int:
            dims[0] = dim
            nd = _ND1
        else:
            nd = _ND[_set_dims(dims, dim, self.name)]
        sp = None
        if stream is None:
            if _scopes[0]:
                cur = _local.streams
                if cur:
                    stack = cur.get(self._device.index)
                    if stack:
                        stream = stack[-1]
        elif type(stream) is not _runtime.Stream:
            raise TypeError("stream must be a kern.Stream, got %r" % (stream,))
        if stream is not None:
            stream._handle()
            sp = stream._hp
        if not args:
            # Nothing of the kernel's shared argument array is written, so
            # no lock: libkern itself is thread-safe.
            if sp is None and self._cpu:
                st = _launch(hp, nd, dims, _ND[0], self._args)
            else:
                st = _launch_async(hp, sp, nd, dims, _ND[0], self._args)
            if st:
                _runtime.fail(st, "")
            if stream is not None and stream._graph is not None:
                stream._graph._refs.append(args)
            return
        temps = []
        with _lock:
            for c, v in zip(self._conv, args):
                c(v, copy, temps)
            if sp is None and self._cpu:
                st = _launch(hp, nd, dims, self._cn, self._args)
            else:
                st = _launch_async(hp, sp, nd, dims, self._cn, self._args)
            if st:
                _runtime.fail(st, "")
        if stream is not None and stream._graph is not None:
            stream._graph._refs.append(args)
        if temps:
            if sp is not None:
                _runtime.call(_ffi.lib.kern_stream_synchronize, sp,
                              what="copy back")
            _array.finish_temps(temps)

    launch = __call__

    def _set_block_dim(self, block_dim):
        if type(block_dim) is not int:
            raise TypeError("block_dim must be an int, got %r" % (block_dim,))
        if self._hp is None:
            raise InvalidHandleError("kernel '%s': its module is closed" % self.name)
        _runtime.call(_ffi.lib.kern_kernel_set_block_dim, self._hp, block_dim,
                      what="block_dim")
        self._wp_block = block_dim
        # the adjoint and tangent launch in the same blocks (kern.jvp,
        # Tape.backward): a tile kernel's tiles are its blocks'
        for d in (self._adj, self._tan):
            if d is not None:
                d._set_block_dim(block_dim)

    @property
    def block_dim(self):
        """The block size this kernel's launches use on its device (1 on
        the CPU): wp.block_dim() in the kernel, and wp.launch_tiled's last
        dimension."""
        if self._hp is None:
            raise InvalidHandleError("kernel '%s': its module is closed" % self.name)
        return _ffi.lib.kern_kernel_block_dim(self._hp)

    def bind(self, *args, dim=None, stream=None, **kw):
        """A :class:`Launch` with these arguments packed once: its
        ``launch()`` enqueues the kernel again with no argument handling at
        all (Warp's recorded launch).  The arguments are checked now; the
        Launch keeps them alive."""
        if kw:
            args = self._bind(args, kw)
        if len(args) != self._n:
            raise TypeError("%s() takes %d arguments, got %d"
                            % (self.name, self._n, len(args)))
        if self._hp is None:
            raise InvalidHandleError("kernel '%s': its module is closed" % self.name)
        if stream is not None and type(stream) is not _runtime.Stream:
            raise TypeError("stream must be a kern.Stream, got %r" % (stream,))
        return Launch(self, args, dim, stream)


class GenericKernel:
    """A generic kernel (typing.Any parameters) of a loaded module.  Calling
    it instantiates it for the arguments' types, as ``wp.launch`` does, and
    launches that instantiation: a :class:`kern.Array` gives its element
    type and dimensions, a NumPy (or other array-interface) array its
    scalar type and dimensions, a Python ``int`` int32, ``float`` float32
    and ``bool`` bool.  Each signature is compiled once; ``instance(*args)``
    returns the :class:`Kernel` a call with those arguments runs."""

    def __init__(self, module, name):
        self.module = module
        self.name = name
        self._h = self._hp = module._h
        lib = _ffi.lib
        n = lib.kern_module_generic_param_count(module._h, name.encode())
        params = []
        for i in range(n):
            pi = _ffi.new_struct(_ffi.kern_param_info)
            _runtime.call(lib.kern_module_generic_param, module._h, name.encode(), i,
                          C.byref(pi), what="kernel '%s' parameter %d" % (name, i))
            generic = pi.type.scalar == _ffi.SCALAR_NONE
            params.append((pi.name.decode(), generic, pi.kind == _ffi.PARAM_ARRAY,
                           pi.ndim))
        self.params = tuple(params)
        self._instances = {}

    @property
    def device(self):
        return self.module.device

    def __repr__(self):
        return "<kern.GenericKernel %s(%s) on %s>" % (
            self.name, ", ".join(p[0] for p in self.params), self.device.name)

    def _type_of(self, i, v):
        """(kind, kern_type fields, ndim) of argument i for parameter i."""
        name = self.params[i][0]
        if isinstance(v, _ArrayT):
            t = v.dtype
            return (_ffi.PARAM_ARRAY, (t.kind, t.scalar, t.rows, t.cols), v.ndim)
        kt = getattr(type(v), "_kt", None)
        if isinstance(kt, Type) and kt.kind != _ffi.KIND_STRUCT:
            # A typed value (kern.float64(2.0), kern.vec3(...)): its type.
            return (_ffi.PARAM_VALUE, (kt.kind, kt.scalar, kt.rows, kt.cols), 0)
        if isinstance(v, bool):
            return (_ffi.PARAM_VALUE, (_ffi.KIND_SCALAR, 0, 1, 1), 0)
        if isinstance(v, int):
            return (_ffi.PARAM_VALUE, (_ffi.KIND_SCALAR, 3, 1, 1), 0)
        if isinstance(v, float):
            return (_ffi.PARAM_VALUE, (_ffi.KIND_SCALAR, 9, 1, 1), 0)
        from ._types import scalar_of_typestr
        ai = getattr(v, "__array_interface__", None) or getattr(
            v, "__cuda_array_interface__", None)
        if isinstance(ai, dict) and "typestr" in ai and "shape" in ai:
            sc = scalar_of_typestr(ai["typestr"])
            if sc is not None and 1 <= len(ai["shape"]) <= _ffi.MAX_DIMS:
                return (_ffi.PARAM_ARRAY, (_ffi.KIND_SCALAR, sc, 1, 1),
                        len(ai["shape"]))
        raise TypeMismatchError(
            "%s(): argument %d '%s' is generic (typing.Any), and its type "
            "cannot be told from %r; pass a kern.Array, a NumPy array, an int "
            "or a float, or add wp.overload(%s, [...]) to the source" % (
                self.name, i + 1, name, type(v).__name__, self.name))

    def instance(self, *args, **kw):
        """The instantiation (a :class:`Kernel`) for these arguments."""
        if self.module._h is None:
            raise InvalidHandleError("kernel '%s': its module is closed" % self.name)
        if kw:
            args = _bind_names(self.name, [p[0] for p in self.params], args, kw)
        n = len(self.params)
        if len(args) != n:
            raise TypeError("%s() takes %d argument%s (%s), got %d" % (
                self.name, n, "" if n == 1 else "s",
                ", ".join(p[0] for p in self.params), len(args)))
        sig = tuple(self._type_of(i, v) if self.params[i][1] else None
                    for i, v in enumerate(args))
        k = self._instances.get(sig)
        if k is not None:
            return k
        types = (_ffi.kern_param_info * max(n, 1))()
        for i, s in enumerate(sig):
            t = types[i]
            t.struct_size = C.sizeof(_ffi.kern_param_info)
            if s is None:  # not generic: the declared type
                t.type.kind, t.type.scalar, t.type.rows, t.type.cols = (
                    _ffi.KIND_SCALAR, _ffi.SCALAR_NONE, 1, 1)
                continue
            t.kind = s[0]
            t.type.kind, t.type.scalar, t.type.rows, t.type.cols = s[1]
            t.ndim = s[2]
        out = C.c_void_p()
        _runtime.call(_ffi.lib.kern_module_instantiate_types, self.module._h,
                      self.name.encode(), n, types, C.byref(out),
                      what="%s()" % self.name)
        iname = _ffi.lib.kern_kernel_name(out.value).decode()
        k = self.module._kernels.get(iname)
        if k is None or k._h != out.value:
            k = Kernel(self.module, iname, out.value)
            if iname not in self.module._kernels:
                self.module._kernels[iname] = k
        self._instances[sig] = k
        return k

    def __call__(self, *args, dim=None, stream=None, copy=False, **kw):
        """Instantiates the kernel for the arguments and launches it."""
        if kw:
            args = _bind_names(self.name, [p[0] for p in self.params], args, kw)
        return self.instance(*args)(*args, dim=dim, stream=stream, copy=copy)

    launch = __call__


def _bind_names(name, names, args, kw):
    vals = list(args) + [None] * (len(names) - len(args))
    given = [True] * len(args) + [False] * (len(names) - len(args))
    for k, v in kw.items():
        if k not in names:
            raise TypeError("%s() has no parameter '%s' (its parameters: %s)"
                            % (name, k, ", ".join(names)))
        i = names.index(k)
        if given[i]:
            raise TypeError("%s() got parameter '%s' twice" % (name, k))
        vals[i], given[i] = v, True
    missing = [names[i] for i in range(len(names)) if not given[i]]
    if missing:
        raise TypeError("%s() is missing argument%s %s" % (
            name, "s" if len(missing) > 1 else "",
            ", ".join("'%s'" % m for m in missing)))
    return vals


class Launch:
    """A kernel with its arguments and grid packed once (``k.bind(...)``).
    ``launch()`` enqueues it on its stream (or the device's current one);
    ``set_dim`` changes the grid.  Arrays it refers to stay alive with it."""

    __slots__ = ("kernel", "_args", "_dims", "_nd", "_keep", "stream")

    def __init__(self, kernel, args, dim, stream):
        self.kernel = kernel
        self.stream = stream
        n = kernel._n
        self._args = (_ffi.kern_arg * max(n, 1))()
        self._dims = (C.c_int64 * _ffi.MAX_DIMS)()
        self._keep = [args]
        temps = []
        with _lock:
            for c, v in zip(kernel._conv, args):
                c(v, False, temps)
            C.memmove(self._args, kernel._args, C.sizeof(self._args))
        self._keep.append(temps)
        for i, p in enumerate(kernel.params):
            a = self._args[i]
            if a.kind == _ffi.ARG_DATA:
                # The kernel's value buffer is reused by its next call: copy.
                buf = (C.c_char * a.size)()
                C.memmove(buf, a.u.data, a.size)
                a.u.data = C.addressof(buf)
                self._keep.append(buf)
        self.set_dim(dim)

    def set_dim(self, dim):
        if type(dim) is int:
            self._dims[0] = dim
            self._nd = 1
        else:
            self._nd = _set_dims(self._dims, dim, self.kernel.name)

    def launch(self, stream=None):
        """Enqueues the kernel (on the CPU without a stream: runs it)."""
        k = self.kernel
        hp = k._hp
        if hp is None:
            raise InvalidHandleError("kernel '%s': its module is closed" % k.name)
        s = stream if stream is not None else self.stream
        if s is None and _scopes[0]:
            cur = _local.streams
            if cur:
                stack = cur.get(k._device.index)
                if stack:
                    s = stack[-1]
        sp = None
        if s is not None:
            s._handle()
            sp = s._hp
        # No lock: this Launch's arrays are written only by bind and set_dim,
        # and libkern copies them during the call.
        if sp is None and k._cpu:
            st = _launch(hp, _ND[self._nd], self._dims, k._cn, self._args)
        else:
            st = _launch_async(hp, sp, _ND[self._nd], self._dims, k._cn,
                               self._args)
        if st:
            _runtime.fail(st, "")
        if s is not None and s._graph is not None:
            s._graph._refs.append(self)

    __call__ = launch


def _set_dims(dims, dim, name):
    if dim is None:
        raise TypeError("%s(): dim= is required (the launch grid: an int or "
                        "a tuple of up to 4 ints)" % name)
    if isinstance(dim, (str, bytes)):
        raise TypeError("%s(): dim must be an int or a tuple of ints, got %r"
                        % (name, dim))
    try:
        t = tuple(dim)
    except TypeError:
        try:
            import operator
            dims[0] = operator.index(dim)
            return 1
        except TypeError:
            raise TypeError("%s(): dim must be an int or a tuple of ints, got "
                            "%r" % (name, dim)) from None
    if not 1 <= len(t) <= _ffi.MAX_DIMS:
        raise InvalidArgumentError("%s(): dim has %d dimensions; 1 to %d are "
                                   "allowed" % (name, len(t), _ffi.MAX_DIMS))
    import operator
    try:
        for i, v in enumerate(t):
            dims[i] = operator.index(v)
    except (TypeError, OverflowError):
        raise InvalidArgumentError("%s(): dim %r is not a tuple of ints in "
                                   "range" % (name, dim)) from None
    return len(t)


class Module:
    """A Warp source compiled for one device.  Its kernels are attributes
    (``m.saxpy``) and items (``m["saxpy"]``); ``kernels`` lists their names."""

    def __init__(self, h, device, name):
        self._h = h
        self.device = device
        self.name = name
        lib = _ffi.lib
        self._kernels = {}
        names = []
        for i in range(lib.kern_module_kernel_count(h)):
            kn = lib.kern_module_kernel_name(h, i)
            if kn:
                names.append(kn.decode())
        self.kernels = tuple(names)

    def kernel(self, name):
        """The Kernel called name; NotFoundError (a LookupError) if none."""
        k = self._kernels.get(name)
        if k is not None:
            return k
        if self._h is None:
            raise InvalidHandleError("module %s is closed" % self.name)
        if (name not in self.kernels and
                _ffi.lib.kern_module_generic_param_count(self._h, name.encode()) >= 0):
            # A generic kernel: instantiated per call signature.
            k = self._kernels[name] = GenericKernel(self, name)
            return k
        if name not in self.kernels:
            import difflib
            near = difflib.get_close_matches(name, self.kernels, 1)
            raise NotFoundError("no kernel '%s' in %s%s (its kernels: %s)" % (
                name, self.name, "; did you mean '%s'?" % near[0] if near else "",
                ", ".join(self.kernels) or "none"))
        out = C.c_void_p()
        _runtime.call(_ffi.lib.kern_module_get_kernel, self._h, name.encode(),
                      C.byref(out), what="kernel '%s'" % name)
        k = self._kernels[name] = Kernel(self, name, out.value)
        if name.isidentifier() and not hasattr(type(self), name):
            # Later m.name lookups find it without __getattr__.
            self.__dict__[name] = k
        return k

    def __getattr__(self, name):
        if name.startswith("__") or name in ("_h", "_kernels", "kernels"):
            raise AttributeError(name)
        try:
            return self.kernel(name)
        except NotFoundError as e:
            raise AttributeError(str(e)) from None

    __getitem__ = kernel

    def __contains__(self, name):
        return name in self.kernels

    def __iter__(self):
        return (self.kernel(n) for n in self.kernels)

    def __dir__(self):
        return list(super().__dir__()) + list(self.kernels)

    def __repr__(self):
        return "<kern.Module %s on %s: %s%s>" % (
            self.name, self.device.name, ", ".join(self.kernels),
            "" if self._h else " (closed)")

    def wait_final(self):
        """Waits until the kernels run the module's final code: a CUDA
        module loaded cold starts on kern's PTX and switches to NVRTC's
        build when it is ready (``kern.init(cuda_tier=...)``); call this
        before timing it.  Returns at once elsewhere.  Returns self."""
        if self._h is None:
            raise InvalidHandleError("module %s is closed" % self.name)
        _runtime.call(_ffi.lib.kern_module_wait_final, self._h,
                      what="module %s" % self.name)
        return self

    def close(self):
        """Frees the module; its kernels can no longer be launched."""
        h, self._h = self._h, None
        for k in self._kernels.values():
            k._h = k._hp = None
        if h is not None and _runtime.alive():
            with _ffi.lock:
                _ffi.lib.kern_module_free(h)

    free = close

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


def _is_source(text):
    return "\n" in text or "@wp.kernel" in text or "@kernel" in text


def load(source, device=None, name=None):
    """Compiles every kernel of a Warp source for device and returns the
    Module.

    ``source`` is a path (str or os.PathLike) or the source text itself (a
    str with a newline, or bytes); ``name`` names a text in messages
    (default ``"<string>"``).  ``device`` is a kern.Device or a name
    (``"cpu"``, ``"cuda:0"``, ``"opencl:0"``); None is the current device
    (``with kern.Device(...)``), else $KERN_DEVICE, else the best available.
    A compile error raises CompileError with the file, line, column and the
    caret text."""
    d = _runtime.get_device(device)
    lib = _ffi.lib
    out = C.c_void_p()
    if isinstance(source, bytes) or (isinstance(source, str) and _is_source(source)):
        text = source.encode() if isinstance(source, str) else source
        nm = name or "<string>"
        _runtime.call(lib.kern_module_load_string, _runtime.ctx(), d.index,
                      nm.encode(), text, len(text), C.byref(out), what="")
    elif isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        nm = name or path
        if not os.path.exists(path):
            raise NotFoundError("kern.load: no file '%s' (to compile source "
                                "text, pass a string with the code)" % path)
        _runtime.call(lib.kern_module_load_file, _runtime.ctx(), d.index,
                      path.encode(), C.byref(out), what="")
    else:
        raise TypeError("kern.load takes a path or the source text, got %r"
                        % (source,))
    return Module(out.value, d, nm)


def launch_tiled(kernel, dim, inputs=(), outputs=(), stream=None,
                 device=None, copy=False, block_dim=None):
    """Warp's ``wp.launch_tiled``: the block size the kernel's device uses
    (``block_dim``, default 256; 1 on the CPU, as on Warp's CPU) is
    appended to ``dim`` as the last dimension."""
    if not isinstance(kernel, Kernel):
        raise TypeError("kern.launch_tiled needs a kern.Kernel (m.name), got %r"
                        % (kernel,))
    if block_dim is not None:
        kernel._set_block_dim(block_dim)
    dims = [dim] if type(dim) is int else list(dim)
    if len(dims) > 3:
        raise InvalidArgumentError(
            "kern.launch_tiled: dim has %d dimensions; the block dimension "
            "makes it at most 4, so give at most 3" % len(dims))
    return launch(kernel, tuple(dims + [kernel.block_dim]), inputs, outputs,
                  stream=stream, device=device, copy=copy)


def launch(kernel, dim, inputs=(), outputs=(), stream=None, device=None,
           copy=False, block_dim=None):
    """Warp's spelling of a launch: ``kern.launch(m.saxpy, dim=n,
    inputs=[2.0, x, y])``.  ``outputs`` are appended to ``inputs``;
    ``device``, when given, must be the kernel's device."""
    if not isinstance(kernel, (Kernel, GenericKernel)):
        from . import warp as _wp
        if isinstance(kernel, _wp.Kernel):
            # A kern.warp kernel: its module built for the device.
            kernel = kernel.kernel_for(_wp.get_device(device))
            return kernel(*(list(inputs) + list(outputs)), dim=dim,
                          stream=stream, copy=copy)
        raise TypeError("kern.launch needs a kern.Kernel (m.name), got %r"
                        % (kernel,))
    if device is not None and _runtime.get_device(device) != kernel.device:
        raise InvalidArgumentError(
            "kern.launch: kernel '%s' was built for %s, not %s (load the "
            "module for that device)" % (kernel.name, kernel.device.name,
                                         _runtime.get_device(device).name))
    args = list(inputs) + list(outputs)
    if block_dim is not None:
        if not isinstance(kernel, Kernel):
            raise TypeError("kern.launch: block_dim needs a kern.Kernel")
        kernel._set_block_dim(block_dim)
    return kernel(*args, dim=dim, stream=stream, copy=copy)


def compile_source(source, target="c", name=None):
    """The code kern generates for target (``"c"``, ``"cuda"``,
    ``"opencl"``) from a Warp source (path or text), without building it."""
    if isinstance(source, bytes) or (isinstance(source, str) and _is_source(source)):
        text = source.encode() if isinstance(source, str) else source
        nm = name or "<string>"
    else:
        nm = name or os.fspath(source)
        with open(os.fspath(source), "rb") as f:
            text = f.read()
    lib = _runtime._lib()
    out = C.c_void_p()
    _runtime.call(lib.kern_compile_source, _runtime.ctx(), nm.encode(), text,
                  len(text), target.encode(), C.byref(out), what="")
    try:
        return C.string_at(out.value).decode("utf-8", "replace")
    finally:
        lib.kern_free(out)
