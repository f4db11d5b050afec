# expect: 8:17: error: bad conversion '%*' in the wp.printf() format: a '*' width is not supported; write the width as a number
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    i = wp.tid()
    wp.printf("%*d\n", i, i)
