# expect: 7:11: error: an indexed array cannot be sliced (Warp has no slices of wp.indexedarray); index it with integers
import warp as wp


@wp.kernel
def k(a: wp.indexedarray[float]):
    x = a[1:3]
