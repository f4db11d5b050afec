"""kern from Python on a GPU: call overhead, cold load, sum of squares.

Run by bench/python_gpu.sh on a bare H100/H200 machine (PyTorch, CuPy and
NumPy present); prints a table and writes every figure as JSON.  All the
figures come from this one process on one card, so they compare:

- back-to-back calls of an empty kernel from Python (issue #14's target:
  <= 5 us each), plain and bound once (``k.bind(...).launch()``, Warp's
  recorded launch), next to the C API issuing the same launch in a C loop
  (bench/python_timer.c), PyTorch's ``x.add_(1)`` and a CuPy
  ElementwiseKernel on one element, and kern's own one-element increment
  called with a kern array and with a PyTorch tensor;
- the first ``kern.load`` of a new file with an empty kernel cache (target
  < 50 ms), and further new files once NVRTC is loaded, and a warm load;
- the sum of squares of N float64 (default 1e8) called from Python on a
  PyTorch tensor, against the C API timing the same kernel on the same
  tensor (target: within 5%), with torch.dot for reference.

Each back-to-back figure is the median over 7 batches of the mean per call
of a batch (2,000 calls, then one wait); each synchronous figure the median
over 50 calls of (launch + wait).
"""
import argparse
import ctypes as C
import json
import os
import statistics
import sys
import tempfile
import time

p = argparse.ArgumentParser()
p.add_argument("--json", required=True)
p.add_argument("--timer", required=True, help="libpython_timer.so")
p.add_argument("--n", type=int, default=100_000_000)
p.add_argument("--calls", type=int, default=2000)
p.add_argument("--batches", type=int, default=7)
p.add_argument("--device", default="cuda:0", help="cpu or opencl:0 for a dry run")
a = p.parse_args()

res = {"date": time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime()), "n": a.n}

# ---- cold load first: the cache directory is a context option.
import kern  # noqa: E402

cache = tempfile.mkdtemp(prefix="kern-pycold-")
t0 = time.perf_counter()
kern.init(cache_dir=cache)
dev = kern.get_device(a.device)
kern.zeros(1, device=dev).numpy()  # the device's context and stream exist now
res["context_and_device_ms"] = 1e3 * (time.perf_counter() - t0)
res["card"] = dev.model
res["python"] = sys.version.split()[0]
res["kern_library"] = kern.library_path()

srcdir = tempfile.mkdtemp(prefix="kern-pysrc-")


# NVRTC (12.9 and later) keeps its own cache of compiled programs, which
# outlives the process: a text compiled before on the machine builds in
# ~15 ms instead of ~100-200 (bench/NOTES.md, "cold builds").  A salt drawn
# per run makes every "new file" new to NVRTC too, so cold means cold.
SALT = int.from_bytes(os.urandom(3), "little")


def new_file(i):
    path = os.path.join(srcdir, "cold%d.py" % i)
    with open(path, "w") as f:
        f.write("import warp as wp\n\n\n@wp.kernel\n"
                "def scale%d(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32)):\n"
                "    i = wp.tid()\n    y[i] = x[i] * %d.5 + %d.0\n" % (i, i, SALT))
    return path


t0 = time.perf_counter()
m0 = kern.load(new_file(0), device=dev)
res["cold_load_first_ms"] = 1e3 * (time.perf_counter() - t0)
colds = []
for i in range(1, 6):
    path = new_file(i)
    t0 = time.perf_counter()
    kern.load(path, device=dev)
    colds.append(1e3 * (time.perf_counter() - t0))
res["cold_load_next_ms_median"] = statistics.median(colds)
res["cold_load_next_ms"] = colds
# The same for the C API in this process, on other new files, alternating
# with Python, so both see the same NVRTC and the same machine.
timer = C.CDLL(a.timer)
timer.kpt_load_seconds.restype = C.c_double
timer.kpt_load_seconds.argtypes = [C.c_void_p, C.c_int, C.c_char_p]
pyc, cc = [], []
for i in range(10, 20, 2):
    path = new_file(i)
    t0 = time.perf_counter()
    kern.load(path, device=dev)
    pyc.append(1e3 * (time.perf_counter() - t0))
    s = timer.kpt_load_seconds(kern._runtime.ctx(), dev.index, new_file(i + 1).encode())
    if s < 0:
        raise SystemExit("C load failed: status %d" % -s)
    cc.append(1e3 * s)
res["cold_load_py_alt_ms"] = statistics.median(pyc)
res["cold_load_c_alt_ms"] = statistics.median(cc)
warms = []
for i in range(5):
    t0 = time.perf_counter()
    kern.load(new_file(1), device=dev)
    warms.append(1e3 * (time.perf_counter() - t0))
res["warm_load_ms_median"] = statistics.median(warms)

import numpy as np  # noqa: E402

SRC = """import warp as wp

@wp.kernel
def empty():
    i = wp.tid()

@wp.kernel
def inc(x: wp.array(dtype=wp.float32)):
    i = wp.tid()
    x[i] = x[i] + 1.0

@wp.kernel
def sum_of_squares(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    wp.atomic_add(out, 0, x[i] * x[i])
"""

