# expect: 8:8: error: wp.atomic_add() needs 32- or 64-bit elements, got int8
import warp as wp


@wp.kernel
def k(b: wp.array(dtype=wp.int8)):
    i = wp.tid()
    wp.atomic_add(b, i, wp.int8(1))
