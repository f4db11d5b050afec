# expect: 9:26: error: vec5() has length 5; length= must say so
import warp as wp

vec5 = wp.types.vector(length=5, dtype=float)


@wp.kernel
def k(a: wp.array(dtype=float)):
    v = vec5(1.0, length=4)
