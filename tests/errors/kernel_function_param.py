# expect: 5:17: error: kernel parameter 'g' cannot be a wp.Function (only a @wp.func can take a function)
import warp as wp

@wp.kernel
def apply_unary(g: wp.Function, x: float):
    y = g(x)
