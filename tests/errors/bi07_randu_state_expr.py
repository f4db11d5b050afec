# expect: 8:21: error: the state argument of wp.randu() must be a variable holding wp.rand_init(...)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    b = wp.randu(wp.rand_init(1))
