# uint8: wrap-around on +, -, *, unary minus, ~, shifts.
# kern-test: scalar_uint8 --dim 16 x='rand(uint8,16,seed=6)' out='zeros(uint8,16,6)'
# kern-check: out
import warp as wp


@wp.kernel
def scalar_uint8(x: wp.array(dtype=wp.uint8), out: wp.array2d(dtype=wp.uint8)):
    i = wp.tid()
    a = x[i]
    out[i, 0] = a + wp.uint8(200)
    out[i, 1] = a - wp.uint8(50)
    out[i, 2] = a * wp.uint8(7)
    out[i, 3] = ~a
    out[i, 4] = (a << wp.uint8(3)) | (a >> wp.uint8(5))
    out[i, 5] = -a
