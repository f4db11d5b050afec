# expect: 8:12: error: a float32 cannot be sliced
import warp as wp


@wp.kernel
def k(x: wp.array(dtype=float)):
    f = x[0]
    x[1] = f[0:1]
