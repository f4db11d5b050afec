# expect: 6:33: error: the number of dimensions of wp.indexedarray[...] must be an integer from 1 to 4
import warp as wp


@wp.kernel
def k(a: wp.indexedarray[float, 5]):
    pass
