# expect: 6:28: error: wp.float16 is not supported yet (second stage of the language)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.float16)):
    pass
