"""The cost of a gradient (issue #26): adjoint launch time / forward launch
time for four kernels, under kern.warp and under real Warp, in one run.

    PYTHONPATH=python python3 bench/autodiff_cost.py [DEVICE] [--small]
        [--json FILE] [--only kern|warp]

DEVICE is cuda:0 (default) or cpu.  The kernels are in KERNELS below, one
Warp-dialect source that both `import warp as wp` and `import kern.warp as
wp` load unchanged:

  sumsq   loss += x[i]*x[i] by atomic_add            (N = 2^24)
  saxpy   z[i] = a*x[i] + y[i]                        (N = 2^24)
  nbody   a softened gravity step, O(N^2)             (N = 8192)
  spring  a cloth-spring force step: atomic forces   (a 1024x1024 grid)

Each launch is recorded once (wp.launch(..., record_cmd=True)) and replayed,
so argument packing is outside the timing for both; 7 repetitions of
`reps` launches each end with a synchronize, alternating kern and Warp, and
the median per launch is kept.  The adjoint launch is Warp's
wp.launch(..., adjoint=True, adj_inputs=..., adj_outputs=...) with every
float array's gradient given.  --small shrinks the sizes for a CPU check.
"""
import importlib.util
import json
import os
import statistics
import sys
import tempfile
import time

import numpy as np

KERNELS = '''
import IMPORT as wp

@wp.kernel
def sumsq(x: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, x[i] * x[i])

@wp.kernel
def saxpy(a: float, x: wp.array(dtype=float), y: wp.array(dtype=float),
          z: wp.array(dtype=float)):
    i = wp.tid()
    z[i] = a * x[i] + y[i]

@wp.kernel
def nbody(pos: wp.array(dtype=wp.vec3), vel: wp.array(dtype=wp.vec3),
          n: int, dt: float, out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    p = pos[i]
    f = wp.vec3(0.0, 0.0, 0.0)
    for j in range(n):
        d = pos[j] - p
        r2 = wp.dot(d, d) + 0.01
        inv = 1.0 / (r2 * wp.sqrt(r2))
        f = f + d * inv
    out[i] = vel[i] + f * dt

@wp.kernel
def spring(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3),
           idx: wp.array(dtype=int), rest: wp.array(dtype=float),
           ke: float, kd: float, f: wp.array(dtype=wp.vec3)):
    t = wp.tid()
    i = idx[t * 2 + 0]
    j = idx[t * 2 + 1]
    d = x[i] - x[j]
    l = wp.length(d)
    dirn = d / l
    vrel = v[i] - v[j]
    fs = dirn * (ke * (l - rest[t]) + kd * wp.dot(vrel, dirn))
    wp.atomic_sub(f, i, fs)
    wp.atomic_add(f, j, fs)
'''


def load(impl):
    src = KERNELS.replace("IMPORT", "warp" if impl == "warp" else "kern.warp")
    d = tempfile.mkdtemp()
    name = "adcost_" + impl
    path = os.path.join(d, name + ".py")
    with open(path, "w") as f:
        f.write(src)
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec)
    sys.modules[name] = m
    spec.loader.exec_module(m)
    return m


def grid_springs(g):
    """Structural springs of a g x g grid: (idx pairs, count)."""
    ids = np.arange(g * g, dtype=np.int32).reshape(g, g)
    h = np.stack([ids[:, :-1].ravel(), ids[:, 1:].ravel()], 1)
    v = np.stack([ids[:-1, :].ravel(), ids[1:, :].ravel()], 1)
    pairs = np.concatenate([h, v]).astype(np.int32)
    return pairs.ravel(), len(pairs)


