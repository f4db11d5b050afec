# Plain `int` and `float` annotations mean int32 and float32.
# kern-test: int_float_annotations --dim 8 n=3 s=1.5 xi='arange(int,8)' xf='arange(float,8)' oi='zeros(int32,8)' of='zeros(float32,8)'
# kern-check: oi
# kern-check: of
import warp as wp


@wp.func
def twice(v: int) -> int:
    return v * 2


@wp.func
def half(v: float) -> float:
    return v * 0.5


@wp.kernel
def int_float_annotations(n: int, s: float, xi: wp.array(dtype=int), xf: wp.array(dtype=float),
                          oi: wp.array(dtype=wp.int32), of: wp.array(dtype=wp.float32)):
    i = wp.tid()
    oi[i] = twice(xi[i]) + n
    of[i] = half(xf[i]) * s
