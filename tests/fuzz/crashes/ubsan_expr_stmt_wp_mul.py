import warp as wp
@wp.kernel
def t(b:(wp.vec2)):wp.mul(b,5)