# expect: 12:33: error: wp.zeros(): the elements of a fixed-size array are scalars, vectors, matrices or structs without array fields, not S
import warp as wp


@wp.struct
class S:
    xs: wp.array(dtype=float)


@wp.kernel
def k(a: wp.array(dtype=int)):
    f = wp.zeros(shape=3, dtype=S)
