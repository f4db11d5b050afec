# expect: 9:11: error: operands of + have different types: int32 and int64 (Warp does not convert implicitly; use a constructor such as wp.int32(x))
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    x = wp.int64(1)
    y = i + x
