# expect: 9:19: error: the first argument of wp.atomic_add() must be an array, got float32
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    x = 1.0
    wp.atomic_add(x, 0, 1.0)
