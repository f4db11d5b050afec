# expect: 10:1: error: wp.overload() of 'k', which has no typing.Any parameter
import warp as wp


@wp.kernel
def k(x: wp.array(dtype=float)):
    x[0] = 1.0


wp.overload(k, [wp.array(dtype=float)])
