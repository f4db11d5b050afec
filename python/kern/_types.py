"""Value types: kern_type in Python, with Warp's names and NumPy's dtypes.

A :class:`Type` is what kern.h calls kern_type: a scalar, a vector of
``rows`` components or a ``rows`` x ``cols`` matrix of one scalar type.  The
module-level constants use Warp's spellings (``kern.float32``, ``kern.vec3``,
``kern.mat33d``), so code moving over from ``wp.`` reads the same.  Parsing
is done here in Python (the rules of kern_type_parse) so that it works
before libkern is loaded; a name these rules do not know is handed to the
library's own parser, which a newer libkern may extend.

NumPy sees a vector or matrix element as trailing axes of its scalar type,
the way DLPack export and ``kern run --save`` lay it out: a vec3 array of
shape (n,) is a NumPy float32 array of shape (n, 3).
"""
import ctypes as C

from . import _ffi

_SUFFIX = {"b": 1, "s": 2, "i": 3, "l": 4, "ub": 5, "us": 6, "ui": 7,
           "ul": 8, "": 9, "f": 9, "d": 10}
_SUFFIX_OF = {1: "b", 2: "s", 3: "i", 4: "l", 5: "ub", 6: "us", 7: "ui",
              8: "ul", 9: "", 10: "d"}
