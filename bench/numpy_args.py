"""Launch cost with NumPy array arguments against kern arrays (issue #25):
20,000 calls of an empty kernel taking two arrays and a float on the CPU,
best of 5, then a profile of the NumPy calls.

    PYTHONPATH=python python3 bench/numpy_args.py
"""
import time, numpy as np, kern
m = kern.load('''import warp as wp
@wp.kernel
def e(a: wp.array(dtype=float), b: wp.array(dtype=float), s: float):
    pass
''', device="cpu")
k = m.e
x = np.zeros(16, np.float32); y = np.zeros(16, np.float32)
ka = kern.zeros(16); kb = kern.zeros(16)
N = 20000
for name, args in [("kern arrays", (ka, kb, 1.0)), ("numpy", (x, y, 1.0))]:
    k(*args, dim=1)
    best = 1e9
    for r in range(5):
        t = time.perf_counter()
        for _ in range(N): k(*args, dim=1)
        best = min(best, (time.perf_counter() - t) / N * 1e6)
    print(name, "%.2f us" % best)
import cProfile, pstats
cProfile.run("for _ in range(20000): k(x, y, 1.0, dim=1)", "/tmp/h8/prof")
pstats.Stats("/tmp/h8/prof").sort_stats("tottime").print_stats(8)
