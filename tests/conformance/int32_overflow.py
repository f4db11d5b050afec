# int32 arithmetic wraps around (two's complement), and shifts.  abs() of an
# overflowed value is left out: C++ leaves it undefined and Warp's result depends
# on clang's optimiser.
# kern-test: int32_overflow --dim 4 x='arange(int32,4)' out='zeros(int32,4,5)'
# kern-check: out
import warp as wp


@wp.kernel
def int32_overflow(x: wp.array(dtype=wp.int32), out: wp.array2d(dtype=wp.int32)):
    i = wp.tid()
    big = 2147483647
    out[i, 0] = big + x[i]
    out[i, 1] = big * (x[i] + 1)
    out[i, 2] = -big - x[i] - 1
    out[i, 3] = (x[i] + 1) << 30
    out[i, 4] = wp.abs(-big + x[i])
