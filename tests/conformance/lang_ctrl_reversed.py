# for k in reversed(range(...)): with one, two and three arguments (including a negative
# step, run-time bounds and steps of either sign, empty ranges), the order visible
# through a position-weighted sum.
# kern-test: lang_ctrl_reversed --dim 5 n='rand(int32,5,seed=521)' out='zeros(int32,5,6)'
# kern-check: out
import warp as wp


@wp.kernel
def lang_ctrl_reversed(n: wp.array(dtype=int), out: wp.array2d(dtype=int)):
    i = wp.tid()
    m = n[i] % 8 + 1
    s = int(0)
    for k in reversed(range(m)):
        s = s * 3 + k
    out[i, 0] = s
    t = int(0)
    for k in reversed(range(2, m + 3)):
        t = t * 5 + k
    out[i, 1] = t
    u = int(0)
    for k in reversed(range(1, 12, 4)):
        u = u * 10 + k
    out[i, 2] = u + i
    w = int(0)
    for k in reversed(range(m, 0, -2)):
        w = w * 4 + k
    out[i, 3] = w
    x = int(0)
    for k in reversed(range(m, -m, -(i + 1))):
        x = x * 3 + k
    out[i, 4] = x
    y = int(0)
    for k in reversed(range(i + 3, m, i % 3 + 1)):
        y = y * 10 + k
    out[i, 5] = y
