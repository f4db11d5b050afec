# expect: 7:17: error: unpacking an array slice with '*' needs constant, non-negative bounds and a positive step (the number of arguments must be known when the kernel is compiled)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float), n: int):
    v = wp.vec3(*a[0:n])
    a[0] = v[0]
