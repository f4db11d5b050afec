# expect: 17:5: error: cannot store B into an array of A (Warp needs the element type exactly)
import warp as wp


@wp.struct
class A:
    x: float


@wp.struct
class B:
    x: float


@wp.kernel
def k(a: wp.array(dtype=A), b: wp.array(dtype=B)):
    a[0] = b[0]