def cases(wp, m, dev, small):
    """(name, dim, forward launch, adjoint launch, items) for each kernel."""
    rng = np.random.default_rng(7)
    n = 1 << (14 if small else 24)
    nb = 512 if small else 8192
    g = 64 if small else 1024

    def arr(a, dtype=float):
        return wp.array(a, dtype=dtype, device=dev, requires_grad=True)

    def grad(a):
        return a.grad

    out = []
    x = arr(rng.random(n, dtype=np.float32))
    loss = arr(np.zeros(1, np.float32))
    loss.grad.fill_(1.0)
    out.append(("sumsq", n, m.sumsq, [x, loss], [grad(x), grad(loss)]))

    xs = arr(rng.random(n, dtype=np.float32))
    ys = arr(rng.random(n, dtype=np.float32))
    zs = arr(np.zeros(n, np.float32))
    zs.grad.fill_(1.0)
    out.append(("saxpy", n, m.saxpy, [2.0, xs, ys, zs],
                [0.0, grad(xs), grad(ys), grad(zs)]))

    pos = arr(rng.random((nb, 3), dtype=np.float32), wp.vec3)
    vel = arr(np.zeros((nb, 3), np.float32), wp.vec3)
    o = arr(np.zeros((nb, 3), np.float32), wp.vec3)
    # a random seed: with ones the gradient is the derivative of the sum of
    # all forces, zero by Newton's third law, and both sides compare noise
    o.grad = wp.array(rng.random((nb, 3), dtype=np.float32), dtype=wp.vec3, device=dev)
    out.append(("nbody", nb, m.nbody, [pos, vel, nb, 0.01, o],
                [grad(pos), grad(vel), 0, 0.0, grad(o)]))

    pairs, ns = grid_springs(g)
    px = np.stack(np.meshgrid(np.arange(g), np.arange(g)), -1).reshape(-1, 2)
    xp = np.concatenate([px * 0.01, np.zeros((g * g, 1))], 1).astype(np.float32)
    xp += rng.random(xp.shape, dtype=np.float32) * 1e-3
    cx = arr(xp, wp.vec3)
    cv = arr(rng.random((g * g, 3), dtype=np.float32) * 0.1, wp.vec3)
    idx = wp.array(pairs, dtype=int, device=dev)
    rest = arr(np.full(ns, 0.009, np.float32))
    cf = arr(np.zeros((g * g, 3), np.float32), wp.vec3)
    cf.grad.fill_(1.0)
    out.append(("spring", ns, m.spring, [cx, cv, idx, rest, 100.0, 1.0, cf],
                [grad(cx), grad(cv), None, grad(rest), 0.0, 0.0, grad(cf)]))
    return out


def timer(wp, dev, fn, reps):
    def run():
        for _ in range(reps):
            fn()
        wp.synchronize_device(dev)
    return run


def main():
    args = sys.argv[1:]
    small = "--small" in args
    jpath = None
    only = None
    pos = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--json":
            jpath = args[i + 1]; i += 2; continue
        if a == "--only":
            only = args[i + 1]; i += 2; continue
        if a != "--small":
            pos.append(a)
        i += 1
    dev = pos[0] if pos else "cuda:0"
    impls = []
    for impl in ("kern", "warp"):
        if only and impl != only:
            continue
        try:
            wp = __import__("warp") if impl == "warp" else __import__("kern.warp", fromlist=["warp"])
            if impl == "warp":
                wp.config.quiet = True
                wp.init()
            impls.append((impl, wp, load(impl)))
        except Exception as e:  # Warp is optional: say so and go on
            print("%s: not available (%s)" % (impl, e))
    # Build everything and check gradients agree before timing.
    runs = {}
    for impl, wp, m in impls:
        for name, dim, k, ins, adj in cases(wp, m, dev, small):
            fwd = wp.launch(k, dim=dim, inputs=ins, device=dev, record_cmd=True)
            bwd = wp.launch(k, dim=dim, inputs=ins, adj_inputs=adj,
                            device=dev, adjoint=True, record_cmd=True)
            fwd.launch(); bwd.launch(); wp.synchronize_device(dev)
            g0 = next(a for a in adj if a is not None and hasattr(a, "numpy"))
            runs[(impl, name)] = (wp, fwd, bwd, g0.numpy().copy())
    names = [n for n in ("sumsq", "saxpy", "nbody", "spring")]
    if len(impls) == 2:
        for n in names:
            a = runs[("kern", n)][3]; b = runs[("warp", n)][3]
            # float32 sums in another order: relative to the largest entry
            scale = max(float(np.max(np.abs(b))), 1e-30)
            rel = float(np.max(np.abs(a - b))) / scale
            ok = rel < 1e-4
            print("gradient %-7s kern vs Warp: %s (max abs diff %.3g, %.2g of the largest)"
                  % (n, "agree" if ok else "DIFFER", float(np.max(np.abs(a - b))), rel))
    reps = {"sumsq": 50, "saxpy": 50, "nbody": 5, "spring": 50}
    if small or dev.startswith("cpu"):
        reps = {k: max(1, v // 5) for k, v in reps.items()}
    times = {}
    for n in names:
        for rep in range(7):
            for impl, wp, m in impls:
                w, fwd, bwd, _ = runs[(impl, n)]
                for mode, cmd in (("forward", fwd), ("adjoint", bwd)):
                    t0 = time.perf_counter()
                    timer(w, dev, cmd.launch, reps[n])()
                    dt = (time.perf_counter() - t0) / reps[n]
                    times.setdefault((impl, n, mode), []).append(dt)
    print("\n%-7s %-5s %12s %12s %9s" % ("kernel", "impl", "forward us", "adjoint us", "adj/fwd"))
    rows = []
    for n in names:
        for impl, _, _ in impls:
            f = statistics.median(times[(impl, n, "forward")]) * 1e6
            b = statistics.median(times[(impl, n, "adjoint")]) * 1e6
            print("%-7s %-5s %12.1f %12.1f %9.2f" % (n, impl, f, b, b / f))
            rows.append({"kernel": n, "impl": impl, "forward_us": f,
                         "adjoint_us": b, "ratio": b / f})
    if jpath:
        with open(jpath, "w") as f:
            json.dump({"device": dev, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
