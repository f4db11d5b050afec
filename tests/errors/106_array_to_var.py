# expect: 8:5: error: cannot assign array(dtype=float32) to 'r', which is float32 (a variable keeps the type of its first assignment)
import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=float)):
    r = a[0, 0]
    r = a[0]
    a[0, 0] = r
