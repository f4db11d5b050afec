# uint64: arithmetic beyond 63 bits, shifts, parameter.
# kern-test: scalar_uint64 --dim 8 x='arange(uint64,8)' k=12345678901234567890 out='zeros(uint64,8,5)'
# kern-check: out
import warp as wp


@wp.kernel
def scalar_uint64(x: wp.array(dtype=wp.uint64), k: wp.uint64, out: wp.array2d(dtype=wp.uint64)):
    i = wp.tid()
    a = x[i]
    out[i, 0] = k + a * wp.uint64(1000000000000000000)
    out[i, 1] = a - wp.uint64(3)
    out[i, 2] = k >> (a + wp.uint64(1))
    out[i, 3] = k // (a + wp.uint64(1))
    out[i, 4] = ~a
