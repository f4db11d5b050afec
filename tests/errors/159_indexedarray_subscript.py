# expect: 6:13: error: wp.indexedarray is not supported
import warp as wp


@wp.kernel
def k(a: wp.indexedarray[float]):
    pass
