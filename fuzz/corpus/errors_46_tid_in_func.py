# expect: 7:15: error: wp.tid() can only be called in a kernel
import warp as wp


@wp.func
def g() -> int:
    return wp.tid()
