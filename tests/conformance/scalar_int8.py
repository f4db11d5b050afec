# int8 arithmetic incl. wrap-around (values stay int8; literals must be wrapped in wp.int8).
# kern-test: scalar_int8 --dim 16 x='rand(int8,16,seed=4)' out='zeros(int8,16,4)'
# kern-check: out
import warp as wp


@wp.kernel
def scalar_int8(x: wp.array(dtype=wp.int8), out: wp.array2d(dtype=wp.int8)):
    i = wp.tid()
    a = x[i]
    three = wp.int8(3)
    out[i, 0] = a * three          # wraps for a > 42
    out[i, 1] = a - wp.int8(50)
    out[i, 2] = a // three
    out[i, 3] = -a
