# expect: 6:28: error: wp.spatial_vectorh is not supported yet (second stage of the language)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.spatial_vectorh)):
    i = wp.tid()
    a[i] = a[i]
