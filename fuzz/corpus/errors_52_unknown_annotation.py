# expect: 6:13: error: wp.foo is not a type kern knows (parameter 'a')
import warp as wp


@wp.kernel
def k(a: wp.foo):
    pass
