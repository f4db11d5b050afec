# expect: 8:12: error: a @wp.func can return a fixed-size array only whole (a wp.zeros() array, not a sub-array or slice of one)
import warp as wp


@wp.func
def row():
    arr = wp.zeros(shape=(2, 3), dtype=int)
    return arr[0]


@wp.kernel
def k(a: wp.array(dtype=int)):
    r = row()
    a[0] = r[1]
