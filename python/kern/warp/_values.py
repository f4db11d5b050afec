"""Warp's value types on the host: scalars, vectors, matrices, quaternions,
transforms and the array annotation.

Each type is a Python class carrying its kern Type as ``_kt`` and its Warp
spelling as ``_wpname`` (what kern.warp writes into the kernel source when
a module-level value of the type is captured).  Scalars subclass ``int`` or
``float`` (``wp.float32(2.5)`` is a float that knows it is a float32), so
they work anywhere Python numbers do.  Vectors and matrices subclass a
ctypes array of their components, the layout a kernel argument needs
(passing one is a copy of its bytes), with the arithmetic Warp's host types
have: ``+``, ``-``, scalar ``*`` and ``/``, ``==``, indexing, ``.x``.
"""
import ctypes as C
import struct as _struct

from .. import _ffi, _types
from .._types import Type

_CT = _types._CT

# ---------------------------------------------------------------- scalars


class _ScalarMeta(type):
    def __repr__(cls):
        return "<class 'warp.%s'>" % cls._wpname


def _f32(x):
    return _struct.unpack("f", _struct.pack("f", x))[0]


def _scalar_class(name, kt, base):
    if base is float:
        if kt.scalar == 9:
            def new(cls, x=0.0):
                return float.__new__(cls, _f32(float(x)))
        else:
            def new(cls, x=0.0):
                return float.__new__(cls, float(x))
    else:
        bits = _ffi.SCALAR_SIZES[kt.scalar] * 8
        signed = kt.scalar in (1, 2, 3, 4)

        def new(cls, x=0):
            v = int(x) & ((1 << bits) - 1)
            if signed and v >> (bits - 1):
                v -= 1 << bits
            return int.__new__(cls, v)

    def rep(self):
        return "%s(%s)" % (name, base.__repr__(self))

    def value(self):
        return base(self)
    return _ScalarMeta(name, (base,), {"__new__": new, "_kt": kt,
                                        "_wpname": name, "__repr__": rep,
                                        "value": property(value),
                                        "__slots__": ()})


int8 = _scalar_class("int8", _types.int8, int)
int16 = _scalar_class("int16", _types.int16, int)
int32 = _scalar_class("int32", _types.int32, int)
int64 = _scalar_class("int64", _types.int64, int)
uint8 = _scalar_class("uint8", _types.uint8, int)
uint16 = _scalar_class("uint16", _types.uint16, int)
uint32 = _scalar_class("uint32", _types.uint32, int)
uint64 = _scalar_class("uint64", _types.uint64, int)
float32 = _scalar_class("float32", _types.float32, float)
float64 = _scalar_class("float64", _types.float64, float)
bool = _scalar_class("bool", _types.bool_, int)
bool.__new__ = lambda cls, x=False: int.__new__(cls, 1 if x else 0)


class _Half:
    """A 16-bit float type: a name for kernel source only (kern's Python
    package does not store 16-bit arrays yet)."""

    def __init__(self, name):
        self._wpname = name

    def __repr__(self):
        return "<class 'warp.%s'>" % self._wpname

    def __call__(self, *a):
        raise _unsupported("wp.%s values on the host" % self._wpname)


float16 = _Half("float16")
bfloat16 = _Half("bfloat16")
half = float16

_SCALAR_CLASSES = {c._kt: c for c in (int8, int16, int32, int64, uint8,
                                      uint16, uint32, uint64, float32,
                                      float64, bool)}


def _unsupported(what):
    from .._errors import UnsupportedError
    return UnsupportedError("kern.warp: %s is not supported yet" % what)

# ---------------------------------------------------------------- vectors


class _TypeMeta(type(C.c_float * 1)):
    def __repr__(cls):
        return "<class 'warp.%s'>" % cls._wpname


def _components(cls, args):
    n = cls._length
    if not args:
        return None
    if len(args) == 1:
        a = args[0]
        if isinstance(a, (int, float)):
            return [a] * n
        vals = _flatten(a)
    else:
        vals = _flatten(args)
    if len(vals) != n:
        raise ValueError("%s needs %d components, got %d"
                         % (cls._wpname, n, len(vals)))
    return vals


def _flatten(v):
    out = []
    for x in v:
        if isinstance(x, (int, float)):
            out.append(x)
        else:
            try:
                out.extend(_flatten(x))
            except TypeError:
                out.append(x)
    return out


def _set_components(obj, args, setitem):
    """Fills a new vector or matrix from its constructor's arguments
    (nothing: zeros), each converted to the scalar type's Python kind."""
    vals = _components(type(obj), args)
    if vals is not None:
        conv = float if obj._kt.is_float else int
        for i, v in enumerate(vals):
            setitem(obj, i, conv(v))


