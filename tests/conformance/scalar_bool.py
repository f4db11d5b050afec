# bool arrays, bool parameter, and/or/not, comparisons producing bool.
# kern-test: scalar_bool --dim 16 a='rand(bool,16,seed=9)' b='rand(bool,16,seed=10)' flag=true out='zeros(bool,16,5)'
# kern-check: out
import warp as wp


@wp.kernel
def scalar_bool(a: wp.array(dtype=wp.bool), b: wp.array(dtype=wp.bool), flag: wp.bool,
                out: wp.array2d(dtype=wp.bool)):
    i = wp.tid()
    x = a[i]
    y = b[i]
    out[i, 0] = x and y
    out[i, 1] = x or y
    out[i, 2] = not x
    out[i, 3] = (x == y) and flag
    out[i, 4] = i > 7
