# expect: 11:5: error: 'k' is defined twice (first at line 6)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    pass


@wp.kernel
def k(a: wp.array(dtype=float)):
    pass
