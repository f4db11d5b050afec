# expect: 6:13: error: wp.indexedarray2d() needs a dtype
import warp as wp


@wp.kernel
def k(a: wp.indexedarray2d(ndim=2)):
    pass
