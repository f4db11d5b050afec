# expect: 8:12: error: wp.cast() needs types of the same size: float32 is 32 bits, int64 is 64
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    b = wp.cast(a[i], wp.int64)
