# expect: 7:12: error: recursive call of 'g' is not supported
import warp as wp


@wp.func
def g(x: int) -> int:
    return g(x - 1)
