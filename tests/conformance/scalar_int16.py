# int16 arithmetic incl. wrap-around.
# kern-test: scalar_int16 --dim 16 x='rand(int16,16,seed=5)' out='zeros(int16,16,3)'
# kern-check: out
import warp as wp


@wp.kernel
def scalar_int16(x: wp.array(dtype=wp.int16), out: wp.array2d(dtype=wp.int16)):
    i = wp.tid()
    a = x[i] + wp.int16(1)
    big = wp.int16(1000)
    out[i, 0] = a * big            # wraps for a > 32
    out[i, 1] = big // a
    out[i, 2] = big % a