import traceback  # noqa: E402

try:
    # ---- call overhead
    m = kern.load(SRC, device=dev, name="python_gpu.py")
    m.wait_final()  # time NVRTC's build, not the PTX tier's (Note [PTX tier])
    timer = C.CDLL(a.timer)
    timer.kpt_sync_median.restype = C.c_double
    timer.kpt_sync_median.argtypes = [C.c_void_p, C.c_int, C.c_void_p, C.c_int, C.c_void_p, C.c_int]
    timer.kpt_async_mean.restype = C.c_double
    timer.kpt_async_mean.argtypes = [C.c_void_p, C.c_void_p, C.c_int, C.c_int, C.c_void_p,
                                     C.c_int, C.c_void_p, C.c_int]
    ctx = kern._runtime.ctx()
    default = kern.Stream.default(dev)


    def b2b(fn, sync, calls=a.calls, batches=a.batches):
        """Median over batches of the mean us per call of `calls` calls."""
        for _ in range(50):
            fn()
        sync()
        per = []
        for _ in range(batches):
            t0 = time.perf_counter()
            for _ in range(calls):
                fn()
            sync()
            per.append(1e6 * (time.perf_counter() - t0) / calls)
        return statistics.median(per)


    def c_b2b(k):
        per = []
        for _ in range(a.batches):
            s = timer.kpt_async_mean(k._h, ctx, dev.index, 1, C.addressof(k._dims), k._n,
                                     C.addressof(k._args), a.calls)
            if s < 0:
                raise RuntimeError("C timer failed: status %d" % -s)
            per.append(1e6 * s)
        return statistics.median(per)


    ksync = default.synchronize
    empty = m.empty
    res["kern_py_empty_us"] = b2b(lambda: empty(dim=1), ksync)
    bound = empty.bind(dim=1)
    res["kern_py_bound_empty_us"] = b2b(bound.launch, ksync)
    empty(dim=1)
    res["kern_c_empty_us"] = c_b2b(empty)

    xk = kern.zeros(1, device=dev)
    inc = m.inc
    res["kern_py_inc_kernarray_us"] = b2b(lambda: inc(xk, dim=1), ksync)
    res["kern_c_inc_kernarray_us"] = c_b2b(inc)

    try:
        import torch
        have_torch = True
    except ImportError:
        have_torch = False
        res["torch"] = "not installed"
    if have_torch and dev.is_cuda:
        xt = torch.zeros(1, device="cuda:0")
        tsync = torch.cuda.synchronize
        res["torch_add_us"] = b2b(lambda: xt.add_(1), tsync)
        xt2 = torch.zeros(1, device="cuda:0")
        res["kern_py_inc_torch_us"] = b2b(lambda: inc(xt2, dim=1), ksync)
        n_inc = 50 + a.batches * a.calls
        assert float(xt2.item()) == n_inc, (xt2.item(), n_inc)
        res["torch_version"] = torch.__version__
    try:
        if not dev.is_cuda:
            raise ImportError("a dry run off CUDA")
        import cupy as cp
        xc = cp.zeros(1, dtype=cp.float32)
        ek = cp.ElementwiseKernel("float32 x", "float32 y", "y = x + 1", "kern_bench_inc")
        res["cupy_elementwise_us"] = b2b(lambda: ek(xc, xc), cp.cuda.Device().synchronize)
        res["cupy_version"] = cp.__version__
    except ImportError:
        res["cupy"] = "not installed"

    # ---- sum of squares on a PyTorch tensor, Python vs the C API
    k = m.sum_of_squares
    if have_torch and dev.is_cuda:
        g = torch.Generator(device="cuda:0").manual_seed(777)
        x = torch.rand(a.n, dtype=torch.float64, device="cuda:0", generator=g)
        out = torch.zeros(1, dtype=torch.float64, device="cuda:0")
        res["sumsq_operand"] = "PyTorch tensor"
    else:  # a dry run without PyTorch or a GPU: kern arrays
        x = kern.array(np.random.default_rng(777).random(a.n), device=dev)
        out = kern.zeros(1, dtype=kern.float64, device=dev)
        res["sumsq_operand"] = "kern array"
    if True:
        k(x, out, dim=a.n)
        ksync()
        if have_torch and dev.is_cuda:
            ref, got = torch.dot(x, x).item(), out.item()
        else:
            xh = x.numpy()
            ref, got = float(np.dot(xh, xh)), float(out.numpy()[0])
        res["sumsq_relerr"] = abs(got - ref) / ref
        assert res["sumsq_relerr"] < 1e-9, (got, ref)

        def py_sync_median(reps=50):
            for _ in range(3):
                k(x, out, dim=a.n)
                ksync()
            t = []
            for _ in range(reps):
                t0 = time.perf_counter()
                k(x, out, dim=a.n)
                ksync()
                t.append(1e3 * (time.perf_counter() - t0))
            return statistics.median(t)

        def c_sync_median(reps=50):
            s = timer.kpt_sync_median(k._h, 1, C.addressof(k._dims), k._n,
                                      C.addressof(k._args), reps)
            if s < 0:
                raise RuntimeError("C timer failed: status %d" % -s)
            return 1e3 * s

        # Interleaved, so drifting clocks hit both alike.
        pys, cs = [], []
        for _ in range(3):
            pys.append(py_sync_median())
            k(x, out, dim=a.n)  # re-pack the arguments for the C timer
            cs.append(c_sync_median())
        res["sumsq_py_ms"] = statistics.median(pys)
        res["sumsq_c_ms"] = statistics.median(cs)
        res["sumsq_py_over_c"] = res["sumsq_py_ms"] / res["sumsq_c_ms"]
        res["sumsq_py_b2b_ms"] = b2b(lambda: k(x, out, dim=a.n), ksync,
                                           calls=20, batches=5) / 1e3
        per = []
        for _ in range(5):
            s = timer.kpt_async_mean(k._h, ctx, dev.index, 1, C.addressof(k._dims), k._n,
                                     C.addressof(k._args), 20)
            per.append(1e3 * s)
        res["sumsq_c_b2b_ms"] = statistics.median(per)
        if res["sumsq_operand"] == "PyTorch tensor":
            res["sumsq_torch_dot_ms"] = b2b(lambda: torch.dot(x, x), tsync, calls=20,
                                            batches=5) / 1e3
            xk64 = kern.array(x, device=dev)  # a kern-owned copy: the kern-array path
            outk = kern.zeros(1, dtype=kern.float64, device=dev)
            res["sumsq_py_kernarray_b2b_ms"] = b2b(lambda: k(xk64, outk, dim=a.n), ksync,
                                                   calls=20, batches=5) / 1e3
        res["sumsq_gbs_py"] = 8 * a.n / 1e9 / (res["sumsq_py_ms"] * 1e-3)

