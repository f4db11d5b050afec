# expect: 8:11: error: ** needs float operands, got int32 (Warp has no integer power)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    x = i ** 2
