# expect: 12:9: error: function 'g' cannot be used as a value; call it
import warp as wp


@wp.func
def g(x: float) -> float:
    return x


@wp.kernel
def k(a: wp.array(dtype=float)):
    f = g
