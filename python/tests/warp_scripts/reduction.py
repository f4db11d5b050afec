# An atomic_add reduction: a sum of squares and a histogram.
import numpy as np

import kern.warp as wp

RESULT = {}

BINS = 8


@wp.kernel
def sum_squares(x: wp.array(dtype=float), total: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(total, 0, x[i] * x[i])


@wp.kernel
def histogram(x: wp.array(dtype=float), counts: wp.array(dtype=wp.int32)):
    i = wp.tid()
    b = wp.clamp(int(x[i] * float(BINS)), 0, BINS - 1)
    wp.atomic_add(counts, b, 1)


n = 4096
vals = (np.arange(n, dtype=np.float32) % 97) / 97.0
x = wp.from_numpy(vals, dtype=wp.float32)
total = wp.zeros(1, dtype=wp.float32)
counts = wp.zeros(BINS, dtype=wp.int32)
wp.launch(sum_squares, dim=n, inputs=[x], outputs=[total])
wp.launch(histogram, dim=n, inputs=[x, counts])
RESULT["total"] = total.numpy().tolist()
RESULT["counts"] = counts.numpy().tolist()
