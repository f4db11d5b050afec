# int64 arithmetic with values beyond 32 bits, int64 parameter.
# kern-test: scalar_int64 --dim 8 x='arange(int64,8)' k=5000000000 out='zeros(int64,8,4)'
# kern-check: out
import warp as wp


@wp.kernel
def scalar_int64(x: wp.array(dtype=wp.int64), k: wp.int64, out: wp.array2d(dtype=wp.int64)):
    i = wp.tid()
    a = x[i]
    out[i, 0] = a * k
    out[i, 1] = k - a * wp.int64(3000000000)
    out[i, 2] = (k * wp.int64(3)) // (a + wp.int64(1))
    out[i, 3] = (a * k) % wp.int64(7)
