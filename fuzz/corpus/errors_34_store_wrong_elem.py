# expect: 8:5: error: cannot store int32 into an array of float32 (Warp needs the element type exactly)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = 1