class _VectorBase:
    """Methods shared by vectors, quaternions and transforms."""
    __slots__ = ()

    def __init__(self, *args):
        _set_components(self, args, type(self).__setitem__)

    def __len__(self):
        return self._length

    def __repr__(self):
        return "%s(%s)" % (self._wpname, str(self))

    def __str__(self):
        return "[%s]" % ", ".join(repr(x) for x in self)

    def __eq__(self, other):
        try:
            return len(other) == self._length and all(
                a == b for a, b in zip(self, other))
        except TypeError:
            return NotImplemented

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    __hash__ = None

    def _map(self, f):
        return type(self)(*[f(a) for a in self])

    def _zip(self, other, f):
        if len(other) != self._length:
            raise ValueError("%s: lengths differ" % self._wpname)
        return type(self)(*[f(a, b) for a, b in zip(self, other)])

    def __add__(self, o):
        return self._zip(o, lambda a, b: a + b)

    __radd__ = __add__

    def __sub__(self, o):
        return self._zip(o, lambda a, b: a - b)

    def __rsub__(self, o):
        return self._zip(o, lambda a, b: b - a)

    def __mul__(self, o):
        if isinstance(o, (int, float)):
            return self._map(lambda a: a * o)
        return NotImplemented

    __rmul__ = __mul__

    def __truediv__(self, o):
        if isinstance(o, (int, float)):
            return self._map(lambda a: a / o)
        return NotImplemented

    def __neg__(self):
        return self._map(lambda a: -a)

    def __pos__(self):
        return self._map(lambda a: a)

    def _comp(i):
        return property(lambda self: self[i],
                        lambda self, v: self.__setitem__(i, v))
    x, y, z, w = _comp(0), _comp(1), _comp(2), _comp(3)
    del _comp


class _TransformBase(_VectorBase):
    __slots__ = ()

    def __init__(self, *args, p=None, q=None):
        if p is not None or q is not None:
            args = (p if p is not None else (0, 0, 0),
                    q if q is not None else (0, 0, 0, 1))
        if len(args) == 2:
            args = (list(_flatten(args[0])) + list(_flatten(args[1])),)
        elif not args:
            args = ((0, 0, 0, 0, 0, 0, 1),)
        _VectorBase.__init__(self, *args)

    @property
    def p(self):
        return self._vec3(*self[0:3])

    @property
    def q(self):
        return self._quat(*self[3:7])


class _QuatBase(_VectorBase):
    __slots__ = ()

    def __init__(self, *args):
        if not args:
            args = ((0, 0, 0, 1),)
        elif len(args) == 2:  # (ijk, real)
            args = (list(_flatten(args[0])) + [args[1]],)
        _VectorBase.__init__(self, *args)


class _MatrixBase:
    __slots__ = ()

    def __init__(self, *args):
        _set_components(self, args, C.Array.__setitem__)

    def __len__(self):
        return self._rows

    def __getitem__(self, i):
        r, c = self._rows, self._cols
        if isinstance(i, tuple):
            a, b = i
            if not (-r <= a < r and -c <= b < c):
                raise IndexError("%s index %r out of range" % (self._wpname, i))
            return C.Array.__getitem__(self, (a % r) * c + (b % c))
        if not -r <= i < r:
            raise IndexError("%s row %d out of range" % (self._wpname, i))
        i %= r
        return self._row(*[C.Array.__getitem__(self, i * c + j)
                            for j in range(c)])

    def __setitem__(self, i, v):
        r, c = self._rows, self._cols
        if isinstance(i, tuple):
            a, b = i
            C.Array.__setitem__(self, (a % r) * c + (b % c), v)
            return
        vals = _flatten(v)
        for j in range(c):
            C.Array.__setitem__(self, (i % r) * c + j, vals[j])

    def __iter__(self):
        return (self[i] for i in range(self._rows))

    def __repr__(self):
        return "%s(%s)" % (self._wpname, str(self))

    def __str__(self):
        return "[%s]" % ",\n ".join(str(row) for row in self)

    def __eq__(self, other):
        try:
            return all(a == b for a, b in zip(_flatten(self), _flatten(other)))
        except TypeError:
            return NotImplemented

    __hash__ = None

    def _flat(self):
        return [C.Array.__getitem__(self, i) for i in range(self._length)]

    def __add__(self, o):
        return type(self)(*[a + b for a, b in zip(self._flat(), _flatten(o))])

    def __sub__(self, o):
        return type(self)(*[a - b for a, b in zip(self._flat(), _flatten(o))])

    def __mul__(self, o):
        if isinstance(o, (int, float)):
            return type(self)(*[a * o for a in self._flat()])
        return NotImplemented

    __rmul__ = __mul__

    def __neg__(self):
        return type(self)(*[-a for a in self._flat()])


_VEC_SUFFIX = {9: "f", 10: "d", 3: "i", 4: "l", 1: "b", 2: "s", 5: "ub",
               6: "us", 7: "ui", 8: "ul"}
_classes = {}


