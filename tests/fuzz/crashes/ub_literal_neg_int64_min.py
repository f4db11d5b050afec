# UB: negating the literal 2^63 in wp.int64(-9223372036854775808)
import warp as wp
@wp.kernel
def k(a: wp.array(dtype=wp.int64)):
    a[0] = wp.int64(-9223372036854775808)