except Exception:
    # Keep what was measured; say what broke.
    res["error"] = traceback.format_exc()

with open(a.json, "w") as f:
    json.dump(res, f, indent=1)


def line(label, key, unit, target=None):
    v = res.get(key)
    if v is None:
        return
    t = ""
    if target is not None:
        t = "  target %s: %s" % (target[0], "MET" if target[1](v) else "MISSED")
    print("%-58s %10.3f %s%s" % (label, v, unit, t))


print("card: %s   python %s   %s" % (res["card"], res["python"], res["date"]))
print("-- back-to-back calls of a tiny op (median of %d batches x %d calls)"
      % (a.batches, a.calls))
line("kern empty kernel from Python", "kern_py_empty_us", "us", ("<= 5 us", lambda v: v <= 5))
line("kern empty kernel from Python, bound once (k.bind().launch())", "kern_py_bound_empty_us", "us")
line("kern empty kernel from C (same launch, C loop)", "kern_c_empty_us", "us")
line("kern x[i] += 1 from Python, kern array", "kern_py_inc_kernarray_us", "us")
line("kern x[i] += 1 from C (same launch, C loop)", "kern_c_inc_kernarray_us", "us")
line("kern x[i] += 1 from Python, PyTorch tensor", "kern_py_inc_torch_us", "us")
line("PyTorch x.add_(1)", "torch_add_us", "us")
line("CuPy ElementwiseKernel y = x + 1", "cupy_elementwise_us", "us")
print("-- loading")
line("kern context + device start (init, get_device, 1 array)", "context_and_device_ms", "ms")
line("first kern.load of a new file, empty cache", "cold_load_first_ms", "ms", ("< 50 ms", lambda v: v < 50))
line("kern.load of further new files (median of 5)", "cold_load_next_ms_median", "ms", ("< 50 ms", lambda v: v < 50))
line("kern.load of a new file, alternating with C (median of 5)", "cold_load_py_alt_ms", "ms")
line("kern_module_load_file of a new file from C, same process", "cold_load_c_alt_ms", "ms")
line("kern.load of a file already cached (median of 5)", "warm_load_ms_median", "ms")
print("-- sum of squares, %g float64, on a %s" % (a.n, res.get("sumsq_operand", "?")))
line("from Python (launch + wait, median)", "sumsq_py_ms", "ms")
line("C API, same kernel and memory (kern_launch, median)", "sumsq_c_ms", "ms")
line("Python / C", "sumsq_py_over_c", "x", ("within 5%", lambda v: v <= 1.05))
line("from Python, back to back", "sumsq_py_b2b_ms", "ms")
line("C API, back to back", "sumsq_c_b2b_ms", "ms")
line("from Python on a kern-owned copy, back to back", "sumsq_py_kernarray_b2b_ms", "ms")
line("GB/s from Python (launch + wait)", "sumsq_gbs_py", "GB/s")
line("torch.dot(x, x), back to back", "sumsq_torch_dot_ms", "ms")
line("relative error vs the reference (torch.dot or NumPy)", "sumsq_relerr", "")
if "error" in res:
    print("ERROR (the figures above were measured before it):")
    print(res["error"])
    sys.exit(1)
