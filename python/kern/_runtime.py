"""The process's kern context, devices, streams, events and graphs.

One kern_context serves the process (Note in _ffi.py); it is made on first
use with the options :func:`init` was given, or the defaults kern.h
documents ($KERN_CACHE_DIR, $KERN_NUM_THREADS, $KERN_DEBUG).  Every call
goes through :func:`call`, which holds the lock, checks the status and turns
a failure into the exception of :mod:`kern._errors` with kern's message.

Objects that own a handle (Stream, Event, Graph, and Module and Array in
their files) free it in ``close()`` or when collected.  A closed object
refuses further use with InvalidHandleError; a handle freed on the C side by
other means is refused by libkern itself (generation-checked handles,
docs/ABI.md), so no misuse reaches freed memory.  At interpreter exit the
package waits for queued work on every device it used and then makes no
more calls: finalizers that run during shutdown do nothing, and the
operating system reclaims the rest.
"""
import atexit
import ctypes as C
import threading

from . import _ffi
from ._errors import Error, InvalidHandleError, make_error


class _State:
    ctx = None            # the context handle (int), once made
    options = {}          # what init() was given
    shutting_down = False
    default_device = None
    devices = {}          # kern device index -> Device


class _Local(threading.local):
    # Class-level defaults: reading a missing attribute of a thread-local
    # costs an exception, which the launch path cannot afford.
    streams = None   # device index -> [Stream] made current by `with`
    devices = None   # [Device] made current by `with`


_state = _State()
_local = _Local()
# How many `with stream:` scopes are open in any thread: while none is, the
# launch path skips the thread-local lookup (Note [launch cost], _module.py).
_scopes = [0]


def _lib():
    if _ffi.lib is None:
        try:
            _ffi.load()
        except OSError as e:
            raise Error(str(e)) from None
    return _ffi.lib


_TIERS = {"auto": 0, "nvrtc": 1, "ptx": 2}


def init(cache_dir=None, num_threads=0, debug=False, no_cache=False,
         no_native=False, cuda_tier="auto"):
    """Sets the options of kern's context; call before anything else.

    ``cache_dir`` overrides $KERN_CACHE_DIR, ``num_threads`` the CPU
    backend's worker count, ``debug=True`` checks every array access
    (launches then fail with OutOfBoundsError instead of touching memory),
    ``no_cache`` always compiles, ``no_native=True`` refuses
    @wp.func_native snippets (native code; set it for files you do not
    trust).  ``cuda_tier`` says how a CUDA load that no cache holds
    builds: ``"auto"`` (the default, or $KERN_CUDA_TIER) starts the kernels
    on kern's own PTX at once and switches them to NVRTC's build when a
    background thread has it, with the same results; ``"nvrtc"`` waits for
    NVRTC (what a benchmark of the final code wants); ``"ptx"`` keeps
    kern's PTX.  Calling it again with the same options is harmless; with
    different ones after the context exists is an error."""
    if cuda_tier not in _TIERS:
        raise ValueError("kern.init: cuda_tier must be one of %s, not %r"
                         % (", ".join(sorted(_TIERS)), cuda_tier))
    opts = {"cache_dir": cache_dir, "num_threads": int(num_threads),
            "debug": bool(debug), "no_cache": bool(no_cache),
            "no_native": bool(no_native), "cuda_tier": cuda_tier}
    with _ffi.lock:
        if _state.ctx is not None:
            if opts != (_state.options or opts):
                raise Error("kern.init: the context already exists with "
                            "options %r; call init() before any other kern "
                            "call" % (_state.options,))
            return
        _state.options = opts
        ctx()


def ctx():
    """The context handle, made on first use."""
    h = _state.ctx
    if h is not None:
        return h
    lib = _lib()
    with _ffi.lock:
        if _state.ctx is not None:
            return _state.ctx
        if _state.shutting_down:
            raise Error("kern: the interpreter is shutting down")
        o = _ffi.new_struct(_ffi.kern_options)
        opts = _state.options or {}
        if opts.get("cache_dir"):
            o.cache_dir = str(opts["cache_dir"]).encode()
        o.num_threads = opts.get("num_threads", 0)
        o.no_cache = 1 if opts.get("no_cache") else 0
        o.debug = 1 if opts.get("debug") else 0
        o.no_native = 1 if opts.get("no_native") else 0
        o.cuda_tier = _TIERS[opts.get("cuda_tier", "auto")]
        out = C.c_void_p()
        st = lib.kern_context_new(C.byref(o), C.byref(out))
        if st:
            raise make_error(st, "cannot start kern: %s" %
                             lib.kern_status_string(st).decode())
        _state.ctx = out.value
        _state.options = opts
        return _state.ctx


