# expect: 8:18: error: a wp.printf() format cannot contain a NUL character
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    i = wp.tid()
    wp.printf("ab\0c\n")
