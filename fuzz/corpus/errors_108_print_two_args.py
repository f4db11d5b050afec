# expect: 8:5: error: print() takes exactly one argument in kernels
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    print(i, i)
