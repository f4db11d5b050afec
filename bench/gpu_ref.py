"""Peers for the GPU sum of squares: PyTorch, CuPy, JAX on the same N.

usage: python3 bench/gpu_ref.py [N] [--json PATH]
Median of 50 after warm-up; CUDA events for torch/cupy, host clock with
block_until_ready for JAX.  Each peer is checked against a float64 reference.
"""
import json
import os
import statistics
import sys
import time

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
import numpy as np

N = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 100_000_000
out_path = sys.argv[sys.argv.index("--json") + 1] if "--json" in sys.argv else None
REPS = 50
x_host = np.random.default_rng(1).random(N)
ref = float(np.dot(x_host, x_host))
gb = N * 8 / 1e9
results = {}


def check(name, val):
    rel = abs(float(val) - ref) / ref
    if not rel < 1e-10:
        raise RuntimeError(f"{name}: wrong result {val} vs {ref} (rel {rel:.3g})")


def time_events(name, fn, sync, event_cls):
    check(name, fn())
    for _ in range(5):
        fn()
    sync()
    ts = []
    for _ in range(REPS):
        a, b = event_cls(), event_cls()
        a.record()
        fn()
        b.record()
        b.synchronize()
        ts.append(event_elapsed(a, b))
    results[name] = statistics.median(ts)


def event_elapsed(a, b):
    return a.elapsed_time(b) if hasattr(a, "elapsed_time") else None


def run(name, body):
    try:
        body()
    except Exception as e:  # a missing or failing peer is reported, not fatal
        results[name] = f"error: {type(e).__name__}: {e}"[:200]


def torch_peers():
    import torch
    x = torch.from_numpy(x_host).cuda()
    ev = lambda: torch.cuda.Event(enable_timing=True)
    time_events("torch (x*x).sum()", lambda: (x * x).sum(), torch.cuda.synchronize, ev)
    check("torch (x*x).sum()", (x * x).sum().item())
    time_events("torch.dot(x,x)", lambda: torch.dot(x, x), torch.cuda.synchronize, ev)
    check("torch.dot(x,x)", torch.dot(x, x).item())
    time_events("torch.linalg.vector_norm(x)**2", lambda: torch.linalg.vector_norm(x) ** 2, torch.cuda.synchronize, ev)
    del x
    torch.cuda.empty_cache()


def cupy_peers():
    import cupy as cp
    x = cp.asarray(x_host)

    class Ev:
        def __init__(self):
            self.e = cp.cuda.Event()

        def record(self):
            self.e.record()

        def synchronize(self):
            self.e.synchronize()

        def elapsed_time(self, other):
            return cp.cuda.get_elapsed_time(self.e, other.e)

    sync = cp.cuda.Device().synchronize
    time_events("cupy cp.sum(x*x)", lambda: cp.sum(x * x), sync, Ev)
    check("cupy cp.sum(x*x)", float(cp.sum(x * x)))
    rk = cp.ReductionKernel("float64 x", "float64 y", "x * x", "a + b", "y = a", "0", "sumsq")
    time_events("cupy ReductionKernel", lambda: rk(x), sync, Ev)
    check("cupy ReductionKernel", float(rk(x)))
    del x
    cp.get_default_memory_pool().free_all_blocks()


def jax_peers():
    import jax
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    x = jax.device_put(jnp.asarray(x_host))
    f = jax.jit(lambda v: jnp.sum(v * v))
    check("jax.jit(sum(v*v)) host clock", float(f(x)))
    for _ in range(5):
        f(x).block_until_ready()
    ts = []
    for _ in range(REPS):
        t0 = time.perf_counter()
        f(x).block_until_ready()
        ts.append(1e3 * (time.perf_counter() - t0))
    results["jax.jit(sum(v*v)) host clock"] = statistics.median(ts)


run("torch", torch_peers)
run("cupy", cupy_peers)
run("jax", jax_peers)

print(f"gpu_ref.py: n={N} float64, median of {REPS}")
for k, v in results.items():
    if isinstance(v, float):
        print(f"{k:40s} {v:9.4f} ms {gb / v * 1e3:7.0f} GB/s")
    else:
        print(f"{k:40s} {v}")
if out_path:
    with open(out_path, "w") as f:
        json.dump({"n": N, "ms": results}, f, indent=1)
