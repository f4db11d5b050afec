# expect: 7:25: error: wp.zeros(): dimension 0 of a fixed-size array must be at least 1, got 0
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    f = wp.zeros(shape=(0,), dtype=int)
