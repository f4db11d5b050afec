# expect: 4:5: error: round() with ndigits is not supported in a constant
import warp as wp

R = round(2.567, 2)


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = R
