# expect: 8:7: error: arrays cannot be assigned to variables in kernels; use the parameter directly
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a = a
