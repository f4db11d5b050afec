# expect: 8:20: error: range() arguments must be integers, got float32
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    for j in range(1.0):
        pass
