# uint32: wrap-around, logical shifts, bitwise ops, division.
# kern-test: scalar_uint32 --dim 16 x='rand(uint32,16,seed=8)' out='zeros(uint32,16,7)'
# kern-check: out
import warp as wp


@wp.kernel
def scalar_uint32(x: wp.array(dtype=wp.uint32), out: wp.array2d(dtype=wp.uint32)):
    i = wp.tid()
    a = x[i]
    hi = wp.uint32(0xF0000000)
    out[i, 0] = a - wp.uint32(50)
    out[i, 1] = (a | hi) >> wp.uint32(4)
    out[i, 2] = a << wp.uint32(27)
    out[i, 3] = ~a
    out[i, 4] = (a ^ hi) & wp.uint32(0xFFFF00FF)
    out[i, 5] = (a + hi) // wp.uint32(7)
    out[i, 6] = (a + hi) % wp.uint32(7)
