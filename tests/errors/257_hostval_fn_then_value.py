# expect: 13:5: error: 'f' holds the function 'a'; it cannot be assigned a value
import warp as wp


@wp.func
def a(x: float):
    return x


@wp.kernel
def k(o: wp.array(dtype=float)):
    f = a
    f = 2.0
    o[0] = f