def fail(status, what):
    """Raises the exception for status, with kern's message; call with the
    lock held, right after the failing call."""
    lib = _ffi.lib
    h = _state.ctx
    msg = ""
    if h is not None and lib is not None:
        raw = lib.kern_last_error(h)
        msg = raw.decode("utf-8", "replace") if raw else ""
        # Forget it, so a later refusal that writes no message (a freed
        # handle, kern.h) is not reported with this one.
        lib.kern_clear_error(h)
    if not msg:
        msg = lib.kern_status_string(status).decode() if lib else "error"
        if status == _ffi.ERROR_INVALID_HANDLE:
            msg = "invalid or freed handle (the object was closed or freed)"
    if what and not msg.startswith(what):
        msg = "%s: %s" % (what, msg)
    raise make_error(status, msg)


def call(fn, *args, what=""):
    """Calls a libkern function returning kern_status; raises on failure."""
    with _ffi.lock:
        st = fn(*args)
        if st:
            fail(st, what)


@atexit.register
def _shutdown():
    # Queued work may still write into NumPy arrays the interpreter is about
    # to free; wait for it, then make no more calls.
    with _ffi.lock:
        if _state.ctx is not None and _ffi.lib is not None:
            for d in list(_state.devices):
                _ffi.lib.kern_synchronize(_state.ctx, d)
        _state.shutting_down = True


def alive():
    """False once the interpreter is shutting down (finalizers check it)."""
    return not _state.shutting_down and _ffi.lib is not None


# ---------------------------------------------------------------- devices


class Device:
    """One device of kern's context: ``kern.Device("cuda:0")``, ``"cpu"``,
    ``"opencl:0"``, ``"auto"`` or None (``$KERN_DEVICE``, else the best
    available).  An explicit choice that cannot be honoured raises, never
    falls back.  Instances are shared: the same device gives the same
    object.  ``with device:`` makes it the default for kern.load and
    kern.array in this thread."""

    __slots__ = ("index", "backend", "ordinal", "name", "_info", "__weakref__")

    def __new__(cls, name=None):
        if isinstance(name, Device):
            return name
        return get_device(name)

    @classmethod
    def _make(cls, index):
        d = _state.devices.get(index)
        if d is not None:
            return d
        lib = _lib()
        info = _ffi.new_struct(_ffi.kern_device_info)
        call(lib.kern_device_get, ctx(), index, C.byref(info),
             what="kern_device_get")
        d = object.__new__(cls)
        d.index = index
        d.backend = _ffi.BACKEND_NAMES[info.backend] if info.backend < len(_ffi.BACKEND_NAMES) else "backend%d" % info.backend
        d.ordinal = info.index
        d.name = "%s:%d" % (d.backend, d.ordinal)
        d._info = info
        _state.devices[index] = d
        return d

    def __repr__(self):
        return "kern.Device(%r)" % self.name

    def __str__(self):
        return self.name

    def __eq__(self, other):
        if isinstance(other, str):
            try:
                other = get_device(other)
            except Error:
                return False
        return isinstance(other, Device) and other.index == self.index

    def __hash__(self):
        return hash(self.index)

    is_cpu = property(lambda self: self.backend == "cpu")
    is_cuda = property(lambda self: self.backend == "cuda")
    is_opencl = property(lambda self: self.backend == "opencl")
    alias = property(lambda self: self.name)
    # kern allocates without a CUDA stream-ordered memory pool (Warp's
    # Device has these two; kern.warp's wp.is_mempool_enabled agrees).
    is_mempool_supported = property(lambda self: False)
    is_mempool_enabled = property(lambda self: False)

    @property
    def model(self):
        """The device's own name ("NVIDIA H100 80GB HBM3", the CPU model)."""
        return self._info.name.decode("utf-8", "replace")

    @property
    def description(self):
        return self._info.description.decode("utf-8", "replace")

    @property
    def memory_bytes(self):
        return int(self._info.memory_bytes)

    @property
    def compute_units(self):
        return int(self._info.compute_units)

    @property
    def capability(self):
        """(major, minor): CUDA compute capability, OpenCL version, (0, 0)."""
        return (self._info.capability_major, self._info.capability_minor)

    @property
    def fp64(self):
        return bool(self._info.fp64)

    @property
    def warp_size(self):
        return int(self._info.warp_size)

    @property
    def driver_version(self):
        return self._info.driver_version.decode("utf-8", "replace")

    def synchronize(self):
        """Waits for all work on the device; raises an error of earlier work."""
        call(_ffi.lib.kern_synchronize, ctx(), self.index,
             what="synchronize %s" % self.name)

    def __enter__(self):
        stack = _local.devices
        if stack is None:
            stack = _local.devices = []
        stack.append(self)
        return self

    def __exit__(self, *exc):
        _local.devices.pop()
        return False


