# expect: 7:12: error: wp.vec3bf is not a function kern supports
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.bfloat16)):
    v = wp.vec3bf(a[0], a[1], a[2])
    a[0] = v[0]
