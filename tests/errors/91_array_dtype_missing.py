# expect: 6:13: error: wp.array needs a dtype: write wp.array[float] or wp.array(dtype=float)
import warp as wp


@wp.kernel
def k(a: wp.array):
    pass