def get_device(name=None):
    """The Device for a name, a Device, or None (the scoped device of
    ``with device:``, else $KERN_DEVICE, else the best available)."""
    if isinstance(name, Device):
        return name
    if name is None:
        stack = _local.devices
        if stack:
            return stack[-1]
        if _state.default_device is not None:
            return _state.default_device
    elif not isinstance(name, str):
        raise TypeError("a device is a name such as 'cpu', 'cuda:0' or "
                        "'opencl:0', or a kern.Device; got %r" % (name,))
    lib = _lib()
    h = ctx()
    out = C.c_int(-1)
    call(lib.kern_device_find, h, name.encode() if name else None,
         C.byref(out), what="device %r" % name if name else "default device")
    d = Device._make(out.value)
    if name is None:
        _state.default_device = d
    return d


def devices():
    """Every device kern can use, in the context's order."""
    lib = _lib()
    h = ctx()
    return [Device._make(i) for i in range(lib.kern_device_count(h))]


def backends():
    """[(name, available, reason, device_count)] for every backend, the way
    ``kern devices`` lists them."""
    lib = _lib()
    h = ctx()
    out = []
    for b in range(lib.kern_backend_count()):
        bi = _ffi.new_struct(_ffi.kern_backend_info)
        call(lib.kern_backend_get, h, b, C.byref(bi), what="kern_backend_get")
        out.append((bi.name.decode(), bool(bi.available),
                    (bi.reason or b"").decode("utf-8", "replace"),
                    bi.device_count))
    return out


def synchronize(device=None):
    """Waits for every device used so far (or the one given)."""
    from ._array import flush_dead
    flush_dead()
    if device is not None:
        get_device(device).synchronize()
        return
    for d in list(_state.devices.values()):
        d.synchronize()


# ---------------------------------------------------------------- streams


def _current_streams():
    cur = _local.streams
    if cur is None:
        cur = _local.streams = {}
    return cur


def current_stream(device):
    """The Stream made current for device by ``with stream:``, or None (the
    device's default stream)."""
    cur = _local.streams
    if cur:
        stack = cur.get(device.index)
        if stack:
            return stack[-1]
    return None