def vector_type(length, scalar_kt, name=None, base=_VectorBase):
    """The vector class of length components of scalar_kt (a kern Type)."""
    kt = Type(_ffi.KIND_VECTOR, scalar_kt.scalar, length)
    key = (kt, base)
    cls = _classes.get(key)
    if cls is None:
        suf = _VEC_SUFFIX.get(scalar_kt.scalar, "")
        if name is None:
            name = ("vec%d%s" % (length, suf) if 2 <= length <= 4 else
                    "vector(length=%d, dtype=%s)" % (length, scalar_kt.name))
        wpname = name if name.startswith("vector(") else name
        src = ("wp.types.vector(length=%d, dtype=wp.%s)"
               % (length, scalar_kt.name) if name.startswith("vector(")
               else "wp." + name)
        cls = _TypeMeta(name if name.isidentifier() else "vector",
                        (base, _CT[scalar_kt.scalar] * length),
                        {"_kt": kt, "_length": length, "_wpname": wpname,
                         "_src": src, "_scalar": _SCALAR_CLASSES[scalar_kt],
                         "__slots__": ()})
        _classes[key] = cls
    return cls


def matrix_type(rows, cols, scalar_kt, name=None):
    kt = Type(_ffi.KIND_MATRIX, scalar_kt.scalar, rows, cols)
    cls = _classes.get(kt)
    if cls is None:
        suf = _VEC_SUFFIX.get(scalar_kt.scalar, "")
        if name is None:
            name = ("mat%d%d%s" % (rows, cols, suf)
                    if rows == cols and 2 <= rows <= 4 else None)
        src = ("wp." + name if name else
               "wp.types.matrix(shape=(%d, %d), dtype=wp.%s)"
               % (rows, cols, scalar_kt.name))
        cls = _TypeMeta(name or "matrix", (_MatrixBase,
                                           _CT[scalar_kt.scalar] * (rows * cols)),
                        {"_kt": kt, "_length": rows * cols, "_rows": rows,
                         "_cols": cols, "_wpname": name or src, "_src": src,
                         "_row": vector_type(cols, scalar_kt),
                         "_scalar": _SCALAR_CLASSES[scalar_kt],
                         "__slots__": ()})
        _classes[kt] = cls
    return cls


vec2, vec3, vec4 = (vector_type(n, _types.float32, "vec%d" % n) for n in (2, 3, 4))
vec2f, vec3f, vec4f = vec2, vec3, vec4
vec2d, vec3d, vec4d = (vector_type(n, _types.float64) for n in (2, 3, 4))
vec2i, vec3i, vec4i = (vector_type(n, _types.int32) for n in (2, 3, 4))
vec2ui, vec3ui, vec4ui = (vector_type(n, _types.uint32) for n in (2, 3, 4))
vec2b, vec3b, vec4b = (vector_type(n, _types.int8) for n in (2, 3, 4))
vec2ub, vec3ub, vec4ub = (vector_type(n, _types.uint8) for n in (2, 3, 4))
vec2s, vec3s, vec4s = (vector_type(n, _types.int16) for n in (2, 3, 4))
vec2us, vec3us, vec4us = (vector_type(n, _types.uint16) for n in (2, 3, 4))
vec2l, vec3l, vec4l = (vector_type(n, _types.int64) for n in (2, 3, 4))
vec2ul, vec3ul, vec4ul = (vector_type(n, _types.uint64) for n in (2, 3, 4))
mat22, mat33, mat44 = (matrix_type(n, n, _types.float32, "mat%d%d" % (n, n))
                       for n in (2, 3, 4))
mat22f, mat33f, mat44f = mat22, mat33, mat44
mat22d, mat33d, mat44d = (matrix_type(n, n, _types.float64) for n in (2, 3, 4))
quat = vector_type(4, _types.float32, "quat", _QuatBase)
quatf = quat
quatd = vector_type(4, _types.float64, "quatd", _QuatBase)
transform = vector_type(7, _types.float32, "transform", _TransformBase)
transformf = transform
transformd = vector_type(7, _types.float64, "transformd", _TransformBase)
transform._vec3, transform._quat = vec3, quat
transformd._vec3, transformd._quat = vec3d, quatd
spatial_vector = vector_type(6, _types.float32, "spatial_vector")
spatial_vectord = vector_type(6, _types.float64, "spatial_vectord")
spatial_matrix = matrix_type(6, 6, _types.float32, "spatial_matrix")


def value_class(kt):
    """The host value class of kern Type kt (``kern.vec3(1, 2, 3)``)."""
    if kt.kind == _ffi.KIND_SCALAR:
        c = _SCALAR_CLASSES.get(kt)
        if c is None:
            raise _unsupported("host values of %s" % kt.name)
        return c
    if kt.kind == _ffi.KIND_VECTOR:
        c = _classes.get((kt, _VectorBase))
        return c or vector_type(kt.rows, Type(0, kt.scalar))
    if kt.kind == _ffi.KIND_MATRIX:
        return _classes.get(kt) or matrix_type(kt.rows, kt.cols,
                                               Type(0, kt.scalar))
    raise TypeError("no host value class for %s (a struct: use its "
                    "@wp.struct class)" % kt.name)
