# expect: 8:26: error: range() step must not be zero
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    for j in range(0, 3, 0):
        pass
