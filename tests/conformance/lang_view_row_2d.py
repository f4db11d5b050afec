# a[i] of a 2-d array is a 1-d array: a row bound to a variable, passed to a
# @wp.func, indexed with a negative index, measured with len() and .shape, and written
# through (the store lands in the parent array).
# kern-test: lang_view_row_2d --dim 4 a='rand(float,4,6,seed=401)' b='zeros(float,4,6)' out='zeros(float,4,4)'
# kern-check: b
# kern-check: out
import warp as wp


@wp.func
def row_max(r: wp.array(dtype=float)) -> float:
    m = r[0]
    for k in range(1, len(r)):
        m = wp.max(m, r[k])
    return m


@wp.kernel
def lang_view_row_2d(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    r = a[i]
    dst = b[i]
    for k in range(r.shape[0]):
        dst[k] = r[k] * float(k)
    out[i, 0] = row_max(r)
    out[i, 1] = r[-1] - r[-2]
    out[i, 2] = float(len(r) * 10 + r.ndim)
    out[i, 3] = row_max(a[(i + 1) % 4])
