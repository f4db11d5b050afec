# expect: 14:12: error: 's' may be read before it is assigned (it is assigned only on some paths before this line)
import warp as wp


# a tile assigned on some paths reads as zeros (as in Warp); a scalar does not
@wp.kernel
def k(a: wp.array(dtype=float), op: int):
    t = wp.tile_zeros(shape=4, dtype=float)
    if op == 1:
        s = 1.0
        u = t
    elif op == 2:
        s = 2.0
    a[0] = s
    wp.tile_store(a, u)
