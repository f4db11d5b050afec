# int32 arithmetic with positive operands, int32 parameter.
# kern-test: scalar_int32 --dim 20 x='arange(int32,20)' y='rand(int32,20,seed=3)' k=7 out='zeros(int32,20,6)'
# kern-check: out
import warp as wp


@wp.kernel
def scalar_int32(x: wp.array(dtype=wp.int32), y: wp.array(dtype=wp.int32), k: wp.int32,
                 out: wp.array2d(dtype=wp.int32)):
    i = wp.tid()
    a = x[i]
    b = y[i] + 1
    out[i, 0] = a + b * k
    out[i, 1] = a - b
    out[i, 2] = a * b
    out[i, 3] = (a * 13) // b
    out[i, 4] = (a * 13) % b
    out[i, 5] = (a * 13) / b
