# expect: 9:7: error: operands of + have different types: int32 and float32 (Warp does not convert implicitly; use a constructor such as wp.int32(x))
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    x = 1
    x += 1.0
