# expect: 8:21: error: the seed of wp.noise() must be uint32, got float32
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = wp.noise(1.5, a[i])
