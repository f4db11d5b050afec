# range() with negative and other steps: range(n, 0, -1), range(10, -5, -3),
# range(a, b, -2) with run-time bounds (including an empty one), range(0, n, 3), and a
# loop variable used after arithmetic on it.
# kern-test: lang_ctrl_range_negative --dim 6 n='rand(int32,6,seed=511)' out='zeros(int32,6,5)'
# kern-check: out
import warp as wp


@wp.kernel
def lang_ctrl_range_negative(n: wp.array(dtype=int), out: wp.array2d(dtype=int)):
    i = wp.tid()
    m = n[i] % 10
    s = int(0)
    for k in range(m, 0, -1):
        s = s * 2 + k
    out[i, 0] = s
    t = int(0)
    for k in range(10, -5, -3):
        t = t * 3 + k
    out[i, 1] = t
    u = int(0)
    for k in range(m, i - 4, -2):
        u += k * k
    out[i, 2] = u
    v = int(0)
    for k in range(0, m, 3):
        v = v * 10 + k
    out[i, 3] = v
    w = int(0)
    for k in range(i - 3, -i - 7, -i - 1):
        w = w * 7 + k
    out[i, 4] = w
