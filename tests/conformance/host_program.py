# A complete Warp program: kernels plus host code (class, multi-line strings, brackets over
# several lines, decorators, a __main__ block). Only the kernels/functions are compiled;
# the host code must be skipped (and is not run by gen_expected.py either).
# kern-test: saxpy --dim 12 a=2.0 x='arange(float32,12)' y='ones(float32,12)' out='zeros(float32,12)'
# kern-check: out
import functools

import numpy as np
import warp as wp

DOC = """
@wp.kernel
def not_a_kernel(x: wp.array(dtype=float)):
    this is inside a string ( [ {
"""

SCALE = wp.constant(1.0)


@wp.func
def fma_like(a: float, x: float, y: float) -> float:
    return a * x + y * SCALE


@wp.kernel
def saxpy(a: float, x: wp.array(dtype=float), y: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = fma_like(a, x[i], y[i])


class Runner:
    '''Host-side helper; kern must skip this class entirely.
    def fake(self): return ((( '''

    def __init__(self, n):
        self.n = n
        self.table = {
            "a": [1, 2, 3],
            "b": (4,
                  5),
        }

    @functools.lru_cache(maxsize=None)
    def run(self, a):
        x = wp.array(np.arange(self.n, dtype=np.float32))
        y = wp.ones(self.n, dtype=float)
        out = wp.zeros(self.n, dtype=float)
        wp.launch(saxpy, dim=self.n,
                  inputs=[a, x, y, out])
        return out.numpy()


def main():
    r = Runner(12)
    print(r.run(2.0))


if __name__ == "__main__":
    wp.init()
    main()
