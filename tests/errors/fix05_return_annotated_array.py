# expect: 8:12: error: 'make' returns a fixed-size array but its return type is annotated as array(dtype=int32, ndim=2) (write wp.fixedarray(shape=..., dtype=...))
import warp as wp


@wp.func
def make() -> wp.array2d[int]:
    arr = wp.zeros(shape=(2, 3), dtype=int)
    return arr


@wp.kernel
def k(a: wp.array(dtype=int)):
    arr = make()
