# expect: 8:5: error: cannot assign array(dtype=float32, ndim=2) to 'r', which is array(dtype=float32) (a variable keeps the type of its first assignment)
import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=float)):
    r = a[0]
    r = a
    r[0] = 1.0
