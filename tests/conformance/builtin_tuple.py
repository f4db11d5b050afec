# wp.tuple returned from a @wp.func and unpacked by the caller (Warp counts
# it as one value, so the function has no tuple annotation).  kern also takes
# a, b = wp.tuple(x, y), which Warp 1.19 rejects in kernels.
# kern-test: builtin_tuple --dim 4 a='arange(float32,4)' o='zeros(float32,4,5)'
# kern-check: o
import warp as wp


@wp.func
def split(x: float):
    return wp.tuple(wp.floor(x * 0.5), x * 0.5 - wp.floor(x * 0.5), int(x))


@wp.func
def pair(x: float):
    return wp.tuple(x + 1.0, x * 2.0)


@wp.kernel
def builtin_tuple(a: wp.array(dtype=float), o: wp.array2d(dtype=float)):
    i = wp.tid()
    f, r, n = split(a[i] + 0.5)
    p, q = pair(a[i])
    o[i, 0] = f
    o[i, 1] = r
    o[i, 2] = float(n)
    o[i, 3] = p
    o[i, 4] = q
