# @wp.func returning several values of different types, early returns in a function,
# and a function returning a vector.
# kern-test: func_multi_return --dim 10 x='arange(int32,10)' oi='zeros(int32,10,3)' of='zeros(float32,10)' ov='zeros(vec3,10)'
# kern-check: oi
# kern-check: of
# kern-check: ov
import warp as wp


@wp.func
def classify(k: int):
    if k < 3:
        return -1, 0.5
    if k < 6:
        return 0, 1.5
    return 1, float(k) * 2.0


@wp.func
def minmax3(a: int, b: int, c: int):
    return wp.min(a, wp.min(b, c)), wp.max(a, wp.max(b, c))


@wp.func
def axis(k: int) -> wp.vec3:
    if k % 3 == 0:
        return wp.vec3(1.0, 0.0, 0.0)
    elif k % 3 == 1:
        return wp.vec3(0.0, 1.0, 0.0)
    return wp.vec3(0.0, 0.0, 1.0)


@wp.kernel
def func_multi_return(x: wp.array(dtype=wp.int32), oi: wp.array2d(dtype=wp.int32), of: wp.array(dtype=wp.float32),
                      ov: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    c, w = classify(x[i])
    oi[i, 0] = c
    of[i] = w
    lo, hi = minmax3(x[i] * 3 % 7, 4, 10 - x[i])
    oi[i, 1] = lo
    oi[i, 2] = hi
    ov[i] = axis(x[i]) * float(i)
