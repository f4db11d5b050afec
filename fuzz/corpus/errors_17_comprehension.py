# expect: 8:12: error: comprehensions are not supported
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    x = [j for j in range(3)]
