# expect: 8:11: error: the branches of a conditional expression have different types: int32 and float32
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    x = 1 if i > 0 else 2.0
