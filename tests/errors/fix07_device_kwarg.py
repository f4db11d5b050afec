# expect: 7:38: error: wp.zeros() in a kernel takes shape= and dtype= only, not 'device=' (the array is made on the thread running it)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    f = wp.zeros(shape=3, dtype=int, device="cpu")
