# expect: 9:11: error: operands of + have different types: float16 and bfloat16 (Warp does not convert implicitly; use a constructor such as wp.float16(x))
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.float16), b: wp.array(dtype=wp.bfloat16)):
    i = wp.tid()
    x = a[i]
    y = x + b[i]
    a[i] = y
