# expect: 9:39: error: keyword arguments of wp.pow() out of parameter order must be names or constants (a call among them would be evaluated out of order)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    s = wp.rand_init(1, i)
    a[i] = wp.pow(y=wp.randf(s), x=wp.randf(s))
