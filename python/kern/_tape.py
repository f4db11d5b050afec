"""kern.Tape: reverse-mode gradients of recorded launches (issue #26).

While a tape is active (``with kern.Tape() as tape:``), every kernel launch
on this thread is recorded with its arguments and grid.  ``backward()``
then runs, newest first, each kernel's adjoint (``Kernel.adjoint``, built by
libkern from the kernel's IR the first time it is asked for) with the
forward arguments followed by one adjoint per parameter: an array's
``.grad`` (None where it has none: the adjoint skips it), for a struct a
struct whose array fields are those arrays' ``.grad`` (as Warp's Tape
builds it), and zero for a value, whose gradient Warp does not return
either.  Gradients accumulate
into the ``.grad`` arrays, as Warp's do.

The same object is kern.warp's ``wp.Tape``."""
import threading
import warnings

from . import _array
from ._errors import CompileError, InvalidArgumentError

_local = threading.local()
# How many tapes record, on any thread: the launch path tests this list's
# one element before it looks at its thread's tape.
recording = [0]
_count_lock = threading.Lock()


def active():
    """The tape recording on this thread, or None."""
    return getattr(_local, "tape", None)


def record(kernel, args, dim, stream):
    t = getattr(_local, "tape", None)
    if t is not None:
        t.launches.append((kernel, tuple(args), dim, stream))


def _zero_value(p):
    t = p.dtype
    if p.is_array:
        return None
    if p.struct_name is not None:
        return {}                # every field zero
    if t.length > 1:
        return [0] * t.length
    return 0.0 if t.is_float else 0


def _struct_arrays(p, v):
    """(path, array) for each array field of the struct value v of
    parameter p that is a kern array (a dict or an object with the fields;
    bytes and NumPy records hold none)."""
    from ._module import _field_value
    if not isinstance(v, dict) and (isinstance(v, (bytes, bytearray, memoryview))
                                    or type(v).__module__ == "numpy"):
        return []
    out = []
    for f in p.fields:
        if f.is_array:
            x = _field_value(v, f.path, p.name)
            if isinstance(x, _array.Array):
                out.append((f.path, x))
    return out


def _adjoint_struct(p, v):
    """A struct parameter's adjoint, as Warp's Tape makes it (Note [struct
    leaves] in src/ir/adjoint.c): each array field the .grad of the
    forward value's array (absent, an empty array the adjoint skips, where
    it has none), nested structs likewise; the value fields zero, as the
    adjoint does not read them."""
    adj = {}
    for path, x in _struct_arrays(p, v):
        if x.grad is None:
            continue
        d = adj
        for name in path[:-1]:
            d = d.setdefault(name, {})
        d[path[-1]] = x.grad
    return adj


class _Func:
    """A callable recorded by Tape.record_func, with the arrays whose
    gradients Tape.zero() zeroes for it."""

    __slots__ = ("fn", "arrays")

    def __init__(self, fn, arrays):
        if not callable(fn):
            raise InvalidArgumentError("Tape.record_func: a callable, got %r"
                                       % (fn,))
        self.fn = fn
        self.arrays = tuple(arrays or ())

    def __call__(self):
        self.fn()


