# wp.inverse of a mat33 and a mat22 holding an infinity gives NaN entries in Warp
# (kern once gave finite values); the kernel stores which entries are NaN, so no NaN
# reaches an expected array.
# kern-test: lang_wd_inverse_infinite --dim 4 x='rand(float,4,seed=821)' out='zeros(int32,4,9)' o2='zeros(int32,4,4)'
# kern-check: out
# kern-check: o2
import warp as wp


@wp.kernel
def lang_wd_inverse_infinite(x: wp.array(dtype=float), out: wp.array2d(dtype=int), o2: wp.array2d(dtype=int)):
    i = wp.tid()
    a = x[i] + 1.0
    m = wp.mat33(a, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 3.0)
    m[i % 3, (i + 1) % 3] = wp.inf
    n = wp.inverse(m)
    for r in range(3):
        for c in range(3):
            out[i, r * 3 + c] = int(wp.isnan(n[r, c]))
    p = wp.inverse(wp.mat22(wp.inf, a, 1.0, 2.0))
    for r in range(2):
        for c in range(2):
            o2[i, r * 2 + c] = int(wp.isnan(p[r, c])) + 2 * int(wp.isinf(p[r, c]))
