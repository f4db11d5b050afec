"""SPEC arguments of ``kern run`` (docs/cli.md), in Python.

``python -m kern run`` and the test suite's example runner read the same
``NAME=SPEC`` forms as the C tool, with the same meaning: numbers and
component lists for values; ``zeros``, ``ones``, ``full``, ``arange``,
``rand`` and ``.npy`` files for arrays.  ``rand`` is SplitMix64 exactly as
docs/cli.md defines it, so an array made here is bit for bit the one
``kern run`` makes (the tests compare the two).  Arrays come back as NumPy
arrays laid out the way kern sees them (vector and matrix components as
trailing axes).
"""
import re

from . import _ffi
from ._types import parse_name

_GEN = ("zeros", "ones", "full", "arange", "rand")
_FORMS = {"zeros": "zeros(T,N[,M..])", "ones": "ones(T,N[,M..])",
          "full": "full(T,N[,M..],V)", "arange": "arange(T,N)",
          "rand": "rand(T,N[,M..][,seed=S])"}
_M64 = (1 << 64) - 1


class SpecError(ValueError):
    """A SPEC that cannot be used for its parameter."""


def _scalar(tscalar, text, pname):
    t = text.strip()
    if t in ("true", "True"):
        v = 1
    elif t in ("false", "False"):
        v = 0
    else:
        try:
            v = int(t, 0) if re.fullmatch(r"[+-]?(0[xX][0-9a-fA-F]+|[0-9]+)", t) else None
        except ValueError:
            v = None
        if v is None:
            try:
                v = float(t)
            except ValueError:
                raise SpecError("parameter '%s': '%s' is not a number" % (pname, t)) from None
    if tscalar in (9, 10):
        return float(v)
    if isinstance(v, float):
        raise SpecError("parameter '%s': %s is not an integer (the parameter "
                        "is %s)" % (pname, t, _ffi.SCALAR_NAMES[tscalar]))
    if tscalar == 0:
        return bool(v)
    bits = _ffi.SCALAR_SIZES[tscalar] * 8
    signed = 1 <= tscalar <= 4
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    if not lo <= v <= hi:
        raise SpecError("parameter '%s': %s is out of range for %s"
                        % (pname, t, _ffi.SCALAR_NAMES[tscalar]))
    return v


def parse_value(param, text):
    """The Python value (a number, or a list of components) of a value SPEC."""
    t = param.dtype
    s = text.strip()
    m = re.fullmatch(r"(?:wp\.)?([A-Za-z_][A-Za-z0-9_]*)?\s*\((.*)\)", s, re.S)
    if m:
        if m.group(1):
            nt = parse_name(m.group(1))
            if nt != t:
                raise SpecError("parameter '%s': %s is not the parameter's type %s"
                                % (param.name, m.group(1), t.name))
        s = m.group(2)
    comps = [c for c in s.split(",")]
    if len(comps) != t.length:
        raise SpecError("parameter '%s' (%s) needs %d component%s, got %d"
                        % (param.name, t.name, t.length, "" if t.length == 1 else "s",
                           len(comps)))
    vals = [_scalar(t.scalar, c, param.name) for c in comps]
    return vals[0] if t.length == 1 else vals


def splitmix(seed, n):
    """n SplitMix64 outputs from state seed (docs/cli.md's rand)."""
    out = []
    state = seed & _M64
    for _ in range(n):
        state = (state + 0x9E3779B97F4A7C15) & _M64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        out.append(z ^ (z >> 31))
    return out


