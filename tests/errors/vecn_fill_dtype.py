# expect: 8:12: error: the value used to fill this vector is int32, but its dtype is float32
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    i = a[0]
    v = wp.vector(i, length=6, dtype=float)
