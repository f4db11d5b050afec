# expect: 8:17: error: operands of * have different types: float16 and float32 (Warp does not convert implicitly; use a constructor such as wp.float16(x))
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.float16)):
    i = wp.tid()
    a[i] = a[i] * 2.0
