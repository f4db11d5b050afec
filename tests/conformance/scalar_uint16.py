# uint16 arithmetic and wrap-around.
# kern-test: scalar_uint16 --dim 16 x='rand(uint16,16,seed=7)' out='zeros(uint16,16,4)'
# kern-check: out
import warp as wp


@wp.kernel
def scalar_uint16(x: wp.array(dtype=wp.uint16), out: wp.array2d(dtype=wp.uint16)):
    i = wp.tid()
    a = x[i]
    out[i, 0] = a * wp.uint16(1000)
    out[i, 1] = a - wp.uint16(60)
    out[i, 2] = wp.uint16(60000) // (a + wp.uint16(1))
    out[i, 3] = wp.uint16(60000) % (a + wp.uint16(1))
