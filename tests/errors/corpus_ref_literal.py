# expect: 13:9: error: a wp.ref parameter cannot take 'x', which Warp treats as a constant here (it was last assigned a literal); make it a variable: x = wp.int32(...)
import warp as wp


@wp.func
def inc(x: wp.ref[wp.int32]):
    x += 1


@wp.kernel
def k(a: wp.array(dtype=int)):
    x = -1
    inc(x)
    a[0] = x
