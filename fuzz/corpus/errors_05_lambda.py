# expect: 8:9: error: lambda expressions are not supported
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    f = lambda x: x
