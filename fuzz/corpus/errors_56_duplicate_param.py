# expect: 6:33: error: duplicate parameter 'a'
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float), a: int):
    pass
