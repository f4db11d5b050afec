# expect: 7:12: error: wp.vector() of length over 4096 is not supported (kern's limit on the components of a vector or matrix)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    v = wp.vector(length=5000, dtype=float)