def _splitmix_np(np, seed, n):
    # The same stream, vectorised: state_i = seed + (i + 1) * golden.
    with np.errstate(over="ignore"):
        i = np.arange(1, n + 1, dtype=np.uint64)
        z = np.uint64(seed & _M64) + i * np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def parse_array(param, text):
    """A NumPy array for an array SPEC (NumPy required)."""
    import numpy as np
    t = param.dtype
    s = text.strip()
    dt = t.numpy_dtype()
    if s.endswith(".npy") and "(" not in s:
        a = np.load(s)
        if a.dtype != dt:
            raise SpecError("parameter '%s': %s holds %s, the parameter %s"
                            % (param.name, s, a.dtype, t.scalar_name))
        want = param.ndim + len(t.inner_shape)
        if a.ndim != want or (t.inner_shape and a.shape[param.ndim:] != t.inner_shape):
            raise SpecError("parameter '%s': %s has shape %r, not %d axes%s"
                            % (param.name, s, a.shape, want,
                               " ending in %r" % (t.inner_shape,) if t.inner_shape else ""))
        return np.ascontiguousarray(a)
    m = re.fullmatch(r"([a-z]+)\s*\((.*)\)", s, re.S)
    if not m or m.group(1) not in _GEN:
        raise SpecError("parameter '%s': '%s' is not an array SPEC (zeros, "
                        "ones, full, arange, rand or a .npy file)" % (param.name, s))
    gen = m.group(1)
    args = [a.strip() for a in m.group(2).split(",")]
    form = _FORMS[gen]
    et = parse_name(args[0]) if args[0] else None
    if et is None:
        raise SpecError("parameter '%s': unknown type '%s' in '%s'"
                        % (param.name, args[0], s))
    if et != t:
        raise SpecError("parameter '%s': '%s' makes %s elements but the "
                        "parameter holds %s" % (param.name, s, et.name, t.name))
    dims = args[1:]
    fill = None
    seed = 0
    if gen == "full":
        if len(dims) < 2:
            raise SpecError("parameter '%s': '%s' needs a shape and a fill "
                            "value: %s" % (param.name, s, form))
        fill = _scalar(t.scalar, dims[-1], param.name)
        dims = dims[:-1]
    elif gen == "rand" and dims and dims[-1].startswith("seed"):
        v = dims[-1][4:].strip()
        if not v.startswith("=") or not v[1:].strip().isdigit():
            raise SpecError("parameter '%s': bad seed in '%s'" % (param.name, s))
        seed = int(v[1:].strip())
        dims = dims[:-1]
    if not dims:
        raise SpecError("parameter '%s': '%s' lacks a shape: %s" % (param.name, s, form))
    if gen == "arange" and len(dims) != 1:
        raise SpecError("parameter '%s': arange makes 1-d arrays only: %s"
                        % (param.name, form))
    if len(dims) != param.ndim:
        raise SpecError("parameter '%s': '%s' has %d dimension%s but the "
                        "parameter has %d" % (param.name, s, len(dims),
                                              "" if len(dims) == 1 else "s", param.ndim))
    try:
        shape = tuple(int(d, 0) for d in dims)
    except ValueError:
        raise SpecError("parameter '%s': bad dimension in '%s'" % (param.name, s)) from None
    nshape = shape + t.inner_shape
    n = 1
    for d in nshape:
        n *= d
    if gen == "zeros":
        flat = np.zeros(n, dt)
    elif gen == "ones":
        flat = np.ones(n, dt)
    elif gen == "full":
        flat = np.full(n, fill, dt)
    elif gen == "arange":
        flat = np.arange(n, dtype=np.uint64).astype(dt) if t.scalar != 0 else (np.arange(n) != 0)
    else:
        z = _splitmix_np(np, seed, n)
        if t.is_float:
            flat = ((z >> np.uint64(11)).astype(np.float64) * 2.0 ** -53).astype(dt)
        elif t.scalar == 0:
            flat = (z & np.uint64(1)).astype(bool)
        else:
            flat = (z % np.uint64(100)).astype(dt)
    return flat.reshape(nshape)


def parse_dims(text):
    """(N, M, ...) from ``--dim N[,M...]``."""
    try:
        dims = tuple(int(d, 0) for d in text.split(","))
    except ValueError:
        raise SpecError("--dim '%s' is not N[,M...] with integers" % text) from None
    if not 1 <= len(dims) <= _ffi.MAX_DIMS or any(d < 0 for d in dims):
        raise SpecError("--dim '%s': 1 to %d non-negative sizes"
                        % (text, _ffi.MAX_DIMS))
    return dims
