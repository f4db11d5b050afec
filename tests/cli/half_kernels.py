# Kernels for half_test.sh: float16 and bfloat16 arrays and scalars
# through kern run (SPECs, .npy files, printing).
import warp as wp


@wp.kernel
def twice(x: wp.array(dtype=wp.float16), s: wp.float16, y: wp.array(dtype=wp.float16)):
    i = wp.tid()
    y[i] = x[i] * wp.float16(2.0) + s


@wp.kernel
def bf_copy(x: wp.array(dtype=wp.bfloat16), y: wp.array(dtype=wp.bfloat16)):
    i = wp.tid()
    y[i] = x[i] + x[i]
