# expect: 8:9: error: range() is only supported as the iterable of a 'for' loop
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    r = range(3)
