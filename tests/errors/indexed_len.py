# expect: 7:16: error: len() of a wp.indexedarray is not supported by Warp; write a.shape[0]
import warp as wp


@wp.kernel
def k(a: wp.indexedarray(dtype=float), n: wp.array(dtype=int)):
    n[0] = len(a)
