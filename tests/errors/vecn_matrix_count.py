# expect: 7:12: error: wp.matrix() of shape (1, 2) takes 2 components, got 3
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    m = wp.matrix(1.0, 2.0, 3.0, shape=(1, 2))
