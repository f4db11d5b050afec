# SAXPY as a Warp user writes it; only the import line differs from Warp.
import numpy as np

import kern.warp as wp

RESULT = {}

N = 1024


@wp.kernel
def saxpy(a: float, x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = a * x[i] + y[i]


wp.init()
x = wp.array(np.linspace(-3.0, 5.0, N, dtype=np.float32), dtype=float)
y = wp.full(N, 0.25, dtype=float)
for _ in range(3):
    wp.launch(saxpy, dim=N, inputs=[1.5, x, y])
wp.synchronize()
RESULT["y"] = y.numpy().tolist()
