# expect: 9:11: error: operands of * have different types: float64 and float32 (Warp does not convert implicitly; use a constructor such as wp.float64(x))
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    x = wp.float64(1.0)
    y = x * 2.0