class Stream:
    """An ordered queue of work on one device (kern_stream).

    ``kern.Stream(device)`` makes a new one; ``kern.Stream.default(device)``
    is the device's default stream; ``kern.Stream(device, native=ptr)``
    wraps a foreign CUstream (for instance
    ``torch.cuda.current_stream().cuda_stream``) without owning it.
    ``with stream:`` makes it the current stream of its device in this
    thread: launches without ``stream=`` go there."""

    __slots__ = ("_h", "_hp", "device", "_owned", "_graph", "__weakref__")

    def __init__(self, device=None, native=None):
        self._h = None
        self._graph = None
        self._owned = True
        self.device = get_device(device)
        lib = _lib()
        out = C.c_void_p()
        if native is not None:
            call(lib.kern_stream_wrap, ctx(), self.device.index,
                 C.c_void_p(int(native)), C.byref(out),
                 what="kern.Stream(native=...) on %s" % self.device.name)
        else:
            call(lib.kern_stream_new, ctx(), self.device.index,
                 C.byref(out), what="kern.Stream on %s" % self.device.name)
        self._h = out.value
        self._hp = C.c_void_p(self._h)

    @classmethod
    def default(cls, device=None):
        """The default stream of device (owned by kern; close() is a no-op)."""
        s = object.__new__(cls)
        s._h = None
        s._graph = None
        s._owned = False
        s.device = get_device(device)
        out = C.c_void_p()
        call(_ffi.lib.kern_stream_default, ctx(), s.device.index,
             C.byref(out), what="default stream")
        s._h = out.value
        s._hp = C.c_void_p(s._h)
        return s

    def _handle(self):
        h = self._h
        if h is None:
            raise InvalidHandleError("the kern.Stream is closed")
        return h

    @property
    def handle(self):
        return self._handle()

    @property
    def native(self):
        """The CUstream or cl_command_queue as an integer (0 on the CPU)."""
        return _ffi.lib.kern_stream_native(self._handle()) or 0

    cuda_stream = native

    def synchronize(self):
        """Waits for the stream's work; raises its first error."""
        call(_ffi.lib.kern_stream_synchronize, self._handle(),
             what="stream synchronize")

    def query(self):
        """True when all work queued so far has completed."""
        done = C.c_int(0)
        call(_ffi.lib.kern_stream_query, self._handle(), C.byref(done),
             what="stream query")
        return bool(done.value)

    is_complete = property(query)

    def wait_event(self, event):
        """Later work on this stream waits for event's recorded point."""
        if not isinstance(event, Event):
            raise TypeError("wait_event needs a kern.Event, got %r" % (event,))
        call(_ffi.lib.kern_stream_wait_event, self._handle(), event._handle(),
             what="stream wait_event")

    def wait_stream(self, other):
        """Later work on this stream waits for what is queued on other now."""
        e = Event()
        try:
            e.record(other)
            self.wait_event(e)
        finally:
            e.close()

    def record_event(self, event=None):
        """Records event (a new one if None) on this stream; returns it."""
        event = Event() if event is None else event
        event.record(self)
        return event

    def close(self):
        """Waits for queued work and frees the stream; raises that work's
        first error.  Safe to call twice; a no-op for a default stream,
        which belongs to kern."""
        if not self._owned:
            return
        h, self._h = self._h, None
        if h is not None and self._owned and alive():
            call(_ffi.lib.kern_stream_free, h, what="stream close")

    def __del__(self):
        try:
            if self._h is not None and self._owned and alive():
                with _ffi.lock:
                    _ffi.lib.kern_stream_free(self._h)
                self._h = None
        except Exception:
            pass

    def __enter__(self):
        _current_streams().setdefault(self.device.index, []).append(self)
        _scopes[0] += 1
        return self

    def __exit__(self, *exc):
        _current_streams()[self.device.index].pop()
        _scopes[0] -= 1
        return False

    def __repr__(self):
        return "<kern.Stream on %s%s>" % (self.device.name,
                                          "" if self._h else " (closed)")


class Event:
    """A point in a stream (kern_event): record it, wait for it, time
    between two.  ``with kern.Event() as e:`` frees it at the end."""

    __slots__ = ("_h", "__weakref__")

    def __init__(self):
        self._h = None
        out = C.c_void_p()
        call(_lib().kern_event_new, ctx(), C.byref(out), what="kern.Event")
        self._h = out.value

    def _handle(self):
        h = self._h
        if h is None:
            raise InvalidHandleError("the kern.Event is closed")
        return h

    def record(self, stream=None):
        """Marks the point after the work queued so far on stream (a
        Stream, or None: the current stream of the default device)."""
        s = _stream_handle(stream)
        call(_ffi.lib.kern_event_record, self._handle(), s, what="event record")
        return self

    def synchronize(self):
        call(_ffi.lib.kern_event_synchronize, self._handle(),
             what="event synchronize")

    def query(self):
        done = C.c_int(0)
        call(_ffi.lib.kern_event_query, self._handle(), C.byref(done),
             what="event query")
        return bool(done.value)

    is_complete = property(query)

    def elapsed(self, end):
        """Milliseconds from this event to end (both recorded and complete;
        waits for end first)."""
        if not isinstance(end, Event):
            raise TypeError("elapsed needs a kern.Event, got %r" % (end,))
        end.synchronize()
        ms = C.c_double(0)
        call(_ffi.lib.kern_event_elapsed, self._handle(), end._handle(),
             C.byref(ms), what="event elapsed")
        return ms.value

    def close(self):
        h, self._h = self._h, None
        if h is not None and alive():
            with _ffi.lock:
                _ffi.lib.kern_event_free(h)

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def elapsed(start, end):
    """Milliseconds between two recorded events (``start.elapsed(end)``)."""
    return start.elapsed(end)


