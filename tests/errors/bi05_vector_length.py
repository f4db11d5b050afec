# expect: 7:12: error: wp.vector() filled with one value needs length=
import warp as wp

@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    v = wp.vector(a[i])
