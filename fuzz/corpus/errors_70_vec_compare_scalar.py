# expect: 9:10: error: cannot compare vec3 with float32 (Warp does not convert implicitly)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    v = wp.vec3(1.0, 2.0, 3.0)
    if v < 1.0:
        pass
