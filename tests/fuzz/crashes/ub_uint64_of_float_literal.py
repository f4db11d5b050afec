# UB: wp.uint64(1e19) converted through int64
import warp as wp
@wp.kernel
def k(a: wp.array(dtype=wp.uint64)):
    a[0] = wp.uint64(1e19)
