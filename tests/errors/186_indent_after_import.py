# expect: 4:5: error: unexpected indent
import warp as wp

    @wp.kernel
    def k(x: wp.array(dtype=wp.float32)):
        x[0] = 1.0
