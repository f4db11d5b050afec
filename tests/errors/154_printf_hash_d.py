# expect: 8:16: error: bad conversion '%#d' in the wp.printf() format: the '#' flag cannot be used with this conversion
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    i = wp.tid()
    wp.printf("%#d\n", i)
