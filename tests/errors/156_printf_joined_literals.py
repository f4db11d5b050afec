# expect: 9:17: error: bad conversion '%y' in the wp.printf() format: unsupported conversion (use one of diuxXoc eEfFgGaA)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    i = wp.tid()
    wp.printf("ab\t"  # the first part
              "%y", i)
