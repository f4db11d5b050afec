# expect: 7:24: error: wp.zeros(): a fixed-size array has 1 to 4 dimensions, got 5
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    f = wp.zeros(shape=(1, 1, 1, 1, 2), dtype=int)
