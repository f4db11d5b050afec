# expect: 8:15: error: wp.pnoise() of a 2-d position takes 2 periods, got 1
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = wp.pnoise(wp.uint32(1), wp.vec2(a[i], 0.0), 3)
