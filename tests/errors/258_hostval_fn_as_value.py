# expect: 13:12: error: function 'f' cannot be used as a value; call it or pass it to a wp.Function parameter
import warp as wp


@wp.func
def a(x: float):
    return x


@wp.kernel
def k(o: wp.array(dtype=float)):
    f = a
    o[0] = f + 1.0
