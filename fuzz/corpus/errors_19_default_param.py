# expect: 6:22: error: default parameter values are not supported
import warp as wp


@wp.func
def g(x: int, y: int = 2):
    return x + y
