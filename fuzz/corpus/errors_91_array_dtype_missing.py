# expect: 6:13: error: wp.array needs a dtype: write wp.array(dtype=...)
import warp as wp


@wp.kernel
def k(a: wp.array):
    pass
