# expect: 8:25: error: wp.zeros(): the shape of an array made in a kernel must be an integer constant (Warp: "the `shape` argument must be specified as a constant when zero-initializing an array")
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    tid = wp.tid()
    f = wp.zeros(shape=(tid,), dtype=int)
