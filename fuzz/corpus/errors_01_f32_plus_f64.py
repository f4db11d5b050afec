# expect: 9:17: error: operands of + have different types: float32 and float64 (Warp does not convert implicitly; use a constructor such as wp.float32(x))
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    x = wp.float64(1.0)
    a[i] = a[i] + x
