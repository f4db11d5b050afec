# expect: 4:16: error: wp.types.matrix() needs a shape of at least (1, 1), got (0, 3)
import warp as wp

m03 = wp.types.matrix(shape=(0, 3), dtype=float)


@wp.kernel
def k(a: wp.array(dtype=m03)):
    pass
