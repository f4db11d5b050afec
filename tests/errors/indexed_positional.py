# expect: 6:26: error: wp.indexedarray() takes the data array first; a type is written with keywords: wp.indexedarray(dtype=float, ndim=1)
import warp as wp


@wp.kernel
def k(a: wp.indexedarray(float)):
    pass
