# Tuple unpacking of multi-value @wp.func results (2 and 3 values, mixed types).
# kern-test: tuple_unpack_func --dim 6 x='arange(int32,6)' oi='zeros(int32,6,2)' of='zeros(float32,6,2)' ov='zeros(vec2,6)'
# kern-check: oi
# kern-check: of
# kern-check: ov
import warp as wp


@wp.func
def divmod_floor(a: int, b: int):
    return a // b, a - (a // b) * b


@wp.func
def stats(a: float, b: float):
    return wp.min(a, b), wp.max(a, b), wp.vec2(a + b, a - b)


@wp.kernel
def tuple_unpack_func(x: wp.array(dtype=wp.int32), oi: wp.array2d(dtype=wp.int32), of: wp.array2d(dtype=wp.float32),
                      ov: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    q, r = divmod_floor(x[i] * 5 - 12, 4)
    oi[i, 0] = q
    oi[i, 1] = r
    lo, hi, v = stats(float(x[i]) * 0.5, 1.25)
    of[i, 0] = lo
    of[i, 1] = hi
    ov[i] = v
