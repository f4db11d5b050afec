# expect: 7:12: error: wp.zeros() in a kernel needs a dtype (Warp has no default there)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    f = wp.zeros(shape=3)
    a[0] = int(f[0])
