# expect: 7:12: error: a @wp.func can return a fixed-size array only whole (a wp.zeros() array, not a sub-array or slice of one)
import warp as wp


@wp.func
def same(a: wp.array[int]):
    return a


@wp.kernel
def k(out: wp.array(dtype=int)):
    f = wp.zeros(shape=3, dtype=int)
    g = same(f)
    out[0] = g[0]