class Tape:
    """Records launches; ``backward(loss=..., grads=...)`` fills ``.grad``.

    ``loss`` is a one-element array with ``requires_grad=True`` (its
    gradient is seeded with 1); ``grads`` maps arrays to the gradients to
    start from.  ``zero()`` zeroes the gradients of every array the
    recorded launches touched; ``reset()`` forgets the launches and zeroes
    those gradients."""

    def __init__(self):
        self.launches = []
        self._outer = None

    def __enter__(self):
        if active() is not None:
            raise InvalidArgumentError("a kern.Tape is already recording on "
                                       "this thread")
        _local.tape = self
        with _count_lock:
            recording[0] += 1
        return self

    def __exit__(self, *exc):
        _local.tape = None
        with _count_lock:
            recording[0] -= 1

    def record_func(self, backward, arrays=()):
        """Records a Python callable that ``backward()`` calls in its turn
        (Warp's ``Tape.record_func``); ``zero()`` also zeroes the
        gradients of ``arrays``, the arrays the callable reads or writes."""
        self.launches.append(_Func(backward, arrays))

    def _arrays(self):
        seen = {}
        for entry in self.launches:
            if callable(entry):
                for v in getattr(entry, "arrays", ()):
                    if isinstance(v, _array.Array) and v.grad is not None:
                        seen[id(v)] = v
                continue
            for p, v in zip(entry[0].params, entry[1]):
                if p.struct_name is not None and not p.is_array:
                    for _path, x in _struct_arrays(p, v):
                        if x.grad is not None:
                            seen[id(x)] = x
                if isinstance(v, _array.Array) and v.grad is not None:
                    seen[id(v)] = v
        return seen.values()

    def backward(self, loss=None, grads=None):
        if loss is not None:
            if not isinstance(loss, _array.Array):
                raise InvalidArgumentError("Tape.backward(loss=): a kern array, "
                                           "got %r" % (loss,))
            n = 1
            for x in loss.shape:
                n *= x
            if n != 1 or loss.dtype.length != 1:
                raise InvalidArgumentError(
                    "Tape.backward(loss=): the loss is one scalar element, "
                    "got shape %r of %s" % (loss.shape, loss.dtype.name))
            if loss.grad is None:
                raise InvalidArgumentError(
                    "Tape.backward(loss=): the loss array needs requires_grad=True")
            loss.grad.fill_(1.0)
        if grads:
            for a, g in grads.items():
                if a.grad is None:
                    a.grad = g
                else:
                    a.grad.assign(g)
        saved, _local.tape = active(), None   # adjoint launches are not recorded
        try:
            for entry in reversed(self.launches):
                if callable(entry):
                    entry()
                    continue
                k, args, dim, stream = entry
                try:
                    adj = k.adjoint
                except CompileError as e:
                    if "enable_backward=False" not in str(e):
                        raise
                    # Warp 1.19 warns and skips such a kernel (its
                    # gradients stay as they are)
                    where = ("is defined in a module with the option "
                             "'enable_backward=False' set"
                             if "wp.set_module_options" in str(e) else
                             "is configured with the option "
                             "'enable_backward=False'")
                    warnings.warn("Running the tape backwards may produce "
                                  "incorrect gradients because recorded kernel "
                                  "%s %s." % (k.name, where), stacklevel=2)
                    continue
                extra = []
                for p, v in zip(k.params, args):
                    if p.is_array:
                        extra.append(v.grad if isinstance(v, _array.Array) else None)
                    elif p.struct_name is not None:
                        extra.append(_adjoint_struct(p, v))
                    else:
                        extra.append(_zero_value(p))
                adj(*(list(args) + extra), dim=dim, stream=stream)
        finally:
            _local.tape = saved

    def zero(self):
        for a in self._arrays():
            a.grad.zero_()

    def reset(self):
        self.zero()
        self.launches = []


def jvp(kernel, dim, inputs, tangents, stream=None):
    """Forward mode (issue #26; Warp has none): the Jacobian-vector product
    of one launch of ``kernel``, through its tangent kernel
    (``Kernel.tangent``).

    ``inputs`` are the launch's arguments (a sequence in parameter order,
    or a dict by name); ``tangents`` maps parameter names to the direction
    v: for an array, an array of its shape and type; for a float value, a
    number.  The launch is performed (its outputs are written, as by
    ``kernel(*inputs, dim=dim)``), and the result is a dict from each float
    array parameter's name (an array of structs' too) to its tangent array:
    the one given, or a fresh zero array, which receives J v where the
    kernel writes it (a store sets it, wp.atomic_add adds into it).  So ``jvp(k, n, [x, y],
    {"x": v})["y"]`` is dy/dx v.  A float array given no tangent has tangent
    zero; what the tangent kernel refuses raises kern.CompileError naming
    the position."""
    if isinstance(inputs, dict):
        inputs = kernel._bind((), inputs)
    inputs = list(inputs)
    names = [p.name for p in kernel.params]
    unknown = [n for n in tangents if n not in names]
    if unknown:
        raise InvalidArgumentError(
            "jvp: %s has no parameter %s (its parameters: %s)" % (
                kernel.name, ", ".join(repr(n) for n in unknown),
                ", ".join(names)))
    t = kernel.tangent
    extra, out = [], {}
    for p, v in zip(kernel.params, inputs):
        g = tangents.get(p.name)
        if p.is_array:
            if g is None and isinstance(v, _array.Array) and (
                    p.dtype.is_float or p.struct_name is not None):
                g = _array.zeros(v.shape, v.dtype, device=v.device)
            if g is not None:
                out[p.name] = g
            extra.append(g)
        else:
            extra.append(_zero_value(p) if g is None else g)
    saved, _local.tape = active(), None   # the tangent launch is not recorded
    try:
        t(*(inputs + extra), dim=dim, stream=stream)
    finally:
        _local.tape = saved
    return out