class Timer:
    """``with kern.Timer(stream) as t: ...`` then ``t.elapsed`` (ms): the
    device time of the work queued on stream inside the block, measured
    with two events."""

    def __init__(self, stream=None, device=None):
        self.stream = stream
        self.device = device
        self.elapsed = None
        self._e0 = self._e1 = None

    def __enter__(self):
        if self.stream is None:
            d = get_device(self.device)
            self.stream = current_stream(d) or Stream.default(d)
        self._e0 = Event().record(self.stream)
        return self

    def __exit__(self, *exc):
        self._e1 = Event().record(self.stream)
        if exc[0] is None:
            self.elapsed = self._e0.elapsed(self._e1)
        self._e0.close()
        self._e1.close()
        return False


def _stream_handle(stream, device=None):
    if stream is None:
        d = get_device(device)
        s = current_stream(d)
        return s._handle() if s is not None else None
    if not isinstance(stream, Stream):
        raise TypeError("stream must be a kern.Stream, got %r" % (stream,))
    return stream._handle()


# ---------------------------------------------------------------- graphs


class Graph:
    """Work recorded on a stream once and replayed (kern_graph).  Made by
    :func:`capture`; ``g.replay()`` enqueues it again on the capture stream
    (or the stream given)."""

    __slots__ = ("_h", "stream", "_refs", "__weakref__")

    def __init__(self):
        self._h = None
        self.stream = None
        # Everything the recorded work reads or writes: a replay must not
        # find an array freed under it.
        self._refs = []

    def _handle(self):
        h = self._h
        if h is None:
            raise InvalidHandleError("the kern.Graph is closed or its capture "
                                     "has not ended")
        return h

    def replay(self, stream=None):
        """Enqueues the recorded work on stream (default: the capture stream)."""
        s = stream if stream is not None else self.stream
        call(_ffi.lib.kern_graph_replay, self._handle(), _stream_handle(s),
             what="graph replay")

    launch = replay

    @property
    def launch_count(self):
        """How many launches the graph holds."""
        return _ffi.lib.kern_graph_launch_count(self._handle())

    def set_arg(self, launch_index, arg_index, value):
        """Replaces argument arg_index of the launch_index-th recorded launch
        for later replays (a kern.Array, an int or a float)."""
        from ._array import Array
        a = _ffi.new_struct(_ffi.kern_arg)
        if isinstance(value, Array):
            a.kind = _ffi.ARG_ARRAY
            a.u.array = value._handle()
        elif isinstance(value, bool) or isinstance(value, int):
            a.kind = _ffi.ARG_INT
            a.u.i = int(value)
        elif isinstance(value, float):
            a.kind = _ffi.ARG_FLOAT
            a.u.f = value
        else:
            raise TypeError("Graph.set_arg takes a kern.Array, int or float, "
                            "got %r" % (value,))
        call(_ffi.lib.kern_graph_set_arg, self._handle(), launch_index,
             arg_index, a, what="graph set_arg")
        self._refs.append(value)

    def close(self):
        h, self._h = self._h, None
        if h is not None and alive():
            with _ffi.lock:
                _ffi.lib.kern_graph_free(h)

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


class capture:
    """``with kern.capture(stream) as g: ...`` records the launches, copies
    and fills enqueued on stream inside the block (the stream is current
    there, so launches without ``stream=`` go to it); ``g.replay()`` runs
    them again.  With no stream a new one on ``device`` is made."""

    def __init__(self, stream=None, device=None):
        if stream is None:
            stream = Stream(device)
        elif not isinstance(stream, Stream):
            raise TypeError("capture needs a kern.Stream, got %r" % (stream,))
        self.stream = stream
        self.graph = Graph()
        self.graph.stream = stream

    def __enter__(self):
        call(_ffi.lib.kern_graph_begin_capture, self.stream._handle(),
             what="capture")
        self.stream._graph = self.graph
        self.stream.__enter__()
        return self.graph

    def __exit__(self, exc_type, exc, tb):
        self.stream.__exit__()
        self.stream._graph = None
        out = C.c_void_p()
        with _ffi.lock:
            st = _ffi.lib.kern_graph_end_capture(self.stream._handle(),
                                                 C.byref(out))
            if st and exc_type is None:
                fail(st, "end of capture")
        if exc_type is not None:
            if out.value:
                with _ffi.lock:
                    _ffi.lib.kern_graph_free(out.value)
            return False
        self.graph._h = out.value
        return False
