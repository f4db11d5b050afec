# expect: 6:7: error: parameter 'a' of 'k' needs a type annotation
import warp as wp


@wp.kernel
def k(a):
    pass
