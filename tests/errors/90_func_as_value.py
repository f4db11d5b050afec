# expect: 12:12: error: function 'g' cannot be used as a value; call it or pass it to a wp.Function parameter
import warp as wp


@wp.func
def g(x: float) -> float:
    return x


@wp.kernel
def k(a: wp.array(dtype=float)):
    a[0] = g
