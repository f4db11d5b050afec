# Nested loops three deep with bounds taken from outer loop variables and array
# shapes, a dynamic (run-time) bound, a constant bound (unrolled by Warp) inside a
# dynamic one, and accumulators declared at different depths.
# kern-test: lang_ctrl_nested_loops --dim 4 a='rand(int32,4,5,seed=501)' n='arange(int32,4)' out='zeros(int32,4,3)'
# kern-check: out
import warp as wp


@wp.kernel
def lang_ctrl_nested_loops(a: wp.array2d(dtype=int), n: wp.array(dtype=int), out: wp.array2d(dtype=int)):
    i = wp.tid()
    total = int(0)
    tri = int(0)
    for j in range(a.shape[1]):
        for k in range(j):
            inner = int(0)
            for l in range(k, j):
                inner += a[i, l]
            total += inner % 13
    for j in range(n[i] + 2):
        for k in range(3):
            tri += (j + 1) * (k + 1) * a[i, k]
    out[i, 0] = total
    out[i, 1] = tri
    c = int(0)
    for j in range(4):
        for k in range(n[i]):
            c = c * 3 + j - k
    out[i, 2] = c
