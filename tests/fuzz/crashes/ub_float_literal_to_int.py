import warp as wp
@wp.kernel
def d():int(1e39)