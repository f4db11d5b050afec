# expect: 6:13: error: wp.indexedarray2d cannot be subscripted (it is a function in Warp); write wp.indexedarray2d(dtype=...) or wp.indexedarray[dtype, 2]
import warp as wp


@wp.kernel
def k(a: wp.indexedarray2d[float]):
    pass
