# expect: 8:22: error: bad conversion '%#c' in the wp.printf() format: the '#' flag cannot be used with this conversion
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    i = wp.tid()
    wp.printf("ab" r"%#c", i)
