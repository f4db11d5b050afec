"""Per-launch cost of kern.warp's wp.launch against the plain package and
real Warp (issue #25): 10,000 launches of an empty kernel with an array and
a float argument, on one device, repeated 7 times in alternation; the best
and the median time per launch of each are printed.

    PYTHONPATH=python python3 bench/warp_launch.py [DEVICE]   # default cpu

Real Warp is timed too when it is importable (CPU only here; on a GPU
machine pass cuda:0)."""
import sys
import time

import kern
import kern.warp as kwp

DEV = sys.argv[1] if len(sys.argv) > 1 else "cpu"
N = 10000
REPS = 7


@kwp.kernel
def empty(a: kwp.array(dtype=float), s: float):
    pass


def main():
    d = kwp.get_device(DEV)
    a = kwp.zeros(16, dtype=float, device=d)
    k = empty.kernel_for(d)
    runs = {}

    def plain_call():
        for _ in range(N):
            k(a, 1.0, dim=1)

    def plain_launch():
        for _ in range(N):
            kern.launch(k, dim=1, inputs=[a, 1.0])

    def warp_launch():
        for _ in range(N):
            kwp.launch(empty, dim=1, inputs=[a, 1.0], device=DEV)

    runs["kern: k(a, 1.0, dim=1)"] = plain_call
    runs["kern: kern.launch(k, ...)"] = plain_launch
    runs["kern.warp: wp.launch(k, ..., device=%r)" % DEV] = warp_launch
    wp = None
    try:
        import warp as wp
        wp.config.quiet = True
        wp.init()
        src = "import warp as wp\n\n@wp.kernel\ndef empty(a: wp.array(dtype=float), s: float):\n    pass\n"
        import importlib.util
        import os
        import tempfile
        path = os.path.join(tempfile.mkdtemp(), "warp_empty.py")
        with open(path, "w") as f:
            f.write(src)
        spec = importlib.util.spec_from_file_location("warp_empty", path)
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        wdev = "cpu" if DEV == "cpu" else DEV
        wa = wp.zeros(16, dtype=float, device=wdev)

        def real_warp():
            for _ in range(N):
                wp.launch(m.empty, dim=1, inputs=[wa, 1.0], device=wdev)
        runs["Warp %s: wp.launch(...)" % wp.__version__] = real_warp
    except ImportError:
        wp = None
    syncs = [kern.synchronize]
    if wp is not None:
        syncs.append(wp.synchronize)  # real Warp's queue too (GPU)

    def sync():
        for s in syncs:
            s()
    times = {n: [] for n in runs}
    for f in runs.values():
        f()  # build, warm
    sync()
    for _ in range(REPS):
        for n, f in runs.items():
            t = time.perf_counter()
            f()
            sync()
            times[n].append((time.perf_counter() - t) / N * 1e6)
    for n, ts in times.items():
        ts.sort()
        print("%-45s best %6.2f us  median %6.2f us per launch"
              % (n, ts[0], ts[len(ts) // 2]))


if __name__ == "__main__":
    main()
