# expect: 7:12: error: wp.matrix() of components needs shape=(rows, cols)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    m = wp.matrix(1.0, 2.0, 3.0, 4.0)