# NumPy's one-character type codes, by kern scalar.
_NP_CHAR = ("?", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f4", "f8")
# struct/ctypes format of one scalar, by kern scalar.
_CT = (C.c_uint8, C.c_int8, C.c_int16, C.c_int32, C.c_int64, C.c_uint8,
       C.c_uint16, C.c_uint32, C.c_uint64, C.c_float, C.c_double)
_FMT = ("?", "b", "h", "i", "q", "B", "H", "I", "Q", "f", "d")


class Type:
    """A kern value type (kern_type): scalar, vector or matrix.

    Use the constants (``kern.float32``, ``kern.vec3``) or
    :func:`kern.dtype` to make one from a name or a NumPy dtype."""

    __slots__ = ("kind", "scalar", "rows", "cols", "_name")

    def __init__(self, kind, scalar, rows=1, cols=1):
        self.kind = kind
        self.scalar = scalar
        self.rows = rows
        self.cols = cols
        self._name = None

    # Identity by value, so Type(0, 9) == kern.float32.
    def _key(self):
        return (self.kind, self.scalar, self.rows, self.cols)

    def __eq__(self, other):
        # A kern.warp type (wp.float32, wp.vec3, a @wp.struct) carries its
        # kern Type as _kt, so ``a.dtype == wp.vec3`` reads as in Warp.
        other = getattr(other, "_kt", other)
        return isinstance(other, Type) and self._key() == other._key()

    def __call__(self, *args):
        """A value of this type: ``kern.vec3(1, 2, 3)``,
        ``kern.float32(2.5)``, ``kern.mat22(1, 2, 3, 4)`` (the value classes
        of kern.warp, which kernels take as arguments)."""
        from .warp import _values
        return _values.value_class(self)(*args)

    def __hash__(self):
        return hash(self._key())

    @property
    def name(self):
        """Warp's spelling: ``"float32"``, ``"vec3"``, ``"mat33d"``."""
        if self._name is None:
            if self.scalar < _ffi.SCALAR_COUNT:
                base = _ffi.SCALAR_NAMES[self.scalar]
                suf = _SUFFIX_OF.get(self.scalar)
            else:
                base, suf = "scalar%d" % self.scalar, None
            if self.kind == _ffi.KIND_STRUCT:
                n = "struct(size=%d, align=%d)" % (self.rows, self.cols)
            elif self.kind == _ffi.KIND_SCALAR:
                n = base
            elif self.kind == _ffi.KIND_VECTOR:
                n = ("vec%d%s" % (self.rows, suf) if suf is not None
                     else "vector(length=%d, dtype=%s)" % (self.rows, base))
            elif self.rows == self.cols and suf is not None:
                n = "mat%d%d%s" % (self.rows, self.cols, suf)
            else:
                n = "matrix(shape=(%d, %d), dtype=%s)" % (self.rows, self.cols, base)
            self._name = n
        return self._name

    def __repr__(self):
        return "kern." + self.name

    __str__ = lambda self: self.name

    @property
    def scalar_name(self):
        """The component type's name (``"float32"`` for vec3)."""
        return _ffi.SCALAR_NAMES[self.scalar]

    @property
    def length(self):
        """Scalars per value: 1, the vector length, or rows * cols (a
        struct's: its bytes)."""
        if self.kind == _ffi.KIND_STRUCT:
            return self.rows
        return self.rows * self.cols

    @property
    def size(self):
        """Bytes per value."""
        return _ffi.SCALAR_SIZES[self.scalar] * self.length

    @property
    def inner_shape(self):
        """The trailing NumPy axes of one value: (), (rows,) or (rows, cols)."""
        if self.kind == _ffi.KIND_SCALAR:
            return ()
        if self.kind == _ffi.KIND_STRUCT:
            return (self.rows,)   # its bytes (Note [struct arrays])
        if self.kind == _ffi.KIND_VECTOR:
            return (self.rows,)
        return (self.rows, self.cols)

    @property
    def is_float(self):
        return self.scalar in (9, 10)

    @property
    def is_int(self):
        return 1 <= self.scalar <= 8

    @property
    def np_char(self):
        return _NP_CHAR[self.scalar]

    @property
    def ctype(self):
        """The ctypes type of one scalar component."""
        return _CT[self.scalar]

    @property
    def struct_format(self):
        return _FMT[self.scalar]

    def numpy_dtype(self):
        """The NumPy dtype of one scalar component (NumPy required)."""
        import numpy as np
        return np.dtype(_NP_CHAR[self.scalar])

    def c(self):
        return _ffi.kern_type(self.kind, self.scalar, self.rows, self.cols)


# Note [struct arrays]
# An array of @wp.struct elements is KERN_TYPE_STRUCT(size, align): NumPy
# sees each element as its `size` bytes (a trailing uint8 axis), unless
# kern.warp registered the struct's NumPy dtype for that size and alignment
# here; then .numpy() gives a structured array with the field names.  Two
# structs of one size and alignment make the entry ambiguous (None), and the
# bytes are given.
struct_numpy = {}


def _scalar(i):
    return Type(_ffi.KIND_SCALAR, i)


bool_ = _scalar(0)
int8, int16, int32, int64 = (_scalar(i) for i in (1, 2, 3, 4))
uint8, uint16, uint32, uint64 = (_scalar(i) for i in (5, 6, 7, 8))
float32, float64 = _scalar(9), _scalar(10)
vec2, vec3, vec4 = (Type(_ffi.KIND_VECTOR, 9, n) for n in (2, 3, 4))
vec2d, vec3d, vec4d = (Type(_ffi.KIND_VECTOR, 10, n) for n in (2, 3, 4))
vec2i, vec3i, vec4i = (Type(_ffi.KIND_VECTOR, 3, n) for n in (2, 3, 4))
mat22, mat33, mat44 = (Type(_ffi.KIND_MATRIX, 9, n, n) for n in (2, 3, 4))
mat22d, mat33d, mat44d = (Type(_ffi.KIND_MATRIX, 10, n, n) for n in (2, 3, 4))


def parse_name(name):
    """Type from Warp's spelling, with or without ``wp.``; None if unknown."""
    if name.startswith("wp.") or name.startswith("kern."):
        name = name.split(".", 1)[1]
    if name == "int":
        return int32
    if name == "float":
        return float32
    if name == "bool":
        return bool_
    if name in _ffi.SCALAR_NAMES:
        return _scalar(_ffi.SCALAR_NAMES.index(name))
    if name.startswith("vec") and len(name) >= 4 and name[3] in "234":
        s = _SUFFIX.get(name[4:])
        if s is not None:
            return Type(_ffi.KIND_VECTOR, s, int(name[3]))
    if (name.startswith("mat") and len(name) >= 5 and name[3] in "234"
            and name[4] == name[3]):
        s = _SUFFIX.get(name[5:])
        if s is not None:
            return Type(_ffi.KIND_MATRIX, s, int(name[3]), int(name[3]))
    # A newer library may know more names (float16 and friends).
    if _ffi.lib is not None:
        t = _ffi.kern_type()
        if _ffi.lib.kern_type_parse(name.encode(), C.byref(t)) == 0:
            return Type(t.kind, t.scalar, t.rows, t.cols)
    return None


_NP_TO_SCALAR = {"b1": 0, "i1": 1, "i2": 2, "i4": 3, "i8": 4, "u1": 5,
                 "u2": 6, "u4": 7, "u8": 8, "f4": 9, "f8": 10}


def scalar_of_typestr(typestr):
    """kern scalar of an array-interface typestr (``"<f4"``); None if none."""
    if len(typestr) < 3 or typestr[0] not in "<|=":
        return None  # big-endian data is not what any kern device reads
    return _NP_TO_SCALAR.get(typestr[1:])


def dtype(obj):
    """A :class:`Type` from a Type, a name (``"vec3"``, ``"wp.float64"``), a
    NumPy dtype or scalar type, or Python's ``float`` (float32), ``int``
    (int32) and ``bool``, as Warp maps them.  Raises TypeError otherwise."""
    if isinstance(obj, Type):
        return obj
    if obj is float:
        return float32
    if obj is int:
        return int32
    if obj is bool:
        return bool_
    if isinstance(obj, str):
        t = parse_name(obj)
        if t is None:
            raise TypeError("unknown kern type %r (use a Warp name such as "
                            "'float32', 'vec3' or 'mat33d')" % obj)
        return t
    # NumPy dtypes and scalar types, without importing NumPy.
    ds = getattr(obj, "str", None)
    if not isinstance(ds, str):
        try:
            import numpy as np
            ds = np.dtype(obj).str
        except Exception:
            ds = None
    if isinstance(ds, str):
        s = scalar_of_typestr(ds)
        if s is not None:
            return _scalar(s)
    raise TypeError("cannot make a kern type from %r" % (obj,))
